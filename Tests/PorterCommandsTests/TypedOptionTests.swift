import ArgumentParser
import Foundation
import Porter
import PorterCommands
import PorterTestSupport
import Testing

/// Options with a closed set of values are enums: `--help` lists the values, an unknown value is an
/// argument error (exit 64, argument-parser's message naming the option) before any file is touched,
/// and each set is exactly what the code behind it handles.
@Suite struct TypedOptionTests {
    @Test(arguments: [
        (
            ["create", "NEW", "--schema", TestFiles.schema, "--format", "sqlite"],
            "The value 'sqlite' is invalid for '--format <format>'. Please provide one of 'porter' and 'realm'."
        ),
        (
            ["salvage", "REALM", "--out", "NEW", "--format", "csv"],
            "The value 'csv' is invalid for '--format <format>'. Please provide one of "
                + "'realm', 'bson', 'ejson', 'ejson-canonical' or 'json'."
        ),
        (
            ["import", "NEW", TestFiles.schema, "--format", "yaml"],
            "The value 'yaml' is invalid for '--format <format>'. Please provide one of the following:\n  - auto\n"
        ),
        (
            ["import", "NEW", TestFiles.schema, "--mode", "sideways"],
            "The value 'sideways' is invalid for '--mode <mode>'. Please provide one of 'insert', 'upsert' or 'merge'."
        ),
        (
            ["codegen", TestFiles.schema, "--lang", "kotlin"],
            "The value 'kotlin' is invalid for '--lang <lang>'. Please provide one of 'grdb' and 'realmswift'."
        ),
        (
            ["query", "translate", "name == 'a'", "--class", "Dog", "--schema", TestFiles.schema, "--to", "oracle"],
            "The value 'oracle' is invalid for '--to <to>'. Please provide one of 'sql', 'postgres' or 'mongo'."
        ),
    ])
    func anUnknownValueIsAnArgumentError(_ arguments: [String], _ message: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let names = ["NEW": tmp.path("new"), "REALM": RealmFileCareTests.plain]
        let run = CapturedOutput.run(arguments.map { names[$0] ?? $0 })
        #expect(run.status == 64)
        #expect(run.output.stderr.hasPrefix(message), "\(run.output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).isEmpty)
    }

    @Test(arguments: [
        (CreateCommand.helpMessage(columns: 1000), "--format <format>", "(values: porter, realm; default: porter)"),
        (
            SalvageCommand.helpMessage(columns: 1000), "--format <format>",
            "(values: realm, bson, ejson, ejson-canonical, json; default: realm)"
        ),
        (
            ImportCommand.helpMessage(columns: 1000), "--format <format>",
            "(values: auto, bson, ejson, ejson-canonical, extended-json, json, archive, csv; default: auto)"
        ),
        (ImportCommand.helpMessage(columns: 1000), "--mode <mode>", "(values: insert, upsert, merge; default: insert)"),
        (CodegenCommand.helpMessage(columns: 1000), "--lang <lang>", "(values: grdb, realmswift)"),
        (QueryTranslateCommand.helpMessage(columns: 1000), "--to <to>", "(values: sql, postgres, mongo)"),
        (
            ExportCommand.helpMessage(columns: 1000), "--format <format>",
            "(values: bson, json, ejson, ejson-canonical, csv, sqlite, postgres, realm; default: bson)"
        ),
    ])
    func helpListsTheValues(_ help: String, _ option: String, _ values: String) {
        // The option's own line (not the usage line, which names it too).
        let line = help.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(option) }
        #expect(line?.contains(values) == true, "\(help)")
    }

    @Test func theImportFormatsAreTheReadersNames() {
        let readers = Set(InterchangeFormats.input.flatMap(\.names))
        #expect(Set(ImportFormat.allCases.filter { $0 != .auto }.map(\.rawValue)) == readers)
    }

    @Test func theSalvageFormatsAreRealmOrExportFormats() {
        for format in SalvageFormat.allCases where format != .realm {
            #expect(ExportFormat(rawValue: format.rawValue) != nil, "\(format)")
        }
    }
}
