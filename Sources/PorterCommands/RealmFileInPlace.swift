import Foundation
import Porter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import PorterRealm
#endif

/// Rewrites a Realm file in place (rekey, encrypt, decrypt, compact): the new file is written
/// beside the original under a hidden name carrying the process id, read back and compared with
/// the original (every object read, counts and values compared), then renamed over the original
/// with its permissions, all under the file's writer lock (``RealmFileLock``). Until that rename the
/// original is untouched, so a failure or a kill at any point leaves the original or the finished
/// file, and a later run removes what a killed run left.
struct RealmFileInPlace {
    /// What the rewrite did, for the command's summary.
    struct Outcome {
        var sizeBefore: Int
        var sizeAfter: Int
        var objectCounts: [(className: String, count: Int)]
        var backupPath: String?
    }

    /// The Realm file.
    var path: String
    /// The key it is encrypted with now (nil: not encrypted).
    var sourceKey: [UInt8]?
    /// The key to encrypt the new file with (nil: not encrypted).
    var newKey: [UInt8]?
    /// Where to keep the old file (must not exist yet).
    var backupPath: String?
    /// Whether a file of format 22 or 23 may be rewritten as format 24.
    var allowFormatUpgrade = false
    /// Seconds to wait for another Porter writer of the file.
    var wait: TimeInterval = 5

    /// The marker in the names of the temporary files, before the process id.
    static let marker = ".porter-care-"

    /// Rewrites the file. `body` is told nothing: the whole rewrite is one step.
    /// - Throws: ``PorterError`` naming the file; the original is then unchanged and nothing is left behind.
    func run() throws -> Outcome {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PorterError(.io, "no such file", location: path)
        }
        guard !isDirectory.boolValue else { throw PorterError(.io, "is a folder, not a Realm file", location: path) }
        if StoredFileKind.of(path: path) == .porterDatabase {
            throw PorterError(.usage, "this is a Porter database, not a Realm file", location: path)
        }
        if let backupPath, FileManager.default.fileExists(atPath: backupPath) {
            throw PorterError(.io, "already exists: --backup does not overwrite a file", location: backupPath)
        }
        // Held until the rename: an app or another Porter writer cannot change the file meanwhile.
        let lock = try RealmFileLock(realmFile: path, wait: wait)
        defer { lock.release() }
        Self.removeLeftovers(of: path)
        let source = try StoreFile.openRealm(path, key: sourceKey)
        if source.historyType == 3 || source.historyType == 4 {
            throw PorterError(
                .invalidInput,
                "a synced Realm file (history type \(source.historyType)): rewriting it "
                    + "would drop its sync history; let the app's SDK do it", location: path)
        }
        if source.fileFormat != 24 && !allowFormatUpgrade {
            throw PorterError(
                .invalidInput,
                "the file is of file format \(source.fileFormat); the rewritten file would be "
                    + "format 24, which apps built with Realm before Swift 10.49 / JS 12.8 cannot open: "
                    + "pass --allow-format-upgrade to accept", location: path)
        }
        var mode = stat()
        guard stat(path, &mode) == 0 else {
            throw PorterError(
                .io, "cannot read the file's permissions: \(String(cString: strerror(errno)))", location: path)
        }
        let temporary = Self.temporaryPath(for: path)
        // Removed by a caught signal too (a SIGKILL's is swept by the next run, by its PID).
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister(temporary) }
        do {
            let keysKept = try Self.write(source, to: temporary, key: newKey)
            chmod(temporary, mode.st_mode & 0o7777)
            let counts = try Self.verify(temporary, key: newKey, against: source, compareValues: keysKept)
            let sizeAfter = Self.size(of: temporary)
            if let backupPath { try Self.copyAtomically(path, to: backupPath) }
            guard rename(temporary, path) == 0 else {
                throw PorterError(
                    .io, "cannot move the new file into place: \(String(cString: strerror(errno)))", location: path)
            }
            Self.syncDirectory(of: path)
            return Outcome(
                sizeBefore: source.fileSize, sizeAfter: sizeAfter, objectCounts: counts, backupPath: backupPath)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes `source` to `temporary`, column by column (object keys kept) where the rewriter can,
    /// object by object otherwise. Returns whether object keys were kept.
    static func write(_ source: RealmFile, to temporary: String, key: [UInt8]?) throws -> Bool {
        let schema = source.schema
        let version = source.schemaVersion.map { UInt64(max(0, $0)) } ?? schema.version
        var classes: [String: RealmClassRewrite] = [:]
        for cls in schema.classes {
            var columns: [String: RealmColumnSource] = [:]
            for property in cls.persistedProperties { columns[property.name] = .copy(property.name) }
            classes[cls.name] = RealmClassRewrite(sourceClass: cls.name, columns: columns)
        }
        do {
            try RealmFileRewriter(schema: schema, schemaVersion: version)
                .write(to: temporary, from: source, classes: classes, encryptionKey: key)
            return true
        } catch is RealmRewriteUnsupported {
            try RealmFileOutput.write(source, schema: schema, to: temporary, encryptionKey: key)
            return false
        }
    }

    /// Reads every object of the new file back: the same classes with the same object counts and,
    /// when object keys were kept, the same values. Returns the counts.
    static func verify(
        _ temporary: String, key: [UInt8]?, against source: RealmFile,
        compareValues: Bool
    ) throws -> [(className: String, count: Int)] {
        func failed(_ what: String) -> PorterError {
            PorterError(
                .invalidInput,
                "the rewritten file does not read back as the original (\(what)); "
                    + "the original is unchanged", location: source.path)
        }
        let written: RealmFile
        do {
            written = try RealmFile(path: temporary, encryptionKey: key)
        } catch let error as PorterError {
            throw failed(error.message)
        }
        var counts: [(String, Int)] = []
        for table in source.tables {
            guard let copy = written.table(named: table.name) else { throw failed("class \(table.name) is missing") }
            let expected = try source.objectCount(in: table)
            let got = try written.objectCount(in: copy)
            guard expected == got else { throw failed("\(table.name) has \(got) objects, the original \(expected)") }
            counts.append((table.name, got))
            guard !table.isEmbedded else { continue }
            var read = 0
            try written.forEachObject(in: copy) { object in
                read += 1
                guard compareValues else { return }
                guard let original = try source.object(in: table, key: object.key) else {
                    throw failed("\(table.name) key \(object.key) is not in the original")
                }
                for (i, (a, b)) in zip(original.values, object.values).enumerated() where !a.isSameStoredValue(as: b) {
                    throw failed("\(table.name)[key \(object.key)].\(table.properties[i].name) differs")
                }
            }
            guard read == expected else { throw failed("\(table.name): \(read) objects read of \(expected)") }
        }
        guard written.tables.count == source.tables.count else { throw failed("the class count differs") }
        return counts
    }

    /// `DIR/.NAME.porter-care-PID.tmp`: hidden, beside the file (same file system, so the rename is atomic).
    static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + marker + "\(getpid()).tmp"
    }

    /// Removes the temporary files of earlier runs on `path` whose process is gone (a run killed
    /// before its rename), including the writer's own temporary files inside them.
    static func removeLeftovers(of path: String) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefixes = ["." + url.lastPathComponent + marker, ".." + url.lastPathComponent + marker]
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { continue }
            let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = pid_t(digits), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// Copies `path` to `destination` through a temporary file and a rename: complete or absent.
    static func copyAtomically(_ path: String, to destination: String) throws {
        let url = URL(fileURLWithPath: destination)
        let temporary = url.deletingLastPathComponent().path + "/." + url.lastPathComponent + marker + "\(getpid()).tmp"
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister(temporary) }
        do {
            unlink(temporary)
            try FileManager.default.copyItem(atPath: path, toPath: temporary)
            let fd = open(temporary, O_RDONLY | O_CLOEXEC)
            if fd >= 0 { fsync(fd); close(fd) }
            guard link(temporary, destination) == 0 else {
                throw PorterError(
                    .io, "cannot create the backup: \(String(cString: strerror(errno)))", location: destination)
            }
            unlink(temporary)
            syncDirectory(of: destination)
        } catch let error as PorterError {
            unlink(temporary)
            throw error
        } catch {
            unlink(temporary)
            throw PorterError(.io, "cannot create the backup: \(error.localizedDescription)", location: destination)
        }
    }

    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    static func syncDirectory(of path: String) {
        let fd = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// Reads a key file: 64 raw bytes or 128 hex digits.
    static func readKeyFile(_ path: String, option: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PorterError(.io, "cannot read the key file (\(option))", location: path)
        }
        if data.count == 64 { return [UInt8](data) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PorterError(
                .usage, "the key file holds \(data.count) bytes: expected 64 raw bytes or 128 hex digits",
                location: path)
        }
        return try EncryptionOptions.parseHex(text.trimmingCharacters(in: .whitespacesAndNewlines), source: path)
    }
}
