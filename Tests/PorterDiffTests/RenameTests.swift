import Testing
@testable import PorterDiff
import PorterModel
import PorterTestSupport

/// realm-core `migrations.cpp` "property renaming" and realm-swift's rename tests, on the pure
/// rename rules; plus rename detection and the command-line forms.
@Suite struct RenameTests {
    let old = #"{"name": "object", "properties": {"value": "int?", "other": "int"}}"#

    private func failure(_ renames: RenameSet, _ oldJSON: String, _ newJSON: String) throws -> String? {
        let o = try schema(1, oldJSON), n = try schema(2, newJSON)
        return expectPorterError(.migrationFailed) { _ = try SchemaDiff.compare(o, n, renames: renames) }?.message
    }

    private func rename(_ c: String, _ from: String, _ to: String) -> RenameSet {
        RenameSet(properties: [PropertyRename(className: c, from: from, to: to)])
    }

    @Test func realmRenameMessages() throws {
        let newWith = { (props: String) in #"{"name": "object", "properties": {\#(props)}}"# }
        #expect(
            try failure(
                rename("object 2", "value", "new"), old,
                newWith(#""new": "int?", "other": "int""#) + #", {"name": "object 2", "properties": {"new": "int"}}"#)
                == "Cannot rename property 'object 2.value' because it does not exist.")
        #expect(
            try failure(rename("object", "value", "new"), old, #"{"name": "other", "properties": {"x": "int"}}"#)
                == "Cannot rename properties for type 'object' because it has been removed from the Realm.")
        #expect(
            try failure(
                rename("object", "nonexistent", "new"), old, newWith(#""value": "int?", "other": "int", "new": "int""#))
                == "Cannot rename property 'object.nonexistent' because it does not exist.")
        #expect(
            try failure(rename("object", "value", "nonexistent"), old, newWith(#""new": "int?", "other": "int""#))
                == "Renamed property 'object.nonexistent' does not exist.")
        #expect(
            try failure(
                rename("object", "value", "new"), old, newWith(#""value": "int?", "new": "int?", "other": "int""#))
                == "Cannot rename property 'object.value' to 'new' because the source property still exists.")
        #expect(
            try failure(rename("object", "value", "new"), old, newWith(#""new": "date?", "other": "int""#))
                == "Cannot rename property 'object.value' to 'new' because it would change from type 'int' to 'date'.")
        #expect(
            try failure(rename("object", "value", "new"), old, newWith(#""new": "int", "other": "int""#))
                == "Cannot rename property 'object.value' to 'new' because it would change from optional to required.")
        #expect(
            try failure(rename("nothing", "a", "b"), old, old)
                == "Cannot rename properties for type 'nothing' because it does not exist.")
    }

    @Test func linkTargetMismatchesNameBothTypes() throws {
        let t = #"{"name": "target", "properties": {"v": "int"}}"#,
            o = #"{"name": "origin", "properties": {"v": "int"}}"#
        let old = #"{"name": "object", "properties": {"value": "target?", "list": "target[]", "set": "target<>"}}"#
        let new = #"{"name": "object", "properties": {"new": "origin?", "list2": "origin[]", "set2": "origin<>"}}"#
        #expect(
            try failure(rename("object", "value", "new"), old + "," + t + "," + o, new + "," + t + "," + o)
                == "Cannot rename property 'object.value' to 'new' because it would change from type '<target>' to '<origin>'."
        )
        #expect(
            try failure(rename("object", "list", "list2"), old + "," + t + "," + o, new + "," + t + "," + o)
                == "Cannot rename property 'object.list' to 'list2' because it would change from type 'array<target>' to 'array<origin>'."
        )
        #expect(
            try failure(rename("object", "set", "set2"), old + "," + t + "," + o, new + "," + t + "," + o)
                == "Cannot rename property 'object.set' to 'set2' because it would change from type 'set<target>' to 'set<origin>'."
        )
    }

    @Test func validRenamesKeepAttributesAndLeaveTheRestToTheDiff() throws {
        let o = try schema(1, #"{"name": "object", "primaryKey": "value", "properties": {"value": "int", "x": "int"}}"#)
        // old is pk, new is not; make optional; add index: all remain as ordinary changes.
        let n = try schema(
            2, #"{"name": "object", "properties": {"new": {"type": "int?", "indexed": true}, "x": "int"}}"#)
        let diff = try SchemaDiff.compare(o, n, renames: rename("object", "value", "new"))
        #expect(diff.renamedOld["object"]?.primaryKey == "new")
        #expect(diff.changes.map(\.code) == ["make-optional", "change-primary-key"])
        // both are pk
        let both = try schema(2, #"{"name": "object", "primaryKey": "new", "properties": {"new": "int", "x": "int"}}"#)
        #expect(try SchemaDiff.compare(o, both, renames: rename("object", "value", "new")).changes.isEmpty)
    }

    @Test func chainedRenamesPassThroughIntermediateNames() throws {
        let o = try schema(1, #"{"name": "object", "properties": {"value": "int"}}"#)
        let n = try schema(2, #"{"name": "object", "properties": {"new": "int"}}"#)
        let chain = RenameSet(properties: [
            PropertyRename(className: "object", from: "value", to: "a"),
            PropertyRename(className: "object", from: "a", to: "b"),
            PropertyRename(className: "object", from: "b", to: "new"),
        ])
        #expect(try SchemaDiff.compare(o, n, renames: chain).changes.isEmpty)
    }

    @Test func classRenamesFollowLinks() throws {
        let o = try schema(
            1, #"{"name": "Old", "properties": {"v": "int", "me": "Old?"}}"#,
            #"{"name": "Owner", "properties": {"pet": "Old?", "pets": "Old[]"}}"#)
        let n = try schema(
            2, #"{"name": "New", "properties": {"v": "int", "me": "New?"}}"#,
            #"{"name": "Owner", "properties": {"pet": "New?", "pets": "New[]"}}"#)
        #expect(SchemaDiff.compare(o, n).count == 4)
        let diff = try SchemaDiff.compare(o, n, renames: RenameSet(classes: [ClassRename(from: "Old", to: "New")]))
        #expect(diff.changes.isEmpty)
        // A property rename may name the class by its old or new name.
        let n2 = try schema(
            2, #"{"name": "New", "properties": {"value": "int", "me": "New?"}}"#,
            #"{"name": "Owner", "properties": {"pet": "New?", "pets": "New[]"}}"#)
        for className in ["Old", "New"] {
            let set = RenameSet(
                classes: [ClassRename(from: "Old", to: "New")],
                properties: [PropertyRename(className: className, from: "v", to: "value")])
            #expect(try SchemaDiff.compare(o, n2, renames: set).changes.isEmpty)
        }
        #expect(
            expectPorterError(.migrationFailed) {
                _ = try SchemaDiff.compare(o, o, renames: RenameSet(classes: [ClassRename(from: "Old", to: "New")]))
            }?.message
                == "Cannot rename class 'Old' to 'New' because the source class still exists.")
    }

    @Test func likelyRenamesAreReportedNotApplied() throws {
        let o = try schema(
            1, #"{"name": "Person", "properties": {"name": "string", "age": "int", "nick": "string?"}}"#,
            #"{"name": "Cat", "properties": {"n": "string"}}"#)
        let n = try schema(
            2, #"{"name": "Person", "properties": {"fullName": "string", "age": "int", "nickname": "int?"}}"#,
            #"{"name": "Kitty", "properties": {"n": "string"}}"#)
        let report = try DiffReport(old: o, new: n)
        #expect(
            report.likelyRenames.map(\.option).sorted() == [
                "--rename Person.name=fullName", "--rename-class Cat=Kitty",
            ])
        #expect(report.changes.contains { $0.code == "remove-property" })
        let ambiguous = try schema(
            2, #"{"name": "Person", "properties": {"a": "string", "b": "string", "age": "int", "nick": "string?"}}"#,
            #"{"name": "Cat", "properties": {"n": "string"}}"#)
        #expect(try DiffReport(old: o, new: ambiguous).likelyRenames.allSatisfy { $0.isAmbiguous })
    }

    @Test func commandLineForms() throws {
        let p = try PropertyRename(parsing: "Dog.name=fullName")
        #expect(p == PropertyRename(className: "Dog", from: "name", to: "fullName"))
        #expect(try PropertyRename(parsing: "Dog.name=Dog.fullName") == p)
        #expect(p.description == "Dog.name=fullName")
        #expect(try ClassRename(parsing: "Old=New") == ClassRename(from: "Old", to: "New"))
        for bad in ["Dog=fullName", "Dog.name=", ".name=x", "Dog.name"] {
            expectPorterError(.usage) { _ = try PropertyRename(parsing: bad) }
        }
        expectPorterError(.usage) { _ = try ClassRename(parsing: "Old") }
        let fill = try FillArgument(parsing: "Person.city=Unknown")
        #expect(fill.subject == "Person.city" && fill.text == "Unknown")
    }
}
