import Foundation
import PorterTestSupport
import Testing

/// `porter export --query/--sort/--skip/--limit/--fields` through the built binary, on the
/// every-type Realm file: stdout streaming, exit codes and one-line errors.
@Suite struct ExportSelectionEndToEndTests {
    static let everyType = PorterBinary.fixtures.appendingPathComponent("realm/every-type.realm").path

    @Test func selectsSortsAndProjectsToStdout() throws {
        let run = try PorterBinary.run([
            "export", Self.everyType, "--class", "Every", "--format", "json", "--out", "-", "--query",
            "int <= 0 AND (target == nil OR target.name BEGINSWITH 't')", "--sort", "-_id", "--limit", "2",
            "--fields", "int,target.name,emb.label",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n") == [
                #"{"_id":1000,"int":0}"#,
                #"{"_id":1,"int":-9223372036854775808,"target":{"name":"t1"},"emb":{"label":"root"}}"#,
            ], "\(run.stdout)")
    }

    @Test func errorsAreOneLineWithTheirExitCode() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let out = dir.appendingPathComponent("out").path
        let unknown = try PorterBinary.run([
            "export", Self.everyType, "--class", "Every", "--out", out, "--query", "agee > 1",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.errorLines == ["porter: error: --query: unknown property 'Every.agee' at 1"])
        let syntax = try PorterBinary.run([
            "export", Self.everyType, "--class", "Every", "--out", out, "--query", "int >",
        ])
        #expect(syntax.status == 64)
        #expect(syntax.stderr.contains("--query: expected a value"), "\(syntax.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
