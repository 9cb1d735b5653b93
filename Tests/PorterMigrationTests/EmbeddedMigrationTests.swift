import Foundation
import Testing
@testable import PorterMigration
import PorterDiff
import PorterModel
import PorterStore
import PorterTestSupport

/// Classes becoming embedded (realm-core's "changing table to embedded …" sections, with
/// realm-swift's automatic handling): orphans, objects with several parents, mixed links.
@Suite struct EmbeddedMigrationTests {
    let topChild = #"{"name": "child", "properties": {"value": "int"}}"#
    let embeddedChild = #"{"name": "child", "embedded": true, "properties": {"value": "int"}}"#
    let parent = #"{"name": "parent", "properties": {"link": "child?", "link 2": "child?"}}"#
    let parentOneLink = #"{"name": "parent", "properties": {"link": "child?"}}"#

    private func file(_ dir: TemporaryFolder, _ fill: (Database) throws -> Void) throws -> String {
        try makeDatabase(dir.path("db.porter"), try schema(1, topChild, parent), fill)
    }

    private func link(_ key: ObjectKey) -> Value { .link(ObjectLink("child", key)) }

    @Test func exactlyOneLinkPerObjectKeepsEverything() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir) { db in
            for v in [42, 43] {
                let c = try db.create("child", ["value": .int(Int64(v))])
                try db.create("parent", ["link": link(c)])
            }
        }
        try migrate(path, to: try schema(2, embeddedChild, parent))
        #expect(try column(path, "child", "value") == [.int(42), .int(43)])
        #expect(try column(path, "parent", "link") == [link(ObjectKey(1)), link(ObjectKey(2))])
    }

    @Test func orphansAreRefusedUnlessCovered() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir) { db in try db.create("child", ["value": .int(1)]) }
        let refused = expectPorterError(.migrationFailed) {
            try migrate(path, to: try schema(2, embeddedChild, parent))
        }
        #expect(refused?.details.first?.contains("1 object has no parent and would be deleted") == true)
        let report = try migrate(
            path, to: try schema(2, embeddedChild, parent), options: MigrationOptions(allowDataLoss: true))
        #expect(report.steps.first?.orphansDeleted["child"] == 1)
        #expect(try reopen(path).count("child") == 0)
    }

    @Test func deleteOrphansInAPlanCoversThem() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir) { db in try db.create("child", ["value": .int(1)]) }
        let old = try reopen(path).schema, new = try schema(2, embeddedChild, parent)
        let plan = try MigrationPlan.make(from: old, to: new, allowDataLoss: true).plan
        #expect(plan.operations.contains(.deleteOrphans(className: "child")))
        try migrate(path, to: new, plans: [plan])
        #expect(try reopen(path).count("child") == 0)
    }

    @Test func objectsWithSeveralParentsAreCopied() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir) { db in
            let c = try db.create("child", ["value": .int(42)])
            for _ in 0..<3 { try db.create("parent", ["link": link(c)]) }
        }
        let report = try migrate(path, to: try schema(2, embeddedChild, parent))
        #expect(report.steps.first?.copiesMade["child"] == 2)
        #expect(try column(path, "child", "value") == [.int(42), .int(42), .int(42)])
        let links = try column(path, "parent", "link")
        #expect(Set(links).count == 3)
    }

    @Test func duplicateLinksFromARemovedColumnDoNotCount() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir) { db in
            let a = try db.create("child", ["value": .int(1)]), b = try db.create("child", ["value": .int(2)])
            try db.create("parent", ["link": link(a), "link 2": link(b)])
            try db.create("parent", ["link": link(b), "link 2": link(a)])
        }
        let report = try migrate(
            path, to: try schema(2, embeddedChild, parentOneLink), options: MigrationOptions(allowDataLoss: true))
        #expect(report.steps.first?.copiesMade.isEmpty == true)
        #expect(try reopen(path).count("child") == 2)
    }

    @Test func duplicatesResolvedInTheBlock() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir) { db in
            let c = try db.create("child", ["value": .int(42)])
            try db.create("parent", ["link": link(c)])
            try db.create("parent", ["link": link(c)])
        }
        try migrate(path, to: try schema(2, embeddedChild, parentOneLink)) { migration, _ in
            var first = true
            migration.enumerateObjects(ofType: "parent") { _, new in
                guard !first, let new else { first = false; return }
                // The class becomes embedded only after the block, so objects may still be created here.
                let child = migration.create("child", value: ["value": .int(42)])
                new["link"] = .link(ObjectLink("child", child.key))
            }
        }
        #expect(try column(path, "child", "value") == [.int(42), .int(42)])
    }

    @Test func mixedLinksBlockEmbedding() throws {
        let dir = try TemporaryFolder()
        let mixedParent = #"{"name": "parent", "properties": {"link": "child?", "mixed": "mixed"}}"#
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, topChild, mixedParent)) { db in
            let c = try db.create("child", ["value": .int(1)])
            try db.create("parent", ["link": link(c), "mixed": link(c)])
        }
        let error = expectPorterError(.migrationFailed) {
            try migrate(path, to: try schema(2, embeddedChild, mixedParent))
        }
        #expect(
            error?.message
                == "Cannot convert 'child' to embedded: there is an incoming link from the Mixed property 'parent.mixed', which does not support linking to embedded objects."
        )
        #expect(try reopen(path).schema["child"]?.isEmbedded == false)
    }

    @Test func emptyTablesSwitchBothWays() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir) { _ in }
        try migrate(path, to: try schema(2, embeddedChild, parent))
        try migrate(path, to: try schema(3, topChild, parent))
        #expect(try reopen(path).schema["child"]?.isEmbedded == false)
    }

    @Test func removingAPropertyDeletesTheEmbeddedObjectsItHeld() throws {
        let dir = try TemporaryFolder()
        let holder =
            #"{"name": "holder", "properties": {"name": "string", "address": "address?", "history": "address[]"}}"#
        let address = #"{"name": "address", "embedded": true, "properties": {"street": "string"}}"#
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, holder, address)) { db in
            try db.create(
                "holder",
                [
                    "name": .string("a"), "address": .object(["street": .string("x")]),
                    "history": .list([.object(["street": .string("y")]), .object(["street": .string("z")])]),
                ])
        }
        try migrate(
            path,
            to: try schema(2, #"{"name": "holder", "properties": {"name": "string", "address": "address?"}}"#, address),
            options: MigrationOptions(allowDataLoss: true))
        #expect(try column(path, "address", "street") == [.string("x")])
    }
}
