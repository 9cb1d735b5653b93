import Foundation
import Testing
@testable import PorterStore
import PorterModel

@Suite("Upsert and update policies")
struct UpsertTests {
    @Test("create with update: .modified and .all updates the existing object by primary key")
    func upsertByPrimaryKey() throws {
        let db = try petDatabase()
        let ann = try db.write {
            try db.create(
                "Person",
                ["name": .string("Ann"), "age": .int(30), "nickname": .string("A"), "tags": .set([.string("x")])])
        }
        for policy in [UpdatePolicy.modified, .all] {
            let age: Int64 = policy == .modified ? 31 : 32
            let key = try db.write {
                try db.create("Person", ["name": .string("Ann"), "age": .int(age)], update: policy)
            }
            #expect(key == ann, "upsert returns the existing key")
            #expect(try db.count("Person") == 1)
            // Given values change, others keep theirs.
            #expect(try db.value("Person", ann, "age") == .int(age))
            #expect(try db.value("Person", ann, "nickname") == .string("A"))
            #expect(try db.value("Person", ann, "tags") == .set([.string("x")]))
        }
        // A new key under an update policy inserts, with defaults for missing values.
        let bob = try db.write { try db.create("Person", ["name": .string("Bob")], update: .all) }
        #expect(bob != ann)
        #expect(try db.count("Person") == 2)
        #expect(try db.value("Person", bob, "age") == .int(0))
        // Upsert goes through the same checks as create.
        let error = try expectRejected(db, .invalidValue) {
            try db.create("Person", ["name": .string("Ann"), "age": .string("x")], update: .modified)
        }
        #expect(error?.headline == "Person.age: expected a value of type 'int' but got string 'x'")
    }

    @Test("Upsert of objects created inline through links updates them by primary key")
    func nestedUpsert() throws {
        let schema = Schema(classes: [
            ObjectSchema(
                name: "Owner", properties: [prop("id", "int"), prop("pet", "Pet?"), prop("pets", "Pet[]")],
                primaryKey: "id"),
            ObjectSchema(
                name: "Pet", properties: [prop("id", "int"), prop("name", "string"), prop("age", "int")],
                primaryKey: "id"),
        ])
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: schema)
        try db.write {
            try db.create(
                "Owner", ["id": .int(1), "pet": .object(["id": .int(10), "name": .string("Rex"), "age": .int(3)])])
        }
        // Without a policy, the inline duplicate is an error naming the nested class.
        let error = try expectRejected(db, .duplicatePrimaryKey) {
            try db.create("Owner", ["id": .int(2), "pet": .object(["id": .int(10), "name": .string("Other")])])
        }
        #expect(error?.headline == "Pet.id: duplicate primary key value 10: an object with it already exists")
        // Found late (the owner row and a first new pet are already written): still nothing is left behind.
        let late = try expectRejected(db, .duplicatePrimaryKey) {
            try db.create(
                "Owner",
                [
                    "id": .int(3),
                    "pets": .list([
                        .object(["id": .int(12), "name": .string("New")]),
                        .object(["id": .int(10), "name": .string("Dup")]),
                    ]),
                ])
        }
        #expect(late?.headline == "Pet.id: duplicate primary key value 10: an object with it already exists")
        // With one, the existing pet is updated and linked.
        try db.write {
            try db.create(
                "Owner",
                [
                    "id": .int(2),
                    "pets": .list([
                        .object(["id": .int(10), "name": .string("Rex II")]),
                        .object(["id": .int(11), "name": .string("Fido")]),
                    ]),
                ], update: .modified)
        }
        #expect(try db.count("Pet") == 2)
        let rex = try #require(try db.key("Pet", primaryKey: .int(10)))
        #expect(try db.value("Pet", rex, "name") == .string("Rex II"))
        #expect(try db.value("Pet", rex, "age") == .int(3))
        let owner2 = try #require(try db.key("Owner", primaryKey: .int(2)))
        guard case .list(let pets) = try db.value("Owner", owner2, "pets") else {
            Issue.record("pets is not a list")
            return
        }
        #expect(pets.first == .link(ObjectLink("Pet", rex)))
    }

    @Test("update(policy: .modified) writes only the values that changed")
    func modifiedWritesOnlyChanges() throws {
        let db = try petDatabase()
        let rex = try db.write {
            try db.create("Dog", ["name": .string("Rex"), "age": .int(3), "color": .string("brown")])
        }
        let ann = try db.write {
            try db.create(
                "Person",
                [
                    "name": .string("Ann"), "age": .int(30), "dog": .link(ObjectLink("Dog", rex)),
                    "tags": .set([.string("a"), .string("b")]), "scores": .map(["x": .int(1)]),
                ])
        }
        let same: [String: Value] = [
            "name": .string("Ann"), "age": .int(30), "dog": .link(ObjectLink("Dog", rex)),
            "tags": .set([.string("a"), .string("b")]), "scores": .map(["x": .int(1)]),
        ]

        try db.beginWrite()
        var start = try totalChanges(db)
        try db.update("Person", ann, same, policy: .modified)
        #expect(try totalChanges(db) - start == 0, "nothing differs, so nothing is written")

        start = try totalChanges(db)
        try db.update("Person", ann, same.merging(["age": .int(31)]) { $1 }, policy: .modified)
        #expect(try totalChanges(db) - start == 1, "only the age column is written")

        start = try totalChanges(db)
        try db.update("Person", ann, same.merging(["age": .int(31)]) { $1 }, policy: .all)
        // .all rewrites every given value: age, dog (2 columns) and the set (2 deleted + 2 inserted) and map (1 + 1).
        #expect(try totalChanges(db) - start == 2 + 4 + 2)

        start = try totalChanges(db)
        try db.create(
            "Person", same.merging(["age": .int(31), "scores": .map(["x": .int(2)])]) { $1 }, update: .modified)
        #expect(try totalChanges(db) - start == 2, "only the map is rewritten (one entry out, one in)")
        try db.commitWrite()

        #expect(try db.value("Person", ann, "age") == .int(31))
        #expect(try db.value("Person", ann, "scores") == .map(["x": .int(2)]))
        #expect(try db.value("Person", ann, "dog") == .link(ObjectLink("Dog", rex)))
    }

    @Test("Upsert replaces embedded objects instead of piling them up")
    func upsertEmbedded() throws {
        let db = try petDatabase()
        for (i, policy) in [UpdatePolicy.error, .modified, .all, .modified].enumerated() {
            try db.write {
                try db.create(
                    "Person",
                    [
                        "name": .string("Ann"),
                        "address": .object(["street": .string("Street \(i)"), "geo": .object([:])]),
                        "pets": .list([.object(["kind": .string("cat")])]),
                    ], update: policy)
            }
            #expect(try db.count("Person") == 1)
            #expect(try db.count("Address") == 1)
            #expect(try db.count("Pet") == 1)
            #expect(try db.count("Geo") == 1)
        }
        let ann = try #require(try db.key("Person", primaryKey: .string("Ann")))
        #expect(
            try db.snapshot("Person", ann)?["address"]
                == .object(["street": .string("Street 3"), "geo": .object(["lat": .double(0), "lon": .double(0)])]))
    }

    @Test("set replaces one value and keeps the others")
    func setOneValue() throws {
        let db = try petDatabase()
        let rex = try db.write { try db.create("Dog", ["name": .string("Rex"), "age": .int(3)]) }
        try db.write {
            try db.set("Dog", rex, "age", .int(4))
            try db.set("Dog", rex, "color", .string("black"))
        }
        let object = try #require(try db.object("Dog", rex))
        #expect(object.dictionary == ["name": .string("Rex"), "age": .int(4), "color": .string("black")])
        #expect(object.link == ObjectLink("Dog", rex))
        #expect(object["walkers"] == nil, "computed properties are not part of the stored object")
    }
}
