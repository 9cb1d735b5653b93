import Foundation
import Testing
@testable import PorterMigration
import PorterModel
import PorterTestSupport

/// realm-core `migrations.cpp` "object accessors inside migrations" and realm-swift's
/// `testMigrationObject`: reading the old side, reading and writing the new side, creating
/// objects, and primary keys that change during the migration.
@Suite struct AccessorTests {
    let allTypes = #"""
        {"name": "all types", "primaryKey": "pk", "properties": {"pk": "int", "bool": "bool", "int": "int", "float": "float",
         "double": "double", "string": "string", "data": "data", "date": "date", "object id": "objectId",
         "decimal": "decimal128", "uuid": "uuid", "mixed": "mixed", "object": "link target?", "array": "array target[]"}}
        """#
    let targets = [
        #"{"name": "link target", "properties": {"value": "int"}}"#,
        #"{"name": "array target", "properties": {"value": "int"}}"#,
    ]
    let oid = try! ObjectId(string: "5f1b2c3d4e5f60718293a4b5")
    let uuid = UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962")!

    private func makeAllTypes(_ dir: TemporaryFolder) throws -> String {
        try makeDatabase(dir.path("db.porter"), try schema(1, allTypes, targets[0], targets[1])) { db in
            try db.create(
                "all types",
                [
                    "pk": .int(1), "bool": .bool(true), "int": .int(5), "float": .float(2.2), "double": .double(3.3),
                    "string": .string("hello"),
                    "data": .data(Data("olleh".utf8)), "date": .date(Timestamp(microseconds: 1_000_000)),
                    "object id": .objectId(oid),
                    "decimal": .decimal128(Decimal128(123)), "uuid": .uuid(uuid), "mixed": .string("any"),
                    "object": .object(["value": .int(10)]), "array": .list([.object(["value": .int(20)])]),
                ])
        }
    }

    @Test func readValuesFromTheOldSideAndRemovedOnesFailOnTheNewSide() throws {
        let dir = try TemporaryFolder()
        let path = try makeAllTypes(dir)
        let onlyPK = try schema(
            2, #"{"name": "all types", "primaryKey": "pk", "properties": {"pk": "int"}}"#, targets[0], targets[1])
        let seen = Box<[String: Value]>([:])
        let error = expectPorterError(.notFound) {
            try migrate(path, to: onlyPK, options: MigrationOptions(allowDataLoss: true)) { migration, _ in
                try migration.enumerateObjects(ofType: "all types") { old, new in
                    guard let old, let new else { return }
                    var values: [String: Value] = [:]
                    for name in [
                        "bool", "int", "float", "double", "string", "data", "date", "object id", "decimal", "uuid",
                        "mixed", "object", "array",
                    ] {
                        values[name] = old[name]
                    }
                    seen.value = values
                    let linked = try old.linkedObject("object")
                    #expect(try linked?.value(forKey: "value") == .int(10))
                    _ = try new.value(forKey: "bool")
                }
            }
        }
        #expect(error?.message == "Invalid property name 'bool' for class 'all types'.")
        let values = seen.value
        #expect(
            values["bool"] == .bool(true) && values["int"] == .int(5) && values["float"] == .float(2.2)
                && values["double"] == .double(3.3))
        #expect(
            values["string"] == .string("hello") && values["data"] == .data(Data("olleh".utf8))
                && values["object id"] == .objectId(oid))
        #expect(
            values["decimal"] == .decimal128(Decimal128(123)) && values["uuid"] == .uuid(uuid)
                && values["mixed"] == .string("any"))
        #expect(values["date"] == .date(Timestamp(microseconds: 1_000_000)))
        if case .link(let link)? = values["object"] {
            #expect(link.className == "link target")
        } else {
            Issue.record("no link")
        }
        if case .list(let items)? = values["array"] { #expect(items.count == 1) } else { Issue.record("no list") }
        // The failed migration changed nothing.
        #expect(try reopen(path).schemaVersion == 1)
    }

    @Test func subscriptErrorsFailTheMigration() throws {
        let dir = try TemporaryFolder()
        let path = try makeAllTypes(dir)
        let new = try schema(2, allTypes, targets[0], targets[1])
        let unknown = expectPorterError(.notFound) {
            try migrate(path, to: new) { migration, _ in
                migration.enumerateObjects(ofType: "all types") { _, new in new?["nope"] = .int(1) }
            }
        }
        #expect(unknown?.message == "Invalid property name 'nope' for class 'all types'.")
        let mutateOld = expectPorterError(.notInWriteTransaction) {
            try migrate(path, to: new) { migration, _ in
                try migration.enumerateObjects(ofType: "all types") { old, _ in
                    try old?.setValue(.int(2), forKey: "int")
                }
            }
        }
        #expect(mutateOld?.message == "Cannot modify managed objects outside of a write transaction.")
        #expect(try reopen(path).schemaVersion == 1)
    }

    @Test func readAndWriteEveryTypeOnTheNewSide() throws {
        let dir = try TemporaryFolder()
        let path = try makeAllTypes(dir)
        let new = try schema(2, allTypes, targets[0], targets[1])
        try migrate(path, to: new) { migration, _ in
            migration.enumerateObjects(ofType: "all types") { _, new in
                guard let new else { return }
                #expect(new["int"] == .int(5))
                new["bool"] = .bool(false); new["int"] = .int(6); new["float"] = .float(1); new["double"] = .double(2)
                new["string"] = .string("bye"); new["data"] = .data(Data());
                new["date"] = .date(Timestamp(microseconds: 5))
                new["mixed"] = .int(7)
                let target = migration.create("link target", value: ["value": .int(11)])
                new["object"] = .link(ObjectLink("link target", target.key))
                new["array"] = .list([])
            }
        }
        let db = try reopen(path)
        let object = try #require(try db.object("all types", ObjectKey(1)))
        #expect(
            object["bool"] == .bool(false) && object["int"] == .int(6) && object["string"] == .string("bye")
                && object["mixed"] == .int(7))
        #expect(object["array"] == .list([]))
        #expect(try db.count("link target") == 2)
    }

    @Test func createObjectsIncludingNestedOnes() throws {
        let dir = try TemporaryFolder()
        let path = try makeAllTypes(dir)
        try migrate(path, to: try schema(2, allTypes, targets[0], targets[1])) { migration, _ in
            migration.create(
                "all types",
                value: [
                    "pk": .int(2), "object": .object(["value": .int(1)]),
                    "array": .list([.object(["value": .int(2)]), .object(["value": .int(3)])]),
                ])
        }
        let db = try reopen(path)
        #expect(try db.count("all types") == 2)
        #expect(try db.count("link target") == 2)
        #expect(try db.count("array target") == 3)
    }

    @Test func primaryKeysMayChangeDuringTheMigration() throws {
        let dir = try TemporaryFolder()
        let keyed = #"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "v": "int"}}"#
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, keyed)) { db in
            for i in 0..<10 { try db.create("Object", ["pk": .int(Int64(i)), "v": .int(Int64(i))]) }
        }
        // Every key += 1 (temporarily duplicated), then a new object with pk 0.
        try migrate(path, to: try schema(2, keyed)) { migration, _ in
            migration.enumerateObjects(ofType: "Object") { _, new in
                if case .int(let pk)? = new?["pk"] { new?["pk"] = .int(pk + 1) }
            }
            migration.create("Object", value: ["pk": .int(0), "v": .int(-1)])
        }
        let db = try reopen(path)
        #expect(try db.count("Object") == 11)
        #expect(try db.key("Object", primaryKey: .int(10)) != nil)
        #expect(try db.value("Object", try #require(try db.key("Object", primaryKey: .int(0))), "v") == .int(-1))
        // create with pk 0 then set 0...9 ("create and modify primary key inside migration")
        let path2 = try makeDatabase(dir.path("db2.porter"), try schema(1, keyed))
        try migrate(path2, to: try schema(2, keyed)) { migration, _ in
            for i in 0..<10 {
                let object = migration.create("Object", value: ["pk": .int(0)])
                object["pk"] = .int(Int64(i))
            }
        }
        #expect(try reopen(path2).count("Object") == 10)
        // A duplicate created and left behind fails and rolls back.
        let error = expectPorterError(.migrationFailed) {
            try migrate(path2, to: try schema(3, keyed)) { migration, _ in
                migration.create("Object", value: ["pk": .int(1)])
            }
        }
        #expect(
            error?.message.hasPrefix("Primary key property 'Object.pk' has duplicate values after migration. ") == true,
            "\(String(describing: error?.message))")
        #expect(try reopen(path2).count("Object") == 10)
    }

    @Test func objectIdPrimaryKeysAreGeneratedOnCreate() throws {
        let dir = try TemporaryFolder()
        let keyed = #"{"name": "o", "primaryKey": "_id", "properties": {"_id": "objectId", "n": "int"}}"#
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, keyed))
        try migrate(path, to: try schema(2, keyed)) { migration, _ in
            migration.create("o", value: ["n": .int(1)])
            migration.create("o", value: ["n": .int(2)])
        }
        #expect(try reopen(path).count("o") == 2)
    }
}
