import ArgumentParser
import Foundation
import Porter

/// `porter export DB --out DIR [--format bson|json|ejson|ejson-canonical] [--class C …] [--array]`.
public struct ExportCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a database as BSON, Extended JSON or plain JSON: schema.json plus one file per top-level class.")
    /// The database file.
    @Argument(help: "A Porter database or a Realm file.") public var database: String
    /// The output folder, or `-` for standard output (with exactly one --class).
    @Option(name: .long, help: "The output folder (created when missing), or '-' to stream one --class to stdout.") public var out: String
    /// The format name.
    @Option(name: .long, help: "bson (default), json (plain, schema-typed), ejson (relaxed Extended JSON) or ejson-canonical.") public var format: String = "bson"
    /// Classes to export.
    @Option(name: .customLong("class"), help: "A top-level class to export (repeatable); default: every top-level class.") public var classes: [String] = []
    /// JSON array instead of one document per line.
    @Flag(name: .long, help: "JSON formats: write a JSON array instead of one document per line.") public var array = false
    /// What a Realm file does not store.
    @Option(name: .long, help: ArgumentHelp("A schema file supplying what a Realm file does not store (linkingObjects, defaults) for schema.json.", valueName: "models.json")) public var models: String?
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// ArgumentParser requirement.
    public init() {}

    /// Exports and says where the files went.
    public func run(output: CommandOutput) throws {
        let outputFormat = try InterchangeFormats.outputFormat(named: format)
        if array && outputFormat.fileExtension != "json" {
            throw PorterError(.usage, "--array applies to the JSON formats (json, ejson, ejson-canonical), not \(format)")
        }
        let exportOptions = ExportOptions(classes: classes, array: array)
        let exporter: Exporter
        switch try StoreFile.open(database, encryption: encryption) {
        case .porter(let db):
            exporter = Exporter(database: db, format: outputFormat, options: exportOptions)
        case .realm(let file):
            let schema = StoreFile.realm(file).schema(models: try loadModels(models), notes: output.err)
            exporter = Exporter(realmFile: file, schema: schema, format: outputFormat, options: exportOptions)
        }
        if out == "-" {
            guard classes.count == 1, let className = classes.first else {
                throw PorterError(.usage, "--out - streams exactly one class: pass one --class")
            }
            let stdout = ByteOutput.standardOutput()
            let report = try exporter.export(className: className, to: stdout)
            for warning in report.warnings { output.err(warning) }
            return
        }
        let report = try exporter.export(toDirectory: out)
        let total = report.files.reduce(0) { $0 + $1.documents }
        output.out("Exported \(total) document\(total == 1 ? "" : "s") from \(database) as \(format) to \(out):")
        for file in report.files {
            output.out("  \(file.path)  \(file.documents) \(file.className)")
        }
        if let schemaPath = report.schemaPath { output.out("  \(schemaPath)  schema") }
        for warning in report.warnings { output.err(warning) }
    }
}
