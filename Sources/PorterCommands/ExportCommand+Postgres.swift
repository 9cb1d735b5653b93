import ArgumentParser
import Foundation
import Porter
import PorterRealm

extension ExportCommand {
    /// `--format postgres` and `--to postgresql://…`: the relational layout of `--format sqlite`
    /// with PostgreSQL's types, as one SQL file of DDL and `COPY` data, or loaded into a server
    /// through libpq in one transaction.
    /// - Parameter inputCheck: the check of the file, made meanwhile; the load commits (the file
    ///   is renamed into place) only after it passed.
    func exportPostgres(output: CommandOutput, inputCheck: BackgroundInputCheck) throws {
        let store = try StoreFile.open(database, encryption: encryption)
        let options = ExportOptions(classes: classes)
        let bson = try InterchangeFormats.outputFormat(named: "bson")
        let exporter: Exporter
        switch store {
        case .porter(let db):
            exporter = Exporter(database: db, format: bson, options: options)
        case .realm(let file):
            let schema = store.schema(models: try loadModels(models.path), notes: output.err)
            exporter = Exporter(realmFile: file, schema: schema, format: bson, options: options)
        }
        try select(exporter)
        exporter.isCancelled = { inputCheck.hasFailed }
        let progress = ProgressLine.make(verb: "exported", quiet: progressLine.quiet)
        exporter.progress = progress.map { line in { line.update($0) } }
        let report: ExportReport
        let destination: String
        do {
            defer { progress?.finish() }
            if let to {
                destination = Exporter.displayPostgresURL(to)
                report = try exporter.load(intoPostgres: to, mode: mode ?? .new, beforeCommit: inputCheck.wait)
            } else {
                destination = try postgresFilePath()
                report = try exporter.export(
                    toPostgresFile: destination, force: force, beforeCommit: inputCheck.wait)
            }
        }
        let total = report.files.reduce(0) { $0 + $1.documents }
        let how = to == nil ? "as a PostgreSQL SQL file to" : "into PostgreSQL at"
        output.out(
            "Exported \(total) object\(total == 1 ? "" : "s") from \(database) \(how) \(destination) (schema version \(exporter.schema.version)):"
        )
        for file in report.files { output.out("  \(file.className)  \(file.documents)") }
    }

    /// `--out FILE.sql`, or `--out FOLDER` (an existing folder, or a path ending in `/`):
    /// `FOLDER/NAME.sql`, NAME the exported file's name without its extension.
    private func postgresFilePath() throws -> String {
        guard let out else {
            throw PorterError(.usage, "--format postgres: pass --out FILE.sql or --to postgresql://…")
        }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory)
        guard out.hasSuffix("/") || exists && isDirectory.boolValue else { return out }
        let name = URL(fileURLWithPath: database).deletingPathExtension().lastPathComponent
        return URL(fileURLWithPath: out).appendingPathComponent(name + ".sql").path
    }

    /// The argument checks of `--format postgres` and `--to`.
    func checkPostgresArguments() throws {
        if let to {
            guard format == .bson || format == .postgres else {
                throw PorterError(
                    .usage,
                    "--to loads into PostgreSQL: leave out --format \(format.rawValue) (or pass --format postgres)")
            }
            guard out == nil else { throw PorterError(.usage, "--to loads into a server: leave out --out") }
            if force { throw PorterError(.usage, "--force applies to --out files; --to uses --mode replace") }
            try Exporter.checkPostgresURL(to)
        } else {
            if mode != nil { throw PorterError(.usage, "--mode applies to --to postgresql://…") }
            guard let out, out != "-" else {
                throw PorterError(
                    .usage, "--format postgres writes one file: pass --out FILE.sql (or --to postgresql://…)")
            }
        }
        let given = [
            (archive != nil, "--archive"), (gzip, "--gzip"), (array, "--array"),
            (outEncryptionKey != nil, "--out-encryption-key"),
        ]
        for (given, name) in given where given {
            throw PorterError(.usage, "\(name) does not apply to --format postgres")
        }
    }
}

extension PostgresLoadMode: ExpressibleByArgument {}
