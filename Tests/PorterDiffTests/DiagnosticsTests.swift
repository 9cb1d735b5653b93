import Foundation
import Testing
@testable import PorterDiff
import PorterStore
import PorterModel
import PorterTestSupport

/// Data-aware diagnostics: a diff whose old side is a database says what each change does to
/// the data in it.
@Suite struct DiagnosticsTests {
    @Test func countsValuesNullsDuplicatesAndUnconvertibles() throws {
        let dir = try TemporaryFolder()
        let old = try schema(
            1,
            #"{"name": "Dog", "properties": {"name": "string", "age": "string", "color": "string?", "owner": "string?", "tag": "int"}}"#,
            #"{"name": "Cat", "properties": {"n": "string"}}"#)
        let db = try Database.create(at: dir.path("old.porter"), schema: old)
        try db.write {
            try db.create(
                "Dog", ["name": .string("rex"), "age": .string("3"), "color": .string("brown"), "tag": .int(1)])
            try db.create(
                "Dog", ["name": .string("fido"), "age": .string("three"), "owner": .string("ann"), "tag": .int(1)])
            try db.create("Dog", ["name": .string("rex"), "age": .string("5"), "tag": .int(2)])
            try db.create("Cat", ["n": .string("tom")])
        }
        let new = try schema(
            2,
            #"{"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int", "owner": "string", "tag": "int"}}"#
        )
        var report = try DiffReport(old: old, new: new)
        try report.addDiagnostics(from: db)
        func diagnostics(_ code: String, _ property: String? = nil) -> ChangeDiagnostics? {
            report.entries.first { $0.change.code == code && (property == nil || $0.change.propertyName == property) }?
                .diagnostics
        }
        #expect(diagnostics("remove-class")?.valuesLost == 1)
        #expect(diagnostics("remove-property", "color")?.valuesLost == 1)
        #expect(diagnostics("remove-property", "color")?.objectCount == 3)
        let age = try #require(diagnostics("change-property-type", "age"))
        #expect(age.conversion == "string -> int (exact)")
        #expect(age.unconvertible?.count == 1)
        #expect(age.unconvertible?.sample == ["Dog(2): 'three' is not an integer"])
        #expect(age.valuesLost == 0)
        #expect(diagnostics("make-required", "owner")?.nullsBlockingRequired == 2)
        let pk = try #require(diagnostics("change-primary-key"))
        #expect(pk.duplicates == SampledCount(count: 1, sample: ["'rex' (2 objects)"]))
        let text = report.text(oldName: "old.porter", newName: "new.json")
        #expect(text.contains("1 non-null value would be lost"))
        #expect(text.contains("2 nulls need a fill value (--fill)"))
        #expect(text.contains("1 value cannot be converted: Dog(2): 'three' is not an integer"))
        #expect(text.contains("1 duplicate value block the primary key: 'rex' (2 objects)"))
        let json = report.jsonValue()
        #expect(json["changes"]?[0]?["diagnostics"]?["losesData"] == .bool(true))
    }

    @Test func removingOnlyNullsLosesNothing() throws {
        let dir = try TemporaryFolder()
        let old = try schema(1, #"{"name": "Dog", "properties": {"name": "string", "color": "string?"}}"#)
        let db = try Database.create(at: dir.path("old.porter"), schema: old)
        try db.write { try db.create("Dog", ["name": .string("rex")]) }
        var report = try DiffReport(old: old, new: try schema(2, #"{"name": "Dog", "properties": {"name": "string"}}"#))
        try report.addDiagnostics(from: db)
        #expect(report.entries[0].diagnostics?.losesData == false)
        #expect(report.text().contains("no data would be lost"))
    }

    @Test func renamedPropertiesAreReadUnderTheirOldNames() throws {
        let dir = try TemporaryFolder()
        let old = try schema(1, #"{"name": "Person", "properties": {"name": "string", "nick": "string?"}}"#)
        let db = try Database.create(at: dir.path("old.porter"), schema: old)
        try db.write {
            try db.create("Person", ["name": .string("ann")])
            try db.create("Person", ["name": .string("ann"), "nick": .string("a")])
        }
        let new = try schema(
            2, #"{"name": "Human", "primaryKey": "fullName", "properties": {"fullName": "string", "nick": "string"}}"#)
        var report = try DiffReport(
            old: old, new: new,
            renames: RenameSet(
                classes: [ClassRename(from: "Person", to: "Human")],
                properties: [PropertyRename(className: "Human", from: "name", to: "fullName")]))
        try report.addDiagnostics(from: db)
        #expect(report.entries.map(\.change.code) == ["add-index", "make-required", "change-primary-key"])
        #expect(report.entries[1].diagnostics?.nullsBlockingRequired == 1)
        #expect(report.entries[2].diagnostics?.duplicates?.sample == ["'ann' (2 objects)"])
        #expect(report.text().contains("rename-property       Property 'Human.name' is renamed to 'fullName'."))
    }

    @Test func embeddingDiagnosticsCountOrphansSharedAndMixed() throws {
        let dir = try TemporaryFolder()
        let old = try schema(
            1,
            #"{"name": "Parent", "properties": {"child": "Child?", "children": "Child[]", "any": "mixed"}}"#,
            #"{"name": "Child", "properties": {"v": "int"}}"#)
        let db = try Database.create(at: dir.path("old.porter"), schema: old)
        try db.write {
            let shared = try db.create("Child", ["v": .int(1)])
            _ = try db.create("Child", ["v": .int(2)])  // orphan
            let single = try db.create("Child", ["v": .int(3)])
            try db.create("Parent", ["child": .link(ObjectLink("Child", shared))])
            try db.create(
                "Parent",
                [
                    "children": .list([.link(ObjectLink("Child", shared)), .link(ObjectLink("Child", single))]),
                    "any": .link(ObjectLink("Child", single)),
                ])
        }
        let new = try schema(
            2,
            #"{"name": "Parent", "properties": {"child": "Child?", "children": "Child[]", "any": "mixed"}}"#,
            #"{"name": "Child", "embedded": true, "properties": {"v": "int"}}"#)
        var report = try DiffReport(old: old, new: new)
        try report.addDiagnostics(from: db)
        let d = try #require(report.entries.first?.diagnostics)
        #expect(d.orphans == 1)
        #expect(d.multiplyLinked == 1)
        #expect(d.mixedLinks?.count == 1)
        #expect(d.mixedLinks?.sample == ["Parent(2).any"])
    }
}
