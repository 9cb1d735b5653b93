import Foundation
import PorterInterchange
import PorterModel
import PorterRealmFile
import PorterTestSupport
import Testing

@testable import PorterRealm

/// `porter verify` reads a relational SQLite export where it is: no private Porter database is
/// imported from it (issue #38: the import made verify cost 3.86× the export), so the export may
/// be read-only, and the comparison still finds what differs.
@Suite struct VerifyInPlaceTests {
    static let everyType = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/realm/every-type.realm").path

    /// The relational SQLite export of the every-type fixture, made in `dir`.
    static func export(in dir: TemporaryFolder) throws -> String {
        let path = dir.path("copy.sqlite")
        let exporter = Exporter(
            realmFile: try RealmFile(path: everyType), format: try InterchangeFormats.outputFormat(named: "json"))
        _ = try exporter.export(toSQLite: path)
        return path
    }

    @Test func aSQLiteExportIsReadInPlaceNotImported() throws {
        let dir = try TemporaryFolder("verify-in-place")
        let export = try Self.export(in: dir)
        let scratch = try TemporaryFolder("verify-scratch")
        let side = try Verification.side(export, key: nil, folder: scratch.path, name: "target")
        #expect(side.kind == "SQLite export")
        // The side reads the export itself, and nothing was made in the private folder.
        #expect(side.exporter.path == export)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        // The schema is the one the export holds in _porter_schema.
        #expect(side.exporter.schema.classes.map(\.name).contains("Every"))
    }

    @Test func aReadOnlyExportInAReadOnlyFolderVerifies() throws {
        let dir = try TemporaryFolder("verify-in-place")
        let export = try Self.export(in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: export)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: export)
        }
        let report = try Verification.verify(source: Self.everyType, target: export)
        #expect(report.passed, "\(report.firstDifference ?? "")")
        #expect(report.classes.map(\.className) == ["Every", "NoPk", "Target"])
        #expect(report.classes.allSatisfy { $0.matched == $0.sourceCount && $0.sourceCount == $0.targetCount })
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["copy.sqlite"])
    }
}
