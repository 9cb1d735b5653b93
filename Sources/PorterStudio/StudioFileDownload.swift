import Foundation
import Hummingbird
import PorterInterchange
import PorterModel
import PorterRealm
import PorterRealmFile
import PorterStore

/// Downloads in the formats `porter export` writes as one whole file: `sqlite` (the relational
/// export of `--format sqlite`, of the class or of a query result) and `realm` (a format-24 Realm
/// file of the class, as `--format realm` writes one).
///
/// Such a file cannot be written into a pipe (SQLite and the Realm writer seek), so it is written
/// to a temporary folder made as Porter makes its temporary folders (registered for removal on
/// a caught signal, swept by the next command after a kill), opened, and removed at once: the
/// response streams the open file in chunks (memory bounded) and closes it when done, failed or
/// abandoned by the browser, so no path of it outlives the request.
enum StudioFileDownload {
    /// The whole-file formats.
    static let formats = ["sqlite", "realm"]

    /// Checks what the class and the store allow before anything is written.
    static func check(store: StudioStore, cls: ObjectSchema, format: String, query: String?) throws {
        if format == "realm", query != nil {
            throw StudioRequestError(
                "a query result cannot be downloaded as a Realm file (porter export --format realm writes whole "
                    + "classes): clear the query or choose another format")
        }
        if store.isEncrypted {
            throw StudioRequestError(
                "an encrypted Realm file is not downloaded as \(format): it would be written decrypted to a "
                    + "temporary file first; use porter export --format \(format)")
        }
    }

    /// Writes the download, then answers it as a stream of the written file.
    /// - Parameter exporter: the class's exporter with the table's selection (`sqlite`).
    static func response(store: StudioStore, cls: ObjectSchema, format: String, exporter: Exporter) throws
        -> Response
    {
        let template = store.temporaryDirectory + "/" + TemporaryFiles.temporaryFolderPrefix + "download-XXXXXX"
        guard let folder = TemporaryFiles.makeFolder(template: template) else {
            throw StudioRequestError(
                "cannot create a temporary folder in \(store.temporaryDirectory): \(String(cString: strerror(errno)))",
                status: 500)
        }
        defer { TemporaryFiles.remove(folder) }
        let fileName = ExportFileNames.fileName(forClass: cls.name, extension: format)
        let path = folder + "/" + fileName
        do {
            try store.accessSync {
                if format == "sqlite" {
                    _ = try exporter.export(toSQLite: path)
                } else {
                    try writeRealmFile(store: store, className: cls.name, to: path)
                }
            }
        } catch let error as PorterError where error.code != .io {
            throw StudioRequestError("\(format) download of \(cls.name): \(error.message)")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StudioRequestError("cannot read the written \(format) file", status: 500)
        }
        // Open: the folder goes now (the `defer`), the data stays readable through `file`.
        let file = OpenDownload(fd)
        var info = stat()
        fstat(fd, &info)
        var headers = HTTPFields()
        headers[.contentType] = format == "sqlite" ? "application/vnd.sqlite3" : "application/octet-stream"
        headers[.contentLength] = String(info.st_size)
        headers[.contentDisposition] = "attachment; filename=\"\(fileName.replacingOccurrences(of: "\"", with: "_"))\""
        headers[.cacheControl] = "no-store"
        let body = ResponseBody { writer in
            defer { file.release() }
            while let chunk = try await StudioExport.readChunk(file.fd) {
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// A Realm file of the class: the class and every class its links and embedded objects reach
    /// (so that no link dangles; every class when one of them holds mixed values, which may link
    /// anywhere), with all their objects, at the file's schema version.
    static func writeRealmFile(store: StudioStore, className: String, to path: String) throws {
        let schema = realmSchema(of: className, in: store.schema)
        switch store.file {
        case .porter(let db):
            try db.read {
                let writer = try RealmFileWriter(
                    schema: schema, schemaVersion: db.schemaVersion, fileFormat: WriterFileFormat.current)
                try writer.write(to: path, source: DatabaseRealmWriteSource(database: db))
            }
        case .realm(let file):
            var writer = try RealmFileWriter(
                schema: schema, schemaVersion: file.schemaVersion.map { UInt64(max(0, $0)) } ?? schema.version,
                fileFormat: WriterFileFormat.current)
            writer.mixedSetStringsInCoreOrder = file.fileFormat <= 23
            try writer.write(to: path, source: RealmFileWriteSource(file: file))
        }
    }

    /// The part of `schema` a Realm file of `className` holds: the classes reachable through
    /// links and embedded objects; linking-objects properties whose origin is left out are dropped.
    static func realmSchema(of className: String, in schema: Schema) -> Schema {
        var kept: Set<String> = [className]
        var pending = [className]
        while let name = pending.popLast() {
            for property in schema[name]?.properties ?? [] where !property.isComputed {
                if property.type == .mixed { return schema }
                if property.type == .object, let target = property.objectType, kept.insert(target).inserted {
                    pending.append(target)
                }
            }
        }
        let classes = schema.classes.filter { kept.contains($0.name) }.map { cls -> ObjectSchema in
            var cls = cls
            cls.properties.removeAll { $0.isComputed && !kept.contains($0.objectType ?? "") }
            return cls
        }
        return Schema(version: schema.version, classes: classes)
    }
}

/// The written download, open for reading after its path is gone; closed once.
private final class OpenDownload: @unchecked Sendable {
    let fd: Int32
    private let lock = NSLock()
    private var open = true

    init(_ fd: Int32) { self.fd = fd }

    func release() {
        lock.withLock {
            guard open else { return }
            open = false
            _ = close(fd)
        }
    }

    // A response dropped before its body ran still closes the file.
    deinit { release() }
}
