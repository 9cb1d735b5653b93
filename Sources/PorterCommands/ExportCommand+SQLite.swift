import ArgumentParser
import Foundation
import Porter
import PorterRealm

extension ExportCommand {
    /// `--format sqlite`: one relational SQLite file (a table per class, child tables for
    /// collections and embedded objects), written atomically.
    /// - Parameter inputCheck: the check of the file, made meanwhile; the export file is renamed
    ///   into place only after it passed.
    func exportSQLite(output: CommandOutput, inputCheck: BackgroundInputCheck) throws {
        // validate() made sure of one --out file and no option of other formats.
        guard let out else { return }
        let options = ExportOptions(classes: classes)
        let store = try StoreFile.open(database, encryption: encryption)
        let exporter: Exporter
        switch store {
        case .porter(let db):
            exporter = Exporter(
                database: db, format: try InterchangeFormats.outputFormat(named: "bson"), options: options)
        case .realm(let file):
            let schema = store.schema(models: try loadModels(models.path), notes: output.err)
            exporter = Exporter(
                realmFile: file, schema: schema, format: try InterchangeFormats.outputFormat(named: "bson"),
                options: options)
        }
        try select(exporter)
        exporter.isCancelled = { inputCheck.hasFailed }
        let progress = ProgressLine.make(verb: "exported", quiet: progressLine.quiet)
        exporter.progress = progress.map { line in { line.update($0) } }
        let report: ExportReport
        do {
            defer { progress?.finish() }
            report = try exporter.export(toSQLite: out, force: force, beforeCommit: inputCheck.wait)
        }
        let total = report.files.reduce(0) { $0 + $1.documents }
        output.out(
            "Exported \(total) object\(total == 1 ? "" : "s") from \(database) as SQLite to \(out) (schema version \(exporter.schema.version)):"
        )
        for file in report.files { output.out("  \(file.className)  \(file.documents)") }
    }
}
