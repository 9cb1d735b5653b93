import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// Exports a database (a Porter database or a Realm file): `schema.json` plus one file per
/// top-level class, in one format.
///
/// Everything is read in one read transaction (a consistent snapshot), streamed one object at a
/// time, and written to temporary files that are renamed into place only when every file is
/// complete, so a failed export leaves no half-written files behind.
public final class Exporter {
    /// Where the objects come from.
    enum Origin {
        case database(Database)
        /// Another kind of file, read by the module that knows it (a Realm file: PorterRealm).
        case other(any ExportOrigin)
    }

    let origin: Origin
    /// The schema of the exported file (written as `schema.json`).
    public let schema: Schema
    /// The exported file's path, for messages.
    public let path: String
    /// The output format.
    package let format: DocumentOutputFormat
    /// Which classes, and array or line-delimited JSON.
    public let options: ExportOptions
    /// Called every few hundred documents with the number written so far.
    public var progress: ((Int) -> Void)?
    /// Asked before each document: true stops the export with a ``PorterError`` saying it was
    /// cancelled (the C library's cancellation; what was staged is removed as after any failure).
    public var isCancelled: (() -> Bool)?
    /// `--query`, `--sort`, `--skip`, `--limit`, `--fields` for one class (Exporter+Selection.swift).
    public var selection: ExportSelection?
    /// Databases, collections and validators of a mongodump export (``DumpNamespaces``); nil: one
    /// flat folder of files named after the classes, as before.
    public var namespaces: DumpNamespaces?
    /// Whether `--query` selects a Porter database's objects by its SQL translation where it has
    /// an exact one (exports into PostgreSQL: issue #40), rather than by the evaluator.
    var translatesQuery = false
    private var written = 0

    /// Creates an exporter of a Porter database.
    package init(database: Database, format: DocumentOutputFormat, options: ExportOptions = ExportOptions()) {
        origin = .database(database)
        schema = database.schema
        path = database.path
        self.format = format
        self.options = options
    }

    /// Creates an exporter of objects another module reads (a Realm file: PorterRealm's
    /// `Exporter(realmFile:…)`), with the schema written as `schema.json` and the file's path.
    package init(
        origin: any ExportOrigin, schema: Schema, path: String, format: DocumentOutputFormat, options: ExportOptions
    ) {
        self.origin = .other(origin)
        self.schema = schema
        self.path = path
        self.format = format
        self.options = options
    }

    /// Runs `body` on one consistent snapshot (a Realm file is read-only: it is one already).
    func read(_ body: () throws -> Void) throws {
        switch origin {
        case .database(let database): try database.read(body)
        case .other: try body()
        }
    }

    /// The objects of one top-level class.
    func source(for cls: ObjectSchema) throws -> ExportObjectSource {
        switch origin {
        case .database(let database):
            return try ExportCursor(database: database, className: cls.name)
        case .other(let origin):
            return try origin.source(for: cls)
        }
    }

    /// The classes to export, in schema order: the requested ones (checked), or every top-level class.
    public func exportedClasses() throws -> [ObjectSchema] {
        if options.classes.isEmpty { return schema.classes.filter { !$0.isEmbedded } }
        // Each class once, in the order given.
        var seen = Set<String>()
        return try options.classes.filter { seen.insert($0).inserted }.map { name in
            guard let cls = schema[name] else {
                throw PorterError(.notFound, "no class named '\(name)' in the database's schema", location: path)
            }
            if cls.isEmbedded {
                throw PorterError(
                    .usage, "'\(name)' is an embedded class: its objects are exported inside their parents' documents",
                    location: path)
            }
            return cls
        }
    }

    /// Writes `schema.json` and the class files into `directory` (created when missing), each
    /// under a temporary name renamed into place once every file is complete.
    /// - Parameter beforeCommit: runs once every file is complete, before the renames; what it
    ///   throws removes them (`porter export` waits there for its check of the input).
    public func export(toDirectory directory: String, beforeCommit: () throws -> Void = {}) throws -> ExportReport {
        let classes = try exportedClasses()
        if let namespaces {
            guard format.fileExtension == "bson" || !namespaces.validators else {
                throw PorterError(.usage, "validators are for mongorestore: they need --format bson")
            }
            try namespaces.validate(classes: classes.map(\.name), schema: schema)
        }
        var isDirectory: ObjCBool = false
        let existed = FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
        if existed && !isDirectory.boolValue {
            throw PorterError(.io, "output path exists and is not a folder", location: directory)
        }
        if !existed {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw PorterError(
                    .io, "cannot create the output folder: \(error.localizedDescription)", location: directory)
            }
            // Made by this export: a caught signal removes it with the files being written.
            TemporaryFiles.register(directory)
        }
        var staged: [(temp: String, final: String)] = []
        var report = ExportReport()
        // Writes one file under a temporary name (gzipped with --gzip), renamed at the end.
        func stage(_ fileName: String, in folder: String? = nil, gzip: Bool, _ body: (ByteOutput) throws -> Void)
            throws -> String
        {
            let name = gzip ? fileName + ".gz" : fileName
            let final = try ExportFileNames.path(in: folder ?? directory, fileName: name)
            // Under a temporary name a caught signal removes.
            let (temp, file) = try ByteOutput.creatingTemporaryFile(beside: final)
            staged.append((temp, final))
            let output = gzip ? try ByteOutput(gzipInto: file) : file
            do {
                try body(output)
                try output.close()
            } catch {
                output.abandon()
                throw error
            }
            return final
        }
        // The database folders made by this export (mongodump's <database>/<collection>.bson).
        var madeFolders: [String] = []
        do {
            try read {
                for cls in classes {
                    let collection = namespaces?.collection(for: cls.name) ?? cls.name
                    var folder = directory
                    if let database = namespaces?.database(for: cls.name) {
                        folder = try ExportFileNames.path(in: directory, fileName: database)
                        if !FileManager.default.fileExists(atPath: folder) {
                            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
                            TemporaryFiles.register(folder)
                            madeFolders.append(folder)
                        }
                    }
                    let fileName = ExportFileNames.fileName(forClass: collection, extension: format.fileExtension)
                    var counts = (0, 0)
                    let final = try stage(fileName, in: folder, gzip: options.gzip) {
                        counts = try writeClass(cls, to: $0)
                    }
                    report.files.append(ExportReport.ClassFile(className: cls.name, path: final, documents: counts.0))
                    report.flooredDates += counts.1
                    // mongorestore recreates indexes (and validators) from the metadata file
                    // beside each .bson file.
                    if format.fileExtension == "bson" {
                        let metadataName = ExportFileNames.fileName(forClass: collection, extension: "metadata.json")
                        let validator =
                            namespaces?.validators == true ? DumpValidator.validator(for: cls, schema: schema) : nil
                        _ = try stage(metadataName, in: folder, gzip: options.gzip) {
                            try $0.write(DumpMetadata.json(for: cls, collection: collection, validator: validator))
                        }
                    }
                }
                report.schemaPath = try stage(ExportFileNames.schemaFile, gzip: false) {
                    try $0.write(schema.jsonString(pretty: true))
                }
            }
            try beforeCommit()
            for file in staged {
                guard rename(file.temp, file.final) == 0 else {
                    throw PorterError(
                        .io, "cannot move the finished file into place: \(String(cString: strerror(errno)))",
                        location: file.final)
                }
                TemporaryFiles.unregister(file.temp)
            }
            for folder in madeFolders { TemporaryFiles.unregister(folder) }
            if !existed { TemporaryFiles.unregister(directory) }
        } catch {
            for file in staged { TemporaryFiles.remove(file.temp) }
            for folder in madeFolders.reversed() { TemporaryFiles.remove(folder) }
            if !existed { TemporaryFiles.remove(directory) }
            throw error
        }
        return report
    }

    /// Streams one class to `output` (for `--out -`); the output is flushed but not closed.
    package func export(className: String, to output: ByteOutput) throws -> ExportReport {
        guard let cls = schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the database's schema", location: path)
        }
        if cls.isEmbedded {
            throw PorterError(
                .usage, "'\(className)' is an embedded class: its objects are exported inside their parents' documents",
                location: path)
        }
        var report = ExportReport()
        try read {
            let (count, floored) = try writeClass(cls, to: output)
            try output.flush()
            report.files.append(ExportReport.ClassFile(className: cls.name, path: output.name, documents: count))
            report.flooredDates = floored
        }
        return report
    }

    /// Writes a mongodump archive of the exported classes (database `databaseName`) to
    /// `output`, which is closed at the end (gzipped first with ``ExportOptions/gzip``).
    package func export(toArchive destination: ByteOutput, databaseName: String) throws -> ExportReport {
        guard format.fileExtension == "bson" else {
            throw PorterError(.usage, "an archive holds BSON: --archive needs --format bson, not \(format.name)")
        }
        let classes = try exportedClasses()
        var databaseName = databaseName
        if let namespaces {
            try namespaces.validate(classes: classes.map(\.name), schema: schema)
            let databases = Set(classes.compactMap { namespaces.database(for: $0.name) })
            if databases.count > 1 {
                throw PorterError(
                    .usage,
                    "an archive holds one database, and these classes go to \(databases.sorted().joined(separator: ", ")): export a folder instead"
                )
            }
            databaseName = databases.first ?? databaseName
        }
        let output = options.gzip ? try ByteOutput(gzipInto: destination) : destination
        var report = ExportReport()
        do {
            try read {
                let archive = try MongoArchiveWriter(
                    output: output, database: databaseName,
                    collections: classes.map { cls in
                        let collection = namespaces?.collection(for: cls.name) ?? cls.name
                        let validator =
                            namespaces?.validators == true ? DumpValidator.validator(for: cls, schema: schema) : nil
                        return (collection, DumpMetadata.json(for: cls, collection: collection, validator: validator))
                    })
                for cls in classes {
                    archive.beginCollection(namespaces?.collection(for: cls.name) ?? cls.name)
                    let (count, floored) = try writeClass(cls, to: output, archive: archive)
                    try archive.endCollection()
                    report.files.append(
                        ExportReport.ClassFile(className: cls.name, path: destination.name, documents: count))
                    report.flooredDates += floored
                }
            }
            try output.close()
        } catch {
            output.abandon()
            throw error
        }
        return report
    }

    /// Throws when ``isCancelled`` says so.
    func checkCancelled() throws {
        if let isCancelled, isCancelled() { throw PorterError(.io, "the export was cancelled", location: path) }
    }

    /// Encodes every object of a class; returns the count and the dates whose precision was cut.
    private func writeClass(_ cls: ObjectSchema, to output: ByteOutput, archive: MongoArchiveWriter? = nil) throws -> (
        Int, Int
    ) {
        let encoder =
            try (format as? ClassOutputFormat)?.makeEncoder(output: output, options: options, cls: cls, schema: schema)
            ?? format.makeEncoder(output: output, options: options)
        let cursor = try source(for: cls)
        let selected = try compiledSelection(for: cls, source: cursor)
        let mapper = ExportMapper(cursor: cursor, projection: selected?.projection, reader: selected?.reader)
        var count = 0
        try forEachSelected(cursor, selected) { key, values in
            try checkCancelled()
            try archive?.willWriteDocument()
            try mapper.writeDocument(cls, key: key, values: values, to: encoder)
            count += 1
            written += 1
            if written & 255 == 0 { progress?(written) }
        }
        try encoder.finish()
        return (count, encoder.flooredDates)
    }
}

/// What an export wrote.
public struct ExportReport: Sendable, Equatable {
    /// One class file.
    public struct ClassFile: Sendable, Equatable {
        /// The class.
        public var className: String
        /// The file (or `-`).
        public var path: String
        /// How many documents it holds.
        public var documents: Int
    }

    /// The class files, in schema order.
    public var files: [ClassFile] = []
    /// The schema file, when one was written.
    public var schemaPath: String?
    /// Dates whose digits below the millisecond were dropped (BSON and Extended JSON hold milliseconds).
    public var flooredDates = 0

    /// Warning lines for the user (empty when nothing was lost).
    public var warnings: [String] {
        guard flooredDates > 0 else { return [] }
        return [
            "warning: \(flooredDates) date value\(flooredDates == 1 ? " had" : "s had") sub-millisecond precision and \(flooredDates == 1 ? "was" : "were") floored to milliseconds (BSON dates hold milliseconds; use --format json to keep nanoseconds)"
        ]
    }
}
