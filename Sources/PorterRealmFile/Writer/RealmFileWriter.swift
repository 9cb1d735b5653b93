import Foundation
import PorterModel

/// Supplies the objects to write, class by class.
public protocol RealmWriteSource {
    /// Objects of a top-level class, streamed in any order: the source's object key (unique within the class)
    /// and values parallel to the class's persisted properties (schema order, no linkingObjects).
    /// Links are `.link(className:key:)` with the TARGET's source key; embedded objects come inline as `.embedded`.
    ///
    /// The writer may call this several times per class (to resolve links and backlinks before
    /// writing); every call must produce the same objects in the same order.
    func forEachObject(of className: String, _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void) throws
}

/// Writes Realm Core files of file format 24 (realm-core 14, Realm Swift 10.49+ / 20.x) the way
/// the object store lays them out: tables `class_<Name>`, the `metadata` table with the schema
/// version, primary keys with their search index, indexed properties, embedded tables, links
/// with their backlink columns, lists, sets and dictionaries.
///
/// Object keys: a class without a primary key keeps the source's keys; a class with one gets
/// keys 0, 1, 2… in the source's order, as realm-core gives them on creation; embedded objects
/// get 0, 1, 2… per class in the order they are met.
public struct RealmFileWriter {
    /// The schema of the file.
    public let schema: Schema
    /// The schema version stored in the `metadata` table.
    public let schemaVersion: UInt64

    /// The file format written: 24 (the default), 23 or 22 (`WriterFileFormat`).
    public let fileFormat: Int
    /// Set when the source is a Realm file of format 23 or older: the strings of its sets of
    /// mixed are in realm-core 13's collation order, which a format 22/23 file keeps (Porter
    /// cannot compute that order itself, and refuses such sets from any other source).
    package var mixedSetStringsInCoreOrder = false

    /// Creates a writer for `schema`, storing `schemaVersion`.
    public init(schema: Schema, schemaVersion: UInt64) {
        self.schema = schema
        self.schemaVersion = schemaVersion
        self.fileFormat = WriterFileFormat.current
    }

    /// Creates a writer of file format `fileFormat` (22, 23 or 24) for an app built with an older SDK.
    /// - Throws: ``PorterError`` `.usage` for another format.
    package init(schema: Schema, schemaVersion: UInt64, fileFormat: Int) throws {
        guard WriterFileFormat.supported.contains(fileFormat) else {
            throw PorterError(
                .usage, "file format \(fileFormat) cannot be written: Porter writes file formats 22, 23 and 24")
        }
        self.schema = schema
        self.schemaVersion = schemaVersion
        self.fileFormat = fileFormat
    }

    /// Writes a complete file of ``fileFormat``: to a temporary file beside `path`, fsync, rename; never a partial file.
    /// With `encryptionKey` (the 64 bytes the SDKs take) the file is encrypted as realm-core does
    /// (AES-256-CBC + HMAC-SHA224 per 4096-byte page).
    /// - Throws: `PorterError` (`invalidValue`, `duplicatePrimaryKey`, `notFound` for a dangling
    ///   link, `io`); the destination is then untouched and no temporary file is left.
    /// `beforeReplacing` runs once the file is complete and synced, before the rename; what it
    /// throws leaves the destination untouched.
    public func write(
        to path: String, source: RealmWriteSource, encryptionKey: [UInt8]? = nil,
        beforeReplacing: () throws -> Void = {}
    ) throws {
        try Self.checkKey(encryptionKey, for: path)
        var plan = try WriterTablePlan(schema: schema, fileFormat: fileFormat)
        plan.mixedSetStringsInCoreOrder = mixedSetStringsInCoreOrder
        try Self.writeAtomically(to: path, encryptionKey: encryptionKey, beforeReplacing: beforeReplacing) { output in
            var builder = WriterFileBuilder(plan: plan, source: source, out: output, schemaVersion: schemaVersion)
            try builder.build()
        }
    }

    /// Refuses a key that is not the 64 bytes the SDKs take, before anything is written.
    static func checkKey(_ encryptionKey: [UInt8]?, for path: String) throws {
        if let key = encryptionKey, key.count != 64 {
            throw PorterError(.invalidInput, "an encryption key must be 64 bytes, got \(key.count)", location: path)
        }
    }

    /// Runs `body` on a new file beside `path`, then fsyncs it, runs `beforeReplacing` and renames
    /// it over `path` (and fsyncs the directory): `path` is the complete new file, with the old
    /// one's permissions, or untouched.
    /// After a failure the temporary file is removed.
    static func writeAtomically(
        to path: String, encryptionKey: [UInt8]?, beforeReplacing: () throws -> Void = {},
        _ body: (WriterOutput) throws -> Void
    ) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let (temporary, fd) = try TemporaryFiles.makeFile(beside: path)
        defer { TemporaryFiles.unregister(temporary) }
        do {
            let output = try WriterOutput(path: temporary, fd: fd, encryptionKey: encryptionKey)
            try body(output)
            // A file replaced keeps its permissions (an app's data file is often private to its user).
            var existing = stat()
            if stat(path, &existing) == 0 { chmod(temporary, existing.st_mode & 0o7777) }
            try output.sync()
            try beforeReplacing()
            guard rename(temporary, path) == 0 else {
                throw PorterError(
                    .io, "cannot move the written file into place: \(String(cString: strerror(errno)))", location: path)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }
}
