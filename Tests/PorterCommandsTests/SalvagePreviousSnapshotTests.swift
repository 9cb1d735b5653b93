import Foundation
import PorterCommands
import PorterModel
import PorterRealmFile
import PorterTestSupport
import Testing

/// `porter salvage` of a Realm file whose tail is missing (issue 35): the newest top ref lies in the
/// lost tail, so salvage starts from the header's other slot (the previous snapshot) and the nodes
/// that remain, and says what was lost. Files written by realm-core with two different header
/// slots (commits after the first), from ../shared/realm-files.
@Suite struct SalvagePreviousSnapshotTests {
    /// The two top refs of a file's header: (current, previous).
    static func topRefs(_ bytes: Data) -> (current: Int, previous: Int) {
        let select = Int(bytes[23] & 1)
        func slot(_ i: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[8 * i + $1]) << (8 * $1) } }
        return (slot(select), slot(1 - select))
    }

    /// Objects per class of a Realm file.
    static func counts(_ file: RealmFile) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in file.tables where !table.isEmbedded { counts[table.name] = try file.objectCount(in: table) }
        return counts
    }

    @Test(
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: ["dotnet-guids.realm", "js-simple.realm", "swift-migration-default-v5.realm"])
    func aFileCutBeforeItsNewestTopRefIsSalvagedFromThePreviousSnapshot(_ name: String) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: SharedRealmFiles.path(name)))
        let (current, previous) = Self.topRefs(original)
        try #require(previous != current && previous < current, "\(name): the slots differ")
        // What the previous snapshot of the intact file holds: what salvage can give back.
        let intactPrevious = try #require(RealmFile.previousSnapshot(of: SharedRealmFiles.path(name)))
        let expected = try Self.counts(intactPrevious)
        if name == "dotnet-guids.realm" { #expect(expected["GuidType"] == 2, "\(expected)") }

        let tmp = try TemporaryFolder("cmd")
        // Cut at the newest top array (past the end now), and mid-word, a few bytes after it.
        for (label, size) in [("at-top", current), ("mid-word", current + 5)] {
            let cut = original.prefix(size)
            let path = try tmp.write("\(label).realm", Array(cut))
            let out = tmp.url.appendingPathComponent("\(label).recovered.realm").path
            let run = CapturedOutput.run(["salvage", path, "--out", out])
            #expect(run.status == 3, "\(name) \(label): \(run.output.stderr)")
            #expect(run.output.stderr.contains("the current snapshot does not open"), "\(run.output.stderr)")
            #expect(
                run.output.stdout.contains(
                    "The current snapshot (the last commit) could not be read; recovered from the previous snapshot"),
                "\(run.output.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == cut, "the input was written")
            let recovered = try RealmFile(path: out)
            #expect(try Self.counts(recovered) == expected, "\(name) \(label): \(run.output.stdout)")
            #expect(try recovered.check() == [])
            for (className, count) in expected {
                #expect(
                    run.output.stdout.contains(
                        "  \(className): \(count) object\(count == 1 ? "" : "s") recovered (from the previous snapshot)"
                    ),
                    "\(run.output.stdout)")
            }
        }
    }
}
