import ArgumentParser
import Foundation
import Porter
import PorterRealm

extension ExportCommand {
    /// The `--fields` list.
    var csvFields: [String] {
        (fields ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `--format csv --class C --out FILE.csv`: one class as one CSV file, written under a
    /// temporary name and renamed into place (replacing a file only with `--force`).
    func exportCSVFile(to path: String, output: CommandOutput) throws {
        // validate() made sure of exactly one --class and no option of other formats.
        guard let className = classes.first else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw PorterError(.io, "is a folder: name a file, or leave out the .csv extension", location: path)
            }
            if !force {
                throw PorterError(
                    .io,
                    "already exists: Porter does not overwrite a file with an export; pass --force to replace it, or choose another --out",
                    location: path)
            }
        }
        let options = ExportOptions(classes: classes, gzip: gzip)
        let format = CSVFormat(fields: csvFields, followsLinks: selection != nil)
        let store = try StoreFile.open(database, encryption: encryption)
        let exporter: Exporter
        switch store {
        case .porter(let db): exporter = Exporter(database: db, format: format, options: options)
        case .realm(let file):
            exporter = Exporter(
                realmFile: file, schema: store.schema(models: try loadModels(models.path), notes: output.err),
                format: format, options: options)
        }
        try select(exporter)
        // Under a temporary name a caught signal removes, renamed into place once complete.
        let (temp, file) = try ByteOutput.creatingTemporaryFile(beside: path)
        let report: ExportReport
        do {
            let target = gzip ? try ByteOutput(gzipInto: file) : file
            do {
                report = try exporter.export(className: className, to: target)
                try target.close()
            } catch {
                target.abandon()
                throw error
            }
            guard rename(temp, path) == 0 else {
                throw PorterError(
                    .io, "cannot move the finished file into place: \(String(cString: strerror(errno)))", location: path
                )
            }
            TemporaryFiles.unregister(temp)
        } catch {
            TemporaryFiles.remove(temp)
            throw error
        }
        let total = report.files.reduce(0) { $0 + $1.documents }
        output.out("Exported \(total) \(className) object\(total == 1 ? "" : "s") from \(database) as CSV to \(path)")
    }
}
