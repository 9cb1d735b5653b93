import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `--format csv` both ways: export (folder or one file, `--fields`), import typed by the schema,
/// round trips, and every refusal with its message.
@Suite struct CSVTests {
    static let realmDir = TestFiles.root.appendingPathComponent("Fixtures/realm")
    static let everyType = realmDir.appendingPathComponent("every-type.realm").path

    /// A folder with the every-type schema file and its CSV export.
    static func exported(_ dir: URL) throws -> (schema: String, csv: String) {
        let schema = dir.appendingPathComponent("schema.json").path
        let printed = CapturedOutput.run(["schema", everyType])
        try Data(printed.output.stdout.utf8).write(to: URL(fileURLWithPath: schema))
        let csv = dir.appendingPathComponent("csv").path
        let run = CapturedOutput.run(["export", everyType, "--format", "csv", "--out", csv, "--quiet"])
        try #require(run.status == 0, "\(run.output.stderr)")
        return (schema, csv)
    }

    @Test(arguments: ["every-type", "inner-nodes"])
    func roundTripThroughCSV(_ name: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let source = Self.realmDir.appendingPathComponent("\(name).realm").path
        let schema = dir.appendingPathComponent("schema.json").path
        try Data(CapturedOutput.run(["schema", source]).output.stdout.utf8).write(to: URL(fileURLWithPath: schema))
        let csv = dir.appendingPathComponent("csv").path
        let exported = CapturedOutput.run(["export", source, "--format", "csv", "--out", csv, "--quiet"])
        try #require(exported.status == 0, "\(exported.output.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: csv).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(!files.isEmpty)
        let copy = dir.appendingPathComponent("copy.porter").path
        let imported = CapturedOutput.run(
            ["import", copy, "--create", "--schema", schema, "--quiet"] + files.map { csv + "/" + $0 })
        try #require(imported.status == 0, "\(imported.output.stderr)")
        let a = dir.appendingPathComponent("a").path, b = dir.appendingPathComponent("b").path
        #expect(CapturedOutput.run(["export", source, "--out", a, "--quiet"]).status == 0)
        #expect(CapturedOutput.run(["export", copy, "--out", b, "--quiet"]).status == 0)
        try SQLiteExportTests.expectSameFolders(a, b, "\(name) through CSV")
    }

    @Test func oneClassAsOneFile() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("Target.csv").path
        let run = CapturedOutput.run(["export", Self.everyType, "--format", "csv", "--class", "Target", "--out", out])
        #expect(run.status == 0, "\(run.output.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "name,n\r\nt1,1\r\nt2,\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["Target.csv"])
    }

    @Test func fieldsFollowEmbeddedObjectsAndQuoteAsRFC4180() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("Every.csv").path
        let run = CapturedOutput.run([
            "export", Self.everyType, "--format", "csv", "--class", "Every", "--out", out,
            "--fields", "_id,emb.label,emb.inner.s,target,intList,mixed,date,string",
        ])
        #expect(run.status == 0, "\(run.output.stderr)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(lines[0] == "_id,emb.label,emb.inner.s,target,intList,mixed,date,string")
        #expect(
            lines[1]
                == #"1,root,deep,t1,"[0,-1,1,127,128,-129,32768,-2147483649,9223372036854775807,-9223372036854775808]","{""$ref"":""Target"",""$id"":""t1""}",1969-12-31T23:59:59.999999999Z,"""#
        )
        #expect(lines[2].hasPrefix("-5,,,,[],,1970-01-01T00:00:00Z,"))
    }

    @Test(
        arguments: [
            (["--class", "Every", "--fields", "agee"], "--fields: unknown property 'Every.agee' in 'agee'", 1),
            (
                ["--class", "Every", "--fields", "int.x"],
                "--fields: 'int.x': Every.int is not an object, so it has no 'x'", 1
            ),
            // An argument error (no --class for one file): exit code 64.
            (["--fields", "n"], "--out", 64),
        ] as [([String], String, Int32)])
    func refusesBadFields(_ arguments: [String], _ message: String, _ status: Int32) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("x.csv").path
        let run = CapturedOutput.run(["export", Self.everyType, "--format", "csv", "--out", out] + arguments)
        #expect(run.status == status)
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func refusesFieldsForOtherFormatsAndOverwritesOnlyWithForce() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let other = CapturedOutput.run([
            "export", Self.everyType, "--out", dir.appendingPathComponent("o").path, "--fields", "n",
        ])
        #expect(other.status == 64)
        #expect(
            other.output.stderr.contains("--fields selects from one class: pass exactly one --class (given: 0)"),
            "\(other.output.stderr)")
        let out = dir.appendingPathComponent("Target.csv").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: out))
        let refused = CapturedOutput.run([
            "export", Self.everyType, "--format", "csv", "--class", "Target", "--out", out,
        ])
        #expect(refused.status == 1)
        #expect(
            refused.output.stderr.contains("already exists") && refused.output.stderr.contains("--force"),
            "\(refused.output.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep")
        let forced = CapturedOutput.run([
            "export", Self.everyType, "--format", "csv", "--class", "Target", "--out", out, "--force",
        ])
        #expect(forced.status == 0, "\(forced.output.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("name,n\r\n"))
    }

    /// Bad CSV input: each error names FILE:LINE:column and the value, and nothing is imported.
    @Test(arguments: [
        ("name,n\r\nt1,x\r\n", "Target.csv:2:n: expected an integer, found 'x'"),
        ("name,n\r\nt1,1,2\r\n", "Target.csv:2: this record has 3 cells but the header names 2 columns"),
        ("name,n\r\n\"t1,1\r\n", "Target.csv:2: a quoted field is not closed before the end of the file"),
        ("name,n\r\n\"t1\"x,1\r\n", "Target.csv:2: text after the closing quote of a field"),
        ("name,n,n\r\nt1,1,1\r\n", "Target.csv:1:n: the header names this column twice"),
        ("name,nn\r\nt1,1\r\n", "Target.csv:2:nn:"),
        (",n\r\n,1\r\n", "Target.csv:2:"),
        ("name,n\r\n,1\r\n", "Target.csv:2:name: missing primary key field 'name'"),
    ])
    func badInputIsRefusedWithItsLine(_ text: String, _ message: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let (schema, _) = try Self.exported(dir)
        let file = dir.appendingPathComponent("Target.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let db = dir.appendingPathComponent("db.porter").path
        let run = CapturedOutput.run(["import", db, file, "--create", "--schema", schema, "--quiet"])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test func typedCellsNameTheirColumn() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let (schema, csv) = try Self.exported(dir)
        var text = try String(contentsOfFile: csv + "/Every.csv", encoding: .utf8)
        // The first object's date becomes text that is not a date (line 2, column date).
        text = text.replacingOccurrences(of: ",1969-12-31T23:59:59.999999999Z,", with: ",yesterday,")
        try Data(text.utf8).write(to: URL(fileURLWithPath: csv + "/Every.csv"))
        let db = dir.appendingPathComponent("db.porter").path
        let run = CapturedOutput.run([
            "import", db, csv + "/Target.csv", csv + "/NoPk.csv", csv + "/Every.csv", "--create", "--schema", schema,
            "--quiet",
        ])
        #expect(run.status == 1)
        #expect(
            run.output.stderr.contains("Every.csv:2:date:") && run.output.stderr.contains("yesterday"),
            "\(run.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test func fillMissingAndModes() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let (schema, _) = try Self.exported(dir)
        let db = dir.appendingPathComponent("db.porter").path
        #expect(CapturedOutput.run(["create", db, "--schema", schema]).status == 0)
        let noPk = dir.appendingPathComponent("NoPk.csv").path
        try Data("n,label\r\n,a\r\n".utf8).write(to: URL(fileURLWithPath: noPk))
        let refused = CapturedOutput.run(["import", db, noPk, "--quiet"])
        #expect(refused.status == 1)
        #expect(refused.output.stderr.contains("NoPk.csv:2:n: missing required field 'n'"), "\(refused.output.stderr)")
        let filled = CapturedOutput.run(["import", db, noPk, "--fill-missing", "--quiet"])
        #expect(filled.status == 0, "\(filled.output.stderr)")
        let target = dir.appendingPathComponent("Target.csv").path
        try Data("name,n\r\nt1,1\r\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(CapturedOutput.run(["import", db, target, "--quiet"]).status == 0)
        let duplicate = CapturedOutput.run(["import", db, target, "--quiet"])
        #expect(duplicate.status == 1)
        #expect(duplicate.output.stderr.contains("Target.csv:2"), "\(duplicate.output.stderr)")
        try Data("name,n\r\nt1,5\r\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(CapturedOutput.run(["import", db, target, "--mode", "upsert", "--quiet"]).status == 0)
        // merge: only the columns present change; an empty optional cell is null.
        try Data("name\r\nt1\r\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(CapturedOutput.run(["import", db, target, "--mode", "merge", "--quiet"]).status == 0)
        let out = dir.appendingPathComponent("T.csv").path
        #expect(CapturedOutput.run(["export", db, "--format", "csv", "--class", "Target", "--out", out]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "name,n\r\nt1,5\r\n")
        let nulled = dir.appendingPathComponent("Target.csv").path
        try Data("name,n\r\nt1,\r\n".utf8).write(to: URL(fileURLWithPath: nulled))
        #expect(CapturedOutput.run(["import", db, nulled, "--mode", "merge", "--quiet"]).status == 0)
        #expect(
            CapturedOutput.run(["export", db, "--format", "csv", "--class", "Target", "--out", out, "--force"]).status
                == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "name,n\r\nt1,\r\n")
    }

    /// Quoting: commas, quotes, line breaks and the empty string (`""`, apart from null) round-trip.
    @Test func quotedTextRoundTrips() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let (schema, _) = try Self.exported(dir)
        let db = dir.appendingPathComponent("db.porter").path
        #expect(CapturedOutput.run(["create", db, "--schema", schema]).status == 0)
        let file = dir.appendingPathComponent("NoPk.csv").path
        let text =
            "\u{FEFF}_key,n,label\r\n1,1,\"a,b\"\r\n2,2,\"say \"\"hi\"\"\"\n3,3,\"two\r\nlines\"\r\n4,4,\"\"\r\n5,5,\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let run = CapturedOutput.run(["import", db, file, "--quiet"])
        #expect(run.status == 0, "\(run.output.stderr)")
        let out = dir.appendingPathComponent("out.csv").path
        #expect(CapturedOutput.run(["export", db, "--format", "csv", "--class", "NoPk", "--out", out]).status == 0)
        #expect(
            try String(contentsOfFile: out, encoding: .utf8)
                == "_key,n,label\r\n1,1,\"a,b\"\r\n2,2,\"say \"\"hi\"\"\"\r\n3,3,\"two\r\nlines\"\r\n4,4,\"\"\r\n5,5,\r\n"
        )
    }
}
