import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

@Suite("Relationships, inverse links and embedded objects")
struct RelationshipTests {
    @Test("Deleting a target nulls to-one links and mixed values and removes it from lists, sets and maps")
    func deleteCleansUpReferences() throws {
        let db = try petDatabase()
        let (rex, fido, ann, bob) = try db.write {
            let rex = try db.create("Dog", ["name": .string("Rex")])
            let fido = try db.create("Dog", ["name": .string("Fido")])
            let r = Value.link(ObjectLink("Dog", rex)), f = Value.link(ObjectLink("Dog", fido))
            let ann = try db.create(
                "Person",
                [
                    "name": .string("Ann"), "dog": r, "dogs": .list([r, f, r]), "dogSet": .set([f, r]),
                    "dogMap": .map(["a": r, "b": f]), "extra": r, "extras": .list([.int(1), r, f, r]),
                ])
            let bob = try db.create("Person", ["name": .string("Bob"), "dog": f, "dogs": .list([f]), "extra": f])
            return (rex, fido, ann, bob)
        }
        let f = Value.link(ObjectLink("Dog", fido))
        // Ann: dog, dogs (twice), dogSet, dogMap, extra, extras (twice).
        let incoming = try db.incomingLinks(to: ObjectLink("Dog", rex))
        #expect(incoming.count == 8)
        #expect(Set(incoming.map(\.property)) == ["dog", "dogs", "dogSet", "dogMap", "extra", "extras"])
        #expect(incoming.allSatisfy { $0.source == ObjectLink("Person", ann) })

        try db.write { try db.delete("Dog", rex) }
        #expect(try !db.exists("Dog", rex))
        #expect(try db.count("Dog") == 1)
        let a = try #require(try db.object("Person", ann))
        #expect(a["dog"] == .null)
        #expect(a["dogs"] == .list([f]))
        #expect(a["dogSet"] == .set([f]))
        #expect(a["dogMap"] == .map(["b": f]))
        #expect(a["extra"] == .null)
        #expect(a["extras"] == .list([.int(1), f]))
        #expect(try db.incomingLinks(to: ObjectLink("Dog", rex)).isEmpty)
        // Bob never pointed at Rex.
        let b = try #require(try db.object("Person", bob))
        #expect(b["dog"] == f && b["dogs"] == .list([f]) && b["extra"] == f)

        try db.write { try db.deleteAll("Dog") }
        #expect(try db.count("Dog") == 0)
        let b2 = try #require(try db.object("Person", bob))
        #expect(b2["dog"] == .null && b2["dogs"] == .list([]) && b2["extra"] == .null)
        #expect(try db.count("Person") == 2, "deleting targets never deletes the top-level objects that link to them")
        #expect(try db.sqliteIntegrityCheck().isEmpty)
    }

    @Test("Inverse relationships reflect changes live")
    func linkingObjectsAreLive() throws {
        let db = try petDatabase()
        let rex = try db.write { try db.create("Dog", ["name": .string("Rex")]) }
        let r = Value.link(ObjectLink("Dog", rex))
        #expect(try db.linkingObjects("Dog", rex, "walkers").isEmpty)
        #expect(try db.value("Dog", rex, "walkers") == .list([]))

        let (ann, bob) = try db.write {
            (
                try db.create("Person", ["name": .string("Ann"), "dogs": .list([r])]),
                try db.create("Person", ["name": .string("Bob"), "dogs": .list([r]), "dog": r])
            )
        }
        #expect(try db.linkingObjects("Dog", rex, "walkers") == [ObjectLink("Person", ann), ObjectLink("Person", bob)])
        #expect(
            try db.value("Dog", rex, "walkers")
                == .list([.link(ObjectLink("Person", ann)), .link(ObjectLink("Person", bob))]))
        #expect(try db.value("Dog", rex, "owners") == .list([.link(ObjectLink("Person", bob))]))

        try db.write { try db.set("Person", ann, "dogs", .list([])) }
        #expect(try db.linkingObjects("Dog", rex, "walkers") == [ObjectLink("Person", bob)])
        try db.write { try db.set("Person", bob, "dog", .null) }
        #expect(try db.value("Dog", rex, "owners") == .list([]))
        try db.write { try db.delete("Person", bob) }
        #expect(try db.linkingObjects("Dog", rex, "walkers").isEmpty)
        // Inside a transaction the inverse sees uncommitted changes; after a rollback it does not.
        try db.beginWrite()
        try db.set("Person", ann, "dogs", .list([r]))
        #expect(try db.linkingObjects("Dog", rex, "walkers") == [ObjectLink("Person", ann)])
        db.cancelWrite()
        #expect(try db.linkingObjects("Dog", rex, "walkers").isEmpty)
        expectPorterError(.notFound) { _ = try db.linkingObjects("Dog", rex, "name") }
    }

    @Test("Embedded objects are deleted with their parent, two levels deep")
    func embeddedCascadeOnParentDelete() throws {
        let db = try petDatabase()
        let ann = try db.write {
            try db.create(
                "Person",
                [
                    "name": .string("Ann"),
                    "address": .object([
                        "street": .string("Elm"), "geo": .object(["lat": .double(1), "lon": .double(2)]),
                    ]),
                    "pets": .list([
                        .object(["kind": .string("cat"), "geo": .object(["lat": .double(3), "lon": .double(4)])]),
                        .object(["kind": .string("fish")]),
                    ]),
                ])
        }
        try db.write {
            try db.create("Person", ["name": .string("Bob"), "address": .object(["street": .string("Oak")])])
        }
        #expect(try db.count("Address") == 2)
        #expect(try db.count("Pet") == 2)
        #expect(try db.count("Geo") == 2)

        try db.write { try db.delete("Person", ann) }
        #expect(try db.count("Address") == 1)
        #expect(try db.count("Pet") == 0)
        #expect(try db.count("Geo") == 0)
        #expect(try db.sqliteIntegrityCheck().isEmpty)
    }

    @Test("Replacing an embedded object or removing it from a list deletes the old one")
    func embeddedCascadeOnReplace() throws {
        let db = try petDatabase()
        let ann = try db.write {
            try db.create(
                "Person",
                [
                    "name": .string("Ann"),
                    "address": .object([
                        "street": .string("Elm"), "geo": .object(["lat": .double(1), "lon": .double(2)]),
                    ]),
                    "pets": .list([
                        .object(["kind": .string("cat")]), .object(["kind": .string("dog"), "geo": .object([:])]),
                    ]),
                ])
        }
        // Replacing the to-one embedded object.
        try db.write { try db.set("Person", ann, "address", .object(["street": .string("Oak")])) }
        #expect(try db.count("Address") == 1)
        #expect(try db.count("Geo") == 1, "the old address's geo went with it; the pet's geo stays")
        #expect(try db.snapshot("Person", ann)?["address"] == .object(["street": .string("Oak"), "geo": .null]))
        // Setting it to null.
        try db.write { try db.set("Person", ann, "address", .null) }
        #expect(try db.count("Address") == 0)
        // Removing an element from the list: the list is rewritten with the elements to keep.
        try db.write { try db.set("Person", ann, "pets", .list([.object(["kind": .string("dog")])])) }
        #expect(try db.count("Pet") == 1)
        #expect(try db.count("Geo") == 0)
        // Deleting an embedded object directly removes it from its parent's list.
        guard case .list(let pets)? = try db.object("Person", ann)?["pets"], case .link(let pet)? = pets.first else {
            Issue.record("pets were not stored")
            return
        }
        try db.write { try db.delete("Pet", pet.key) }
        #expect(try db.value("Person", ann, "pets") == .list([]))
        #expect(try db.count("Pet") == 0)
    }

    @Test("A failing replacement of embedded objects keeps the old ones")
    func failedReplaceKeepsEmbedded() throws {
        let db = try petDatabase()
        let ann = try db.write {
            try db.create(
                "Person",
                [
                    "name": .string("Ann"), "address": .object(["street": .string("Elm")]),
                    "pets": .list([.object(["kind": .string("cat")])]),
                ])
        }
        let before = try #require(try db.snapshot("Person", ann))
        try expectRejected(db, .invalidValue) {
            try db.set("Person", ann, "pets", .list([.object(["kind": .string("dog")]), .object(["kind": .int(1)])]))
        }
        try expectRejected(db, .invalidValue) { try db.set("Person", ann, "address", .object(["street": .bool(true)])) }
        #expect(try db.snapshot("Person", ann) == before)
    }

    @Test("snapshot materializes nested embedded objects; object() shows them as links")
    func snapshotMaterializes() throws {
        let db = try petDatabase()
        let (ann, rex) = try db.write {
            let rex = try db.create("Dog", ["name": .string("Rex")])
            let ann = try db.create(
                "Person",
                [
                    "name": .string("Ann"), "dog": .link(ObjectLink("Dog", rex)),
                    "address": .object([
                        "street": .string("Elm"), "geo": .object(["lat": .double(1.5), "lon": .double(-2)]),
                    ]),
                    "pets": .list([
                        .object(["kind": .string("cat"), "geo": .object(["lat": .double(3), "lon": .double(4)])]),
                        .object(["kind": .string("fish")]),
                    ]),
                ])
            return (ann, rex)
        }
        let snapshot = try #require(try db.snapshot("Person", ann))
        #expect(
            snapshot["address"]
                == .object(["street": .string("Elm"), "geo": .object(["lat": .double(1.5), "lon": .double(-2)])]))
        #expect(
            snapshot["pets"]
                == .list([
                    .object(["kind": .string("cat"), "geo": .object(["lat": .double(3), "lon": .double(4)])]),
                    .object(["kind": .string("fish"), "geo": .null]),
                ]))
        #expect(snapshot["dog"] == .link(ObjectLink("Dog", rex)), "links to top-level objects stay links")
        #expect(snapshot["walkers"] == nil)
        let object = try #require(try db.object("Person", ann))
        guard case .link(let address)? = object["address"] else {
            Issue.record("object() should show the embedded address as a link")
            return
        }
        #expect(address.className == "Address")
        #expect(try db.snapshot("Person", ObjectKey(999)) == nil)

        // A snapshot can be written back to create an equal copy.
        var copy = snapshot
        copy["name"] = .string("Ann 2")
        let ann2 = try db.write { try db.create("Person", copy) }
        var copied = try #require(try db.snapshot("Person", ann2))
        copied["name"] = .string("Ann")
        #expect(copied == snapshot)
    }

    @Test("Embedded objects in maps are materialized and cascade too")
    func embeddedMap() throws {
        let schema = Schema(classes: [
            ObjectSchema(name: "Box", properties: [prop("items", "Item?{}")]),
            ObjectSchema(name: "Item", properties: [prop("label", "string"), prop("inner", "Inner?")], embedded: true),
            ObjectSchema(name: "Inner", properties: [prop("n", "int")], embedded: true),
        ])
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: schema)
        let items: Value = .map([
            "a": .object(["label": .string("A"), "inner": .object(["n": .int(1)])]), "none": .null,
        ])
        let box = try db.write { try db.create("Box", ["items": items]) }
        #expect(try db.snapshot("Box", box)?["items"] == items)
        try db.write { try db.set("Box", box, "items", .map([:])) }
        #expect(try db.count("Item") == 0)
        #expect(try db.count("Inner") == 0)
    }

    @Test("Deleting objects in link cycles (including self links) leaves no dangling references")
    func cycles() throws {
        let schema = Schema(classes: [
            ObjectSchema(
                name: "Node",
                properties: [
                    prop("id", "int"), prop("next", "Node?"), prop("children", "Node[]"), prop("any", "mixed"),
                    .linkingObjects("parents", originClass: "Node", originProperty: "children"),
                ], primaryKey: "id")
        ])
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: schema)
        let keys = try db.write { try (0..<4).map { try db.create("Node", ["id": .int(Int64($0))]) } }
        let links = keys.map { Value.link(ObjectLink("Node", $0)) }
        try db.write {
            for i in 0..<4 {
                try db.update(
                    "Node", keys[i],
                    ["next": links[(i + 1) % 4], "children": .list([links[i], links[(i + 2) % 4]]), "any": links[i]])
            }
        }
        #expect(
            try db.linkingObjects("Node", keys[0], "parents") == [
                ObjectLink("Node", keys[0]), ObjectLink("Node", keys[2]),
            ])
        try db.write { try db.delete("Node", keys[0]) }
        #expect(try db.value("Node", keys[3], "next") == .null)
        #expect(try db.value("Node", keys[2], "children") == .list([links[2]]))
        #expect(try db.incomingLinks(to: ObjectLink("Node", keys[0])).isEmpty)
        try db.write { try db.deleteAll("Node") }
        #expect(try db.count("Node") == 0)
        #expect(try dump(db)["class_Node.children"] == [])
        #expect(try db.sqliteIntegrityCheck().isEmpty)
    }
}
