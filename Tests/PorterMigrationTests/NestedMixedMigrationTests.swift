import Foundation
import Testing
@testable import PorterMigration
import PorterDiff
import PorterModel
import PorterTestSupport

/// Migrations of `mixed` properties that hold nested lists and dictionaries, and of dates with
/// nanoseconds.
@Suite struct NestedMixedMigrationTests {
    let dog = #"{"name": "Dog", "properties": {"name": "string"}}"#
    let nested: Value = .map([
        "list": .list([.int(1), .map(["deep": .list([.string("x"), .null])])]), "empty": .list([]),
    ])

    @Test func renamingAndCopyingAMixedPropertyKeepsNestedValues() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "C", "properties": {"n": "int", "v": "mixed"}}"#, dog)
        ) { db in
            let rex = try db.create("Dog", ["name": .string("Rex")])
            try db.create("C", ["n": .int(1), "v": nested])
            try db.create(
                "C",
                [
                    "n": .int(2),
                    "v": .list([.link(ObjectLink("Dog", rex)), .map(["d": .link(ObjectLink("Dog", rex))])]),
                ])
        }
        try migrate(
            path, to: try schema(2, #"{"name": "C", "properties": {"n": "int", "w": "mixed", "copy": "mixed"}}"#, dog)
        ) { migration, _ in
            try migration.renameProperty(onType: "C", from: "v", to: "w")
            try migration.enumerateObjects(ofType: "C") { _, new in new?["copy"] = new?["w"] ?? .null }
        }
        let rex = ObjectLink("Dog", ObjectKey(1))
        let expected: [Value] = [nested, .list([.link(rex), .map(["d": .link(rex)])])]
        #expect(try column(path, "C", "w") == expected)
        #expect(try column(path, "C", "copy") == expected)
        #expect(try reopen(path).checkConsistency().isEmpty)
    }

    @Test func renamingAClassRewritesLinksNestedInMixedValues() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "C", "properties": {"v": "mixed", "vs": "mixed{}"}}"#, dog)
        ) { db in
            let rex = try db.create("Dog", ["name": .string("Rex")])
            try db.create(
                "C",
                [
                    "v": .list([.map(["d": .link(ObjectLink("Dog", rex))]), .string("Dog")]),
                    "vs": .map(["k": .list([.link(ObjectLink("Dog", rex))])]),
                ])
        }
        try migrate(
            path,
            to: try schema(
                2, #"{"name": "C", "properties": {"v": "mixed", "vs": "mixed{}"}}"#,
                #"{"name": "Hound", "properties": {"name": "string"}}"#),
            renames: RenameSet(classes: [ClassRename(from: "Dog", to: "Hound")]))
        let hound = Value.link(ObjectLink("Hound", ObjectKey(1)))
        #expect(try column(path, "C", "v") == [.list([.map(["d": hound]), .string("Dog")])])
        #expect(try column(path, "C", "vs") == [.map(["k": .list([hound])])])
        #expect(try reopen(path).checkConsistency().isEmpty)
    }

    @Test func removingALinkedClassRemovesItsNestedLinks() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "C", "properties": {"v": "mixed"}}"#, dog)
        ) { db in
            let rex = try db.create("Dog", ["name": .string("Rex")])
            try db.create(
                "C",
                [
                    "v": .list([
                        .int(1), .link(ObjectLink("Dog", rex)),
                        .map(["d": .link(ObjectLink("Dog", rex)), "e": .int(2)]),
                    ])
                ])
        }
        try migrate(path, to: try schema(2, #"{"name": "C", "properties": {"v": "mixed"}}"#)) { migration, _ in
            try migration.deleteData(forType: "Dog")
        }
        #expect(try column(path, "C", "v") == [.list([.int(1), .map(["e": .int(2)])])])
        #expect(try reopen(path).checkConsistency().isEmpty)
    }

    @Test func convertingANestedCollectionToAScalarFailsNamingTheObject() throws {
        let dir = try TemporaryFolder()
        let old = try schema(1, #"{"name": "C", "properties": {"n": "int", "v": "mixed"}}"#)
        let path = try makeDatabase(dir.path("db.porter"), old) { db in
            try db.create("C", ["n": .int(1), "v": .string("fine")])
            try db.create("C", ["n": .int(2), "v": .list([.int(1)])])
            try db.create("C", ["n": .int(3), "v": .map(["a": .int(1)])])
        }
        let before = try dataChecksum(path)
        let error = expectPorterError(.migrationFailed) {
            try migrate(path, to: try schema(2, #"{"name": "C", "properties": {"n": "int", "v": "string?"}}"#))
        }
        #expect(
            error?.message
                == "cannot convert 2 values from mixed to string? (exact): _key 2: a list of 1; _key 3: a dictionary of 1"
        )
        #expect(
            error?.details == [
                "_key 2: a mixed value holding a nested list cannot be converted to string",
                "_key 3: a mixed value holding a nested dictionary cannot be converted to string",
            ])
        #expect(try dataChecksum(path) == before)
        #expect(try reopen(path).schema == old)
    }

    @Test func dateStringConversionsKeepNanoseconds() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "C", "properties": {"s": "string", "d": "date"}}"#)
        ) { db in
            try db.create(
                "C",
                [
                    "s": .string("1969-12-31T23:59:59.999999999Z"),
                    "d": .date(Timestamp(seconds: 1_704_164_645, nanoseconds: 123_456_789)),
                ])
        }
        try migrate(path, to: try schema(2, #"{"name": "C", "properties": {"s": "date", "d": "string"}}"#))
        #expect(try column(path, "C", "s") == [.date(Timestamp(seconds: 0, nanoseconds: -1))])
        #expect(try column(path, "C", "d") == [.string("2024-01-02T03:04:05.123456789Z")])
    }
}

/// A conversion that fails inside an embedded object names the object through its parent.
@Suite struct EmbeddedConversionFailureTests {
    /// Person with an embedded Address (and a list of them) holding an embedded Geo.
    private func people(_ version: UInt64, zip: String, lat: String) throws -> Schema {
        try schema(
            version,
            #"{"name": "Person", "primaryKey": "_id", "properties": {"_id": "int", "address": "Address?", "past": "Address[]"}}"#,
            #"{"name": "Address", "embedded": true, "properties": {"zip": "\#(zip)", "geo": "Geo?"}}"#,
            #"{"name": "Geo", "embedded": true, "properties": {"lat": "\#(lat)"}}"#)
    }

    @Test func failuresInEmbeddedObjectsNameTheirParents() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try people(1, zip: "string", lat: "string")) { db in
            try db.create(
                "Person",
                [
                    "_id": .int(4242),
                    "address": .object(["zip": .string("ab"), "geo": .object(["lat": .string("north")])]),
                    "past": .list([.object(["zip": .string("1")]), .object(["zip": .string("x")])]),
                ])
            try db.create("Person", ["_id": .int(7), "address": .object(["zip": .string("12")])])
        }
        let before = try dataChecksum(path)
        let error = expectPorterError(.migrationFailed) {
            try migrate(path, to: try people(2, zip: "int", lat: "string"))
        }
        #expect(
            error?.message
                == "cannot convert 2 values from string to int (exact): Person _id 4242.address: 'ab'; Person _id 4242.past: 'x'"
        )
        let nested = expectPorterError(.migrationFailed) {
            try migrate(path, to: try people(2, zip: "string", lat: "double"))
        }
        #expect(
            nested?.message
                == "cannot convert 1 value from string to double (exact): Person _id 4242.address.geo: 'north'")
        #expect(try dataChecksum(path) == before)
    }
}
