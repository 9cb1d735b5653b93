import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// Runs `body` inside an open write transaction and expects it to fail with `code`; checks that
/// nothing was written (inside the transaction, after committing it, and on a second attempt
/// through `write {}`), and returns the error.
@discardableResult
func expectRejected(
    _ db: Database, _ code: PorterError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) throws -> PorterError? {
    let before = try dump(db)
    try db.beginWrite()
    let error = expectPorterError(code, sourceLocation: sourceLocation, body)
    #expect(try dump(db) == before, "the failing call left changes in the transaction", sourceLocation: sourceLocation)
    try db.commitWrite()
    let again = expectPorterError(code, sourceLocation: sourceLocation) { try db.write(body) }
    #expect(again == error, "a second attempt failed differently", sourceLocation: sourceLocation)
    #expect(try dump(db) == before, "the failing call changed the database", sourceLocation: sourceLocation)
    return error
}

@Suite("Constraints")
struct ConstraintTests {
    /// A database with one person (`Ann`, key returned) and one dog (`Rex`).
    private func seeded(_ label: String = #function) throws -> (Database, ann: ObjectKey, rex: ObjectKey) {
        let db = try petDatabase(label)
        let (ann, rex) = try db.write {
            let rex = try db.create("Dog", ["name": .string("Rex")])
            let ann = try db.create("Person", ["name": .string("Ann"), "age": .int(30)])
            return (ann, rex)
        }
        return (db, ann, rex)
    }

    @Test("Duplicate primary keys are rejected, naming class.property and the value")
    func duplicatePrimaryKey() throws {
        let (db, _, _) = try seeded()
        let error = try expectRejected(db, .duplicatePrimaryKey) {
            try db.create("Person", ["name": .string("Ann"), "age": .int(1)])
        }
        #expect(error?.location == "Person.name")
        #expect(error?.message == "duplicate primary key value 'Ann': an object with it already exists")
        #expect(error?.headline == "Person.name: duplicate primary key value 'Ann': an object with it already exists")
        try expectRejected(db, .duplicatePrimaryKey) { _ = try db.createInBulk("Person", ["name": .string("Ann")]) }
        try expectRejected(db, .duplicatePrimaryKey) {
            try db.create(
                "Person",
                [
                    "name": .string("Ann"), "dog": .object(["name": .string("Inline")]),
                    "address": .object(["street": .string("Elm")]),
                ])
        }

        // Other primary-key types show the value in their own notation.
        let schema = Schema(classes: [
            ObjectSchema(name: "ById", properties: [prop("_id", "objectId")], primaryKey: "_id"),
            ObjectSchema(name: "ByInt", properties: [prop("id", "int")], primaryKey: "id"),
            ObjectSchema(name: "ByUUID", properties: [prop("id", "uuid")], primaryKey: "id"),
            ObjectSchema(name: "ByOptional", properties: [prop("id", "int?")], primaryKey: "id"),
        ])
        let other = try Database.inMemory(identifier: uniqueMemoryID(), schema: schema)
        let oid = try ObjectId(string: "507f1f77bcf86cd799439011")
        let uuid = try #require(UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962"))
        try other.write {
            try other.create("ById", ["_id": .objectId(oid)])
            try other.create("ByInt", ["id": .int(-7)])
            try other.create("ByUUID", ["id": .uuid(uuid)])
            try other.create("ByOptional", [:])
        }
        #expect(
            try expectRejected(other, .duplicatePrimaryKey) { try other.create("ById", ["_id": .objectId(oid)]) }?
                .headline
                == "ById._id: duplicate primary key value ObjectId('507f1f77bcf86cd799439011'): an object with it already exists"
        )
        #expect(
            try expectRejected(other, .duplicatePrimaryKey) { try other.create("ByInt", ["id": .int(-7)]) }?.headline
                == "ByInt.id: duplicate primary key value -7: an object with it already exists")
        #expect(
            try expectRejected(other, .duplicatePrimaryKey) { try other.create("ByUUID", ["id": .uuid(uuid)]) }?
                .headline
                == "ByUUID.id: duplicate primary key value UUID('3b241101-e2bb-4255-8caf-4136c566a962'): an object with it already exists"
        )
        #expect(
            try expectRejected(other, .duplicatePrimaryKey) { try other.create("ByOptional", ["id": .null]) }?.headline
                == "ByOptional.id: duplicate primary key value null: an object with it already exists")
        // ObjectId and UUID keys are generated when not given.
        try other.write {
            try other.create("ById", [:])
            try other.create("ByUUID", [:])
        }
        #expect(try other.count("ById") == 2)
        #expect(try other.count("ByUUID") == 2)
        // Int and string keys must be given.
        let missing = try expectRejected(other, .constraintViolation) { try other.create("ByInt", [:]) }
        #expect(missing?.headline == "ByInt.id: missing value for primary key")
    }

    @Test("A primary key cannot change after creation")
    func primaryKeyImmutable() throws {
        let (db, ann, _) = try seeded()
        let error = try expectRejected(db, .constraintViolation) { try db.set("Person", ann, "name", .string("Bob")) }
        #expect(error?.headline == "Person.name: primary key cannot be changed after creation (from 'Ann' to 'Bob')")
        try expectRejected(db, .constraintViolation) {
            try db.update("Person", ann, ["age": .int(99), "name": .string("Bob")], policy: .modified)
        }
        // Writing the same value is allowed and changes nothing.
        try db.write { try db.set("Person", ann, "name", .string("Ann")) }
        #expect(try db.key("Person", primaryKey: .string("Ann")) == ann)
    }

    @Test("Required properties cannot be null")
    func requiredNotNull() throws {
        let (db, ann, rex) = try seeded()
        let error = try expectRejected(db, .constraintViolation) { try db.create("Dog", ["name": .null]) }
        #expect(error?.headline == "Dog.name: required property cannot be null")
        try expectRejected(db, .constraintViolation) { try db.set("Dog", rex, "age", .null) }
        try expectRejected(db, .constraintViolation) { try db.set("Person", ann, "name", .null) }
        let element = try expectRejected(db, .constraintViolation) {
            try db.set("Person", ann, "tags", .set([.string("a"), .null]))
        }
        #expect(element?.headline == "Person.tags: null is not allowed in a collection of required values")
        try expectRejected(db, .constraintViolation) { try db.set("Person", ann, "scores", .map(["a": .null])) }
        // Link lists hold no nulls either.
        try expectRejected(db, .constraintViolation) { try db.set("Person", ann, "dogs", .list([.null])) }
        // Optional ones can be null.
        try db.write {
            try db.set("Dog", rex, "color", .null)
            try db.set("Person", ann, "dog", .null)
            try db.set("Person", ann, "dogMap", .map(["none": .null]))
        }
        #expect(try db.value("Person", ann, "dogMap") == .map(["none": .null]))
    }

    @Test("Values of the wrong type are rejected, naming class.property and the value")
    func wrongTypes() throws {
        let (db, ann, rex) = try seeded()
        let cases: [(String, String, Value, String)] = [
            ("Dog", "age", .string("old"), "Dog.age: expected a value of type 'int' but got string 'old'"),
            ("Dog", "age", .double(1.5), "Dog.age: expected a value of type 'int' but got double 1.5"),
            ("Dog", "name", .int(7), "Dog.name: expected a value of type 'string' but got int 7"),
            ("Dog", "color", .bool(true), "Dog.color: expected a value of type 'string?' but got bool true"),
            ("Dog", "age", .list([.int(1)]), "Dog.age: expected a value of type 'int' but got list"),
            ("Person", "tags", .set([.int(1)]), "Person.tags: expected an element of type 'string' but got int 1"),
            ("Person", "tags", .string("x"), "Person.tags: expected a set but got string 'x'"),
            ("Person", "scores", .list([.int(1)]), "Person.scores: expected a map but got list"),
            (
                "Person", "scores", .map(["a": .string("1")]),
                "Person.scores: expected an element of type 'int' but got string '1'"
            ),
            ("Person", "dogs", .map(["a": .link(ObjectLink("Dog", rex))]), "Person.dogs: expected a list but got map"),
            ("Person", "dog", .int(1), "Person.dog: expected a link to 'Dog' but got int 1"),
            (
                "Person", "dog", .link(ObjectLink("Person", ann)),
                "Person.dog: expected a link to 'Dog' but got a link to 'Person'"
            ),
            (
                "Person", "dogs", .list([.link(ObjectLink("Person", ann))]),
                "Person.dogs: expected a link to 'Dog' but got a link to 'Person'"
            ),
            ("Person", "extra", .set([.int(1)]), "Person.extra: a mixed value cannot hold a set"),
            (
                "Person", "extra", .list([.int(1), .map(["a": .set([])])]),
                "Person.extra[1][\"a\"]: a mixed value cannot hold a set"
            ),
            ("Person", "extra", .object(["a": .int(1)]), "Person.extra: a mixed value cannot hold a object"),
            ("Person", "address", .string("Elm"), "Person.address: expected a link to 'Address' but got string 'Elm'"),
        ]
        for (className, property, value, headline) in cases {
            let key = className == "Dog" ? rex : ann
            let onCreate = try expectRejected(db, .invalidValue) {
                try db.create(
                    className, className == "Dog" ? [property: value] : ["name": .string("New"), property: value])
            }
            #expect(onCreate?.headline == headline)
            let onSet = try expectRejected(db, .invalidValue) { try db.set(className, key, property, value) }
            #expect(onSet?.headline == headline)
        }
    }

    @Test("Sets reject duplicate elements")
    func setDuplicates() throws {
        let (db, ann, rex) = try seeded()
        let strings = try expectRejected(db, .constraintViolation) {
            try db.set("Person", ann, "tags", .set([.string("a"), .string("b"), .string("a")]))
        }
        #expect(strings?.headline == "Person.tags: duplicate set element 'a'")
        // Given as a list, the same rule applies.
        try expectRejected(db, .constraintViolation) {
            try db.set("Person", ann, "tags", .list([.string("a"), .string("a")]))
        }
        let links = try expectRejected(db, .constraintViolation) {
            try db.set("Person", ann, "dogSet", .set([.link(ObjectLink("Dog", rex)), .link(ObjectLink("Dog", rex))]))
        }
        #expect(links?.headline == "Person.dogSet: duplicate set element Dog(\(rex))")
        try expectRejected(db, .constraintViolation) {
            try db.create("Person", ["name": .string("Bob"), "tags": .set([.string("x"), .string("x")])])
        }
        // Distinct elements are fine, and lists allow duplicates.
        try db.write {
            try db.set("Person", ann, "tags", .set([.string("a"), .string("A"), .string("")]))
            try db.set("Person", ann, "dogs", .list([.link(ObjectLink("Dog", rex)), .link(ObjectLink("Dog", rex))]))
        }
        #expect(try db.value("Person", ann, "tags") == .set([.string(""), .string("A"), .string("a")]))
    }

    @Test(
        "Map keys must contain no '.' or NUL, and not start with '$'", arguments: ["a.b", ".", "$x", "$", "nul\u{0}"])
    func badMapKeys(key: String) throws {
        let (db, ann, _) = try seeded("badMapKeys-\(key.utf8.count)")
        let error = try expectRejected(db, .constraintViolation) {
            try db.set("Person", ann, "scores", .map(["ok": .int(1), key: .int(2)]))
        }
        #expect(error?.location == "Person.scores")
        #expect(error?.message == "invalid map key '\(key)': keys must contain no '.' or NUL, and not start with '$'")
        try expectRejected(db, .constraintViolation) {
            try db.create("Person", ["name": .string("Bob"), "scores": .map([key: .int(2)])])
        }
        try expectRejected(db, .constraintViolation) { try db.set("Person", ann, "dogMap", .map([key: .null])) }
    }

    @Test("Map keys that are merely unusual are accepted")
    func unusualMapKeys() throws {
        let (db, ann, _) = try seeded()
        // The empty key too: realm-core allows it (Realm files hold such keys).
        let map: Value = .map(["a$": .int(1), " ": .int(2), "ünïcode 🐶": .int(3), "a-b_c": .int(4), "": .int(5)])
        try db.write { try db.set("Person", ann, "scores", map) }
        #expect(try db.value("Person", ann, "scores") == map)
    }

    @Test("Unknown property and class names are rejected")
    func unknownNames() throws {
        let (db, ann, rex) = try seeded()
        let error = try expectRejected(db, .invalidValue) {
            try db.create("Dog", ["name": .string("Fido"), "wings": .int(2)])
        }
        #expect(error?.headline == "Dog.wings: unknown property (class 'Dog' has no property 'wings')")
        try expectRejected(db, .invalidValue) { try db.set("Dog", rex, "wings", .int(2)) }
        try expectRejected(db, .invalidValue) { try db.update("Person", ann, ["age": .int(1), "Age": .int(2)]) }
        let cls = try expectRejected(db, .notFound) { try db.create("Cat", [:]) }
        #expect(cls?.message == "no class named 'Cat' in the schema")
        #expect(
            expectPorterError(.notFound) { _ = try db.value("Dog", rex, "wings") }?.headline
                == "Dog.wings: unknown property (class 'Dog' has no property 'wings')")
        expectPorterError(.notFound) { _ = try db.count("Cat") }
        expectPorterError(.notFound) { _ = try db.keys("Dog", where: "wings", equals: .int(1)) }
        let missing = try expectRejected(db, .notFound) { try db.set("Dog", ObjectKey(12345), "age", .int(1)) }
        #expect(missing?.message == "object Dog(12345) does not exist")
        try expectRejected(db, .notFound) { try db.delete("Dog", ObjectKey(12345)) }
        expectPorterError(.notFound) { _ = try db.value("Dog", ObjectKey(12345), "age") }
        #expect(try db.object("Dog", ObjectKey(12345)) == nil)
    }

    @Test("linkingObjects properties are read-only")
    func linkingObjectsReadOnly() throws {
        let (db, ann, rex) = try seeded()
        let error = try expectRejected(db, .invalidValue) {
            try db.create("Dog", ["name": .string("Fido"), "walkers": .list([.link(ObjectLink("Person", ann))])])
        }
        #expect(error?.headline == "Dog.walkers: linkingObjects property is read-only")
        try expectRejected(db, .invalidValue) { try db.set("Dog", rex, "walkers", .list([])) }
        try expectRejected(db, .invalidValue) { try db.update("Dog", rex, ["owners": .null]) }
    }

    @Test("Links must point at an existing object of the right class")
    func linkTargets() throws {
        let (db, ann, rex) = try seeded()
        let missing = try expectRejected(db, .notFound) {
            try db.set("Person", ann, "dog", .link(ObjectLink("Dog", ObjectKey(999))))
        }
        #expect(missing?.headline == "Person.dog: link target Dog(999) does not exist")
        try expectRejected(db, .notFound) {
            try db.set(
                "Person", ann, "dogs", .list([.link(ObjectLink("Dog", rex)), .link(ObjectLink("Dog", ObjectKey(999)))]))
        }
        try expectRejected(db, .notFound) {
            try db.set("Person", ann, "dogMap", .map(["x": .link(ObjectLink("Dog", ObjectKey(999)))]))
        }
        let mixed = try expectRejected(db, .notFound) {
            try db.set("Person", ann, "extra", .link(ObjectLink("Dog", ObjectKey(999))))
        }
        #expect(mixed?.headline == "Person.extra: link target Dog(999) does not exist")
        try expectRejected(db, .notFound) { try db.set("Person", ann, "extra", .link(ObjectLink("Cat", ObjectKey(1)))) }
        // A deleted object is missing too.
        let gone = try db.write { try db.create("Dog", ["name": .string("Gone")]) }
        try db.write { try db.delete("Dog", gone) }
        try expectRejected(db, .notFound) { try db.set("Person", ann, "dog", .link(ObjectLink("Dog", gone))) }
        let wrong = try expectRejected(db, .invalidValue) {
            try db.set("Person", ann, "dogSet", .set([.link(ObjectLink("Person", ann))]))
        }
        #expect(wrong?.headline == "Person.dogSet: expected a link to 'Dog' but got a link to 'Person'")
    }

    @Test("Embedded objects cannot be created on their own or linked")
    func embeddedRules() throws {
        let (db, ann, _) = try seeded()
        let error = try expectRejected(db, .usage) { try db.create("Address", ["street": .string("Elm")]) }
        #expect(error?.message == "embedded objects cannot be created on their own; assign them to a parent's property")
        #expect(error?.location == "Address")
        try expectRejected(db, .usage) { _ = try db.createInBulk("Geo", [:]) }

        try db.write { try db.set("Person", ann, "address", .object(["street": .string("Elm")])) }
        guard case .link(let address)? = try db.object("Person", ann)?["address"] else {
            Issue.record("address was not stored")
            return
        }
        let linked = try expectRejected(db, .invalidValue) {
            try db.create("Person", ["name": .string("Bob"), "address": .link(address)])
        }
        #expect(
            linked?.headline
                == "Person.address: embedded objects are assigned by value, not linked (got a link to Address(\(address.key)))"
        )
        let mixed = try expectRejected(db, .invalidValue) { try db.set("Person", ann, "extra", .link(address)) }
        #expect(mixed?.headline == "Person.extra: a mixed value cannot link to embedded class 'Address'")
        let field = try expectRejected(db, .invalidValue) {
            try db.set("Person", ann, "address", .object(["street": .string("Oak"), "zip": .int(1)]))
        }
        #expect(field?.headline == "Address.zip: unknown property (class 'Address' has no property 'zip')")
        let nested = try expectRejected(db, .invalidValue) {
            try db.set(
                "Person", ann, "pets",
                .list([.object(["kind": .string("cat"), "geo": .object(["lat": .string("north")])])]))
        }
        #expect(nested?.headline == "Geo.lat: expected a value of type 'double' but got string 'north'")
        #expect(try db.count("Address") == 1)
    }
}
