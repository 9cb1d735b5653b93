import Foundation
import PorterModel
import PorterDocument
import PorterStore

extension Exporter {
    /// Writes the exported classes as one relational SQLite file at `path` (see
    /// ``RelationalLayout``), atomically: a temporary file beside it is filled in one transaction,
    /// its foreign keys checked by SQLite, synced to disk and renamed into place.
    /// - Parameters:
    ///   - force: replace an existing file (otherwise that is an error).
    ///   - beforeCommit: runs once the file is complete, before it is renamed into place; what it
    ///     throws removes the file (`porter export` waits there for its check of the input).
    /// - Throws: ``PorterError``; nothing is left behind at `path` or beside it.
    public func export(toSQLite path: String, force: Bool = false, beforeCommit: () throws -> Void = {}) throws
        -> ExportReport
    {
        let (exportSchema, classes, kept) = try relationalSchema(format: "sqlite")
        let layout = try RelationalLayout(schema: exportSchema, classes: classes)
        try checkOneFileOutput(path, format: "sqlite", force: force)
        // An empty file under a temporary name a caught signal removes (with SQLite's side
        // files), which SQLite fills as a new database; renamed into place once complete.
        let (temp, fd) = try TemporaryFiles.makeFile(beside: path, sideFiles: true)
        close(fd)
        var report = ExportReport()
        do {
            var file: PlainSQLiteFile? = try PlainSQLiteFile(fillingEmpty: temp, displayPath: path)
            guard let sqlite = file else { return report }
            let writer = RelationalWriter(file: sqlite, layout: layout)
            try sqlite.execute("BEGIN")
            try writer.createTables()
            report = try writeRelational(layout, kept: kept, path: path, write: writer.writeObject)
            try writer.createIndexes()
            try sqlite.execute("COMMIT")
            if let violation = try sqlite.rows("PRAGMA foreign_key_check").first {
                let names = violation.map { cell -> String in
                    switch cell {
                    case .text(let s): return s
                    case .integer(let i): return String(i)
                    default: return "?"
                    }
                }
                throw PorterError(
                    .notADatabase,
                    "a link points to an object that is not exported (SQLite foreign_key_check: table \(names.first ?? "?"), row \(names.dropFirst().first ?? "?"), parent \(names.dropFirst(2).first ?? "?"))",
                    location: self.path)
            }
            file = nil
            try TemporaryFiles.syncFile(temp, name: path)
            try beforeCommit()
            try TemporaryFiles.renameIntoPlace(temp, at: path)
        } catch {
            TemporaryFiles.remove(temp, sideFiles: true)
            throw error
        }
        return report
    }

    /// Checks the one file a relational export writes at `path`: not a folder, not there unless
    /// `force`, not the exported file itself.
    func checkOneFileOutput(_ path: String, format: String, force: Bool) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue {
            throw PorterError(.io, "is a folder: --format \(format) writes one file", location: path)
        }
        if !force {
            throw PorterError(
                .io,
                "already exists: Porter does not overwrite a file with an export; pass --force to replace it, or choose another --out",
                location: path)
        }
        if URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
            == URL(fileURLWithPath: self.path).standardizedFileURL.resolvingSymlinksInPath()
        {
            throw PorterError(.usage, "--out is the exported file itself: choose another --out", location: path)
        }
    }

    /// Writes every selected object of the layout's classes through `write`, in one read snapshot.
    func writeRelational(
        _ layout: RelationalLayout, kept: [String: [Int]], path: String,
        eachClass: (RelationalTable, () throws -> Void) throws -> Void = { try $1() },
        write: (RelationalTable, ObjectKey, [Value], ExportObjectSource) throws -> Void
    ) throws -> ExportReport {
        var report = ExportReport()
        var written = 0
        try read {
            for table in layout.topLevel {
                guard let cls = table.objectClass else { continue }
                let source = try source(for: cls)
                let selected = try compiledSelection(for: cls, source: source)
                let keep = kept[cls.name]
                var count = 0
                // (`write` does not escape: the compiler cannot see that through `eachClass`.)
                try withoutActuallyEscaping(write) { write in
                    try eachClass(table) {
                        try forEachSelected(source, selected) { key, values in
                            try checkCancelled()
                            let values = keep.map { $0.map { values[$0] } } ?? values
                            try write(table, key, values, source)
                            count += 1
                            written += 1
                            if written & 255 == 0 { progress?(written) }
                        }
                    }
                }
                report.files.append(ExportReport.ClassFile(className: cls.name, path: path, documents: count))
            }
        }
        return report
    }

    /// The schema and classes a relational export holds: with `--fields`, the selected class keeps only
    /// those properties (and its primary key), whose positions among the stored values `kept` gives.
    func relationalSchema(format: String) throws -> (Schema, [ObjectSchema], [String: [Int]]) {
        let classes = try exportedClasses()
        guard let selection, !selection.fields.isEmpty, var cls = schema[selection.className] else {
            return (schema, classes, [:])
        }
        for field in selection.fields where field.contains(".") {
            throw PorterError(
                .usage,
                "--fields: '\(field)': --format \(format) keeps whole columns of \(cls.name); dotted paths apply to the document formats and CSV"
            )
        }
        for field in selection.fields where cls.property(named: field).map({ $0.isComputed }) ?? true {
            throw PorterError(.usage, "--fields: unknown property '\(cls.name).\(field)' in '\(field)'")
        }
        let names = Set(selection.fields + (cls.primaryKey.map { [$0] } ?? []))
        let stored = cls.persistedProperties
        let kept = stored.indices.filter { names.contains(stored[$0].name) }
        cls.properties = kept.map { stored[$0] }
        let projected = Schema(version: schema.version, classes: schema.classes.map { $0.name == cls.name ? cls : $0 })
        return (projected, classes.map { $0.name == cls.name ? cls : $0 }, [cls.name: kept])
    }
}
