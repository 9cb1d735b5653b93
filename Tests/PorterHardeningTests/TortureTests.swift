import Foundation
import Porter
import Testing
import PorterTestSupport

/// SIGKILL at random moments during `porter import`, `porter migrate` and a Swift-API writer:
/// every file left behind is sound and holds exactly a state of an undisturbed run. The short
/// version runs `TortureHarness.kills` (3) rounds per scenario; `make torture` runs hundreds.
@Suite(
    .serialized, .enabled(if: Hardening.binariesBuilt, "needs the built porter and porter-torture-writer (swift build)")
)
struct TortureTests {
    @Test func killedImportLeavesTheOldOrTheNewState() throws {
        let dir = try TemporaryFolder("torture-import")
        let original = dir.path("base.porter")
        #expect(try Hardening.writer(["create", original, "--seed", "11", "--objects", "300"]).status == 0)
        // The source overlaps the base (ids 0–299 are replaced under --mode upsert) and adds
        // the rest, with links and embedded objects (replaced with their parents). Note, the class
        // without a primary key, is exported without documents: upsert refuses documents of such a
        // class (ImportModeTests), and an empty class file is no refusal.
        let source = dir.path("source.porter")
        #expect(try Hardening.writer(["create", source, "--seed", "12", "--objects", "2500"]).status == 0)
        #expect(try Hardening.porter(["export", source, "--out", dir.path("export")]).status == 0)
        let command = { (path: String) in (Hardening.porter!, ["import", path, dir.path("export"), "--mode", "upsert"])
        }
        let reference = try TortureHarness.referenceRun(dir, original, name: "import-reference", command)
        let states = [try DatabaseState.verify(original): "old", try DatabaseState.verify(reference.path): "new"]
        #expect(states.count == 2)
        let tally = try TortureHarness(
            name: "import", dir: dir, original: original, states: states,
            duration: reference.seconds, command: command
        ).run()
        #expect(tally.failures == 0)
    }

    @Test func killedMigrateLeavesTheOldOrTheNewState() throws {
        let dir = try TemporaryFolder("torture-migrate")
        let original = dir.path("base.porter")
        #expect(try Hardening.writer(["create", original, "--seed", "21", "--objects", "3000"]).status == 0)
        // v2: a rename, a conversion (float → double), an added optional property, and a new
        // required property with a fill value on the class without primary key.
        var v2 = try Database.open(at: original, readOnly: true).schema
        v2.version = 2
        var item = try #require(v2["Item"]), note = try #require(v2["Note"])
        item.properties =
            item.properties.map { property in
                var p = property
                if p.name == "label" { p.name = "title" }
                if p.name == "ratio" { p.type = .double }
                return p
            } + [Property(name: "memo", type: .string, optional: true)]
        note.properties.append(Property(name: "kind", type: .string))
        v2.upsert(item)
        v2.upsert(note)
        let schemaPath = dir.path("v2.json")
        try Data(v2.jsonString().utf8).write(to: URL(fileURLWithPath: schemaPath))
        let command = { (path: String) in
            (
                Hardening.porter!,
                ["migrate", path, "--to", schemaPath, "--rename", "Item.label=title", "--fill", "Note.kind=plain"]
            )
        }
        let reference = try TortureHarness.referenceRun(dir, original, name: "migrate-reference", command)
        let states = [try DatabaseState.verify(original): "old", try DatabaseState.verify(reference.path): "new"]
        #expect(states.count == 2)
        let tally = try TortureHarness(
            name: "migrate", dir: dir, original: original, states: states,
            duration: reference.seconds, command: command
        ).run()
        #expect(tally.failures == 0)
    }

    @Test func killedSwiftAPIWriterLeavesACommittedState() throws {
        let dir = try TemporaryFolder("torture-writer")
        let original = dir.path("base.porter")
        #expect(try Hardening.writer(["create", original, "--seed", "31", "--objects", "500"]).status == 0)
        let transactions = 4
        // Every prefix of the transactions is a legitimate state: compute each one.
        var states = [try DatabaseState.verify(original): "0 commits"]
        var duration = 0.0
        for k in 1...transactions {
            let reference = try TortureHarness.referenceRun(dir, original, name: "writer-reference-\(k)") { path in
                (Hardening.writer!, ["write", path, "--seed", "31", "--transactions", String(k)])
            }
            states[try DatabaseState.verify(reference.path)] = "\(k) commit\(k == 1 ? "" : "s")"
            duration = reference.seconds
        }
        #expect(states.count == transactions + 1)
        let tally = try TortureHarness(name: "writer", dir: dir, original: original, states: states, duration: duration)
        { path in
            (Hardening.writer!, ["write", path, "--seed", "31", "--transactions", String(transactions)])
        }.run()
        #expect(tally.failures == 0)
    }
}
