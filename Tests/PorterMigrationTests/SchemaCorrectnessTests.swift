import Foundation
import Testing
@testable import PorterMigration
import PorterModel
import PorterStore
import PorterTestSupport

/// realm-core `migrations.cpp` "schema correctness during migration": inside the block the old
/// side has the old schema and version, the new side the new schema; afterwards the file has
/// exactly the new schema and its tables match it.
@Suite struct SchemaCorrectnessTests {
    let base = [
        #"{"name": "Object", "properties": {"value": "int", "value 2": "int", "date": "date?"}}"#,
        #"{"name": "link origin", "properties": {"value": "int", "link": "Object?", "list": "Object[]"}}"#,
        #"{"name": "no pk object", "properties": {"value": "int"}}"#,
    ]

    private func verify(_ replace: (inout [String]) -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = try TemporaryFolder()
        let old = try Schema(jsonString: #"{"schemaVersion": 0, "classes": [\#(base.joined(separator: ","))]}"#)
        let path = try makeDatabase(dir.path("db.porter"), old)
        var classes = base
        replace(&classes)
        let new = try Schema(jsonString: #"{"schemaVersion": 1, "classes": [\#(classes.joined(separator: ","))]}"#)
        let seen = Box<(Schema?, Schema?, UInt64?)>((nil, nil, nil))
        try migrate(path, to: new) { migration, version in
            seen.value = (migration.oldSchema, migration.newSchema, version)
        }
        #expect(seen.value.0 == old, sourceLocation: sourceLocation)
        #expect(seen.value.1 == new, sourceLocation: sourceLocation)
        #expect(seen.value.2 == 0, sourceLocation: sourceLocation)
        let db = try Database.open(at: path, schema: new)
        #expect(db.schema == new, sourceLocation: sourceLocation)
        let storage = MigrationStorage(db)
        for cls in new.classes {
            #expect(
                try storage.columns(cls.name).sorted()
                    == cls.persistedProperties.filter { !$0.isCollection }.map(\.name).sorted(),
                sourceLocation: sourceLocation)
            #expect(
                try storage.collectionProperties(cls.name).sorted()
                    == cls.persistedProperties.filter { $0.isCollection }.map(\.name).sorted(),
                sourceLocation: sourceLocation)
        }
        #expect(try db.sqliteIntegrityCheck().isEmpty, sourceLocation: sourceLocation)
    }

    @Test func eachChangeLeavesTheExactSchema() throws {
        try verify { $0.append(#"{"name": "new table", "properties": {"v": "int"}}"#) }
        try verify {
            $0.append(#"{"name": "holder", "properties": {"e": "emb?"}}"#);
            $0.append(#"{"name": "emb", "embedded": true, "properties": {"v": "int"}}"#)
        }
        try verify {
            $0[2] = #"{"name": "no pk object", "embedded": true, "properties": {"value": "int"}}"#;
            $0.append(#"{"name": "holder", "properties": {"e": "no pk object?"}}"#)
        }
        try verify {
            $0[0] =
                #"{"name": "Object", "properties": {"value": "int", "value 2": "int", "date": "date?", "added": "string"}}"#
        }
        try verify { $0[0] = #"{"name": "Object", "properties": {"value": "int", "date": "date?"}}"# }
        try verify { $0[0] = #"{"name": "Object", "properties": {"value": "int"}}"# }
        try verify {
            $0[0] =
                #"{"name": "Object", "primaryKey": "value", "properties": {"value": "int", "value 2": "int", "date": "date?"}}"#
        }
        try verify {
            $0[0] = #"{"name": "Object", "properties": {"value": "date", "value 2": "int", "date": "date?"}}"#
        }
        try verify {
            $0[1] =
                #"{"name": "link origin", "properties": {"value": "int", "link": "no pk object?", "list": "Object[]"}}"#
        }
        try verify {
            $0[1] =
                #"{"name": "link origin", "properties": {"value": "int", "link": "Object?", "list": "no pk object[]"}}"#
        }
        try verify {
            $0[0] = #"{"name": "Object", "properties": {"value": "int?", "value 2": "int", "date": "date?"}}"#
        }
        try verify { $0[0] = #"{"name": "Object", "properties": {"value": "int", "value 2": "int", "date": "date"}}"# }
        try verify {
            $0[0] =
                #"{"name": "Object", "properties": {"value": {"type": "int", "indexed": true}, "value 2": "int", "date": "date?"}}"#
        }
        try verify { $0[0] = #"{"name": "Object", "properties": {"date": "date?", "value 2": "int", "value": "int"}}"# }
        try verify {
            $0[1] = #"{"name": "link origin", "properties": {"value": "int", "link": "Object?", "list": "Object<>"}}"#
        }
    }

    @Test func changePrimaryKeyBetweenProperties() throws {
        let dir = try TemporaryFolder()
        let old = try schema(
            1,
            #"{"name": "Employee", "primaryKey": "UId", "properties": {"UId": "string", "EmployeeId": "string?", "Name": "string"}}"#
        )
        let path = try makeDatabase(dir.path("db.porter"), old) { db in
            try db.create("Employee", ["UId": .string("a"), "EmployeeId": .string("e1"), "Name": .string("Ann")])
            try db.create("Employee", ["UId": .string("b"), "EmployeeId": .string("e2"), "Name": .string("Bob")])
        }
        let new = try schema(
            2,
            #"{"name": "Employee", "primaryKey": "EmployeeId", "properties": {"UId": "string", "EmployeeId": "string", "Name": "string"}}"#
        )
        try migrate(path, to: new) { migration, _ in
            migration.enumerateObjects(ofType: "Employee") { old, new in new?["EmployeeId"] = old?["EmployeeId"] }
        }
        let db = try reopen(path)
        #expect(try db.key("Employee", primaryKey: .string("e2")) != nil)
    }

    @Test func primaryKeyFromIntToString() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "o", "primaryKey": "_id", "properties": {"_id": "int"}}"#)
        ) { db in
            try db.create("o", ["_id": .int(1)])
            try db.create("o", ["_id": .int(2)])
        }
        // With no block, the int → string conversion keeps the keys.
        try migrate(path, to: try schema(2, #"{"name": "o", "primaryKey": "_id", "properties": {"_id": "string"}}"#))
        #expect(try column(path, "o", "_id") == [.string("1"), .string("2")])
        #expect(try reopen(path).key("o", primaryKey: .string("2")) != nil)
    }
}
