import Testing
@testable import PorterDiff
import PorterModel

/// realm-core `test/object-store/schema.cpp` "compare()" and the change messages of
/// `migrations.cpp` "migration: Automatic" / "migration: Manual", adapted to Porter schemas.
@Suite struct SchemaDiffTests {
    let object = #"{"name": "object", "properties": {"value": "int", "optional": "int?"}}"#

    @Test func addTableGivesAddClassOnly() throws {
        let old = try schema(0, object)
        let new = try schema(0, object, #"{"name": "object2", "properties": {"value": "int"}}"#)
        let changes = SchemaDiff.compare(old, new)
        #expect(changes.count == 1)
        #expect(changes.first?.code == "add-class")
        #expect(changes.first?.message == "Class 'object2' has been added.")
        #expect(changes.allSatisfy { $0.isAutomatic })
    }

    @Test func removeTableIsReported() throws {
        let changes = SchemaDiff.compare(
            try schema(0, object, #"{"name": "gone", "properties": {"v": "int"}}"#), try schema(0, object))
        #expect(changes.map(\.code) == ["remove-class"])
        #expect(changes[0].message == "Class 'gone' has been removed.")
        #expect(!changes[0].isAutomatic)
    }

    @Test func propertyChangesUseRealmMessages() throws {
        let old = try schema(0, object)
        #expect(
            messages(
                old,
                try schema(0, #"{"name": "object", "properties": {"value": "int", "optional": "int?", "col2": "int"}}"#)
            )
                == ["Property 'object.col2' has been added."])
        #expect(
            messages(old, try schema(0, #"{"name": "object", "properties": {"value": "int"}}"#))
                == ["Property 'object.optional' has been removed."])
        #expect(
            messages(old, try schema(0, #"{"name": "object", "properties": {"value": "float", "optional": "int?"}}"#))
                == ["Property 'object.value' has been changed from 'int' to 'float'."])
        #expect(
            messages(old, try schema(0, #"{"name": "object", "properties": {"value": "int?", "optional": "int?"}}"#))
                == ["Property 'object.value' has been made optional."])
        #expect(
            messages(old, try schema(0, #"{"name": "object", "properties": {"value": "int", "optional": "int"}}"#))
                == ["Property 'object.optional' has been made required."])
        #expect(
            messages(
                old,
                try schema(
                    0,
                    #"{"name": "object", "properties": {"value": "int", "optional": {"type": "int?", "indexed": true}}}"#
                ))
                == ["Property 'object.optional' has been made indexed."])
        let indexed = try schema(
            0, #"{"name": "object", "properties": {"value": {"type": "int", "indexed": true}, "optional": "int?"}}"#)
        #expect(messages(indexed, old) == ["Property 'object.value' has been made unindexed."])
    }

    @Test func linkTargetChangesAreTypeChanges() throws {
        let t1 = #"{"name": "target 1", "properties": {"v": "int"}}"#,
            t2 = #"{"name": "target 2", "properties": {"v": "int"}}"#
        let old = try schema(
            0, t1, t2, #"{"name": "origin", "properties": {"value": "target 1?", "array": "target 1[]"}}"#)
        let new = try schema(
            0, t1, t2, #"{"name": "origin", "properties": {"value": "target 2?", "array": "target 2[]"}}"#)
        #expect(
            messages(old, new) == [
                "Property 'origin.value' has been changed from '<target 1>' to '<target 2>'.",
                "Property 'origin.array' has been changed from 'array<target 1>' to 'array<target 2>'.",
            ])
    }

    @Test func listToSetIsATypeChange() throws {
        let old = try schema(0, #"{"name": "o", "properties": {"tags": "string[]"}}"#)
        let new = try schema(0, #"{"name": "o", "properties": {"tags": "string<>"}}"#)
        #expect(messages(old, new) == ["Property 'o.tags' has been changed from 'array<string>' to 'set<string>'."])
    }

    @Test func addIndexAndMakeNullableGivesBothInOrder() throws {
        let old = try schema(0, #"{"name": "o", "properties": {"v": "int"}}"#)
        let new = try schema(0, #"{"name": "o", "properties": {"v": {"type": "int?", "indexed": true}}}"#)
        #expect(SchemaDiff.compare(old, new).map(\.code) == ["make-optional", "add-index"])
    }

    @Test func typeChangeSuppressesIndexAndNullabilityChanges() throws {
        let old = try schema(0, #"{"name": "o", "properties": {"v": "int"}}"#)
        #expect(
            SchemaDiff.compare(
                old, try schema(0, #"{"name": "o", "properties": {"v": {"type": "string", "indexed": true}}}"#)
            ).map(\.code) == ["change-property-type"])
        #expect(
            SchemaDiff.compare(old, try schema(0, #"{"name": "o", "properties": {"v": "double?"}}"#)).map(\.code) == [
                "change-property-type"
            ])
    }

    @Test func primaryKeyChanges() throws {
        let plain = try schema(0, #"{"name": "object", "properties": {"pk": "int", "value": "int"}}"#)
        let keyed = try schema(
            0, #"{"name": "object", "primaryKey": "pk", "properties": {"pk": "int", "value": "int"}}"#)
        let moved = try schema(
            0, #"{"name": "object", "primaryKey": "value", "properties": {"pk": "int", "value": "int"}}"#)
        #expect(
            messages(plain, keyed) == [
                "Property 'object.pk' has been made indexed.", "Primary Key for class 'object' has been added.",
            ])
        #expect(
            messages(keyed, plain) == [
                "Property 'object.pk' has been made unindexed.", "Primary Key for class 'object' has been removed.",
            ])
        #expect(messages(keyed, moved).last == "Primary Key for class 'object' has changed from 'pk' to 'value'.")
    }

    @Test func embeddednessChanges() throws {
        let top = try schema(0, #"{"name": "object", "properties": {"v": "int"}}"#)
        let embedded = try schema(0, #"{"name": "object", "embedded": true, "properties": {"v": "int"}}"#)
        #expect(messages(top, embedded) == ["Class 'object' has been changed from TopLevel to Embedded."])
        #expect(messages(embedded, top) == ["Class 'object' has been changed from Embedded to TopLevel."])
    }

    @Test func propertyAndClassOrderNeverMatter() throws {
        let a = try schema(
            0, #"{"name": "a", "properties": {"x": "int", "y": "string"}}"#,
            #"{"name": "b", "properties": {"z": "int"}}"#)
        let b = try schema(
            0, #"{"name": "b", "properties": {"z": "int"}}"#,
            #"{"name": "a", "properties": {"y": "string", "x": "int"}}"#)
        #expect(SchemaDiff.compare(a, b).isEmpty)
    }

    @Test func persistedLinkReplacedByComputedIsARemoval() throws {
        let old = try schema(0, #"{"name": "obj", "properties": {"link": "obj?", "v": "int"}}"#)
        let new = try schema(
            0,
            #"{"name": "obj", "properties": {"v": "int", "link": {"type": "linkingObjects", "objectType": "obj", "property": "me"}, "me": "obj?"}}"#
        )
        #expect(messages(old, new).first == "Property 'obj.link' has been removed.")
    }

    @Test func collectionNullabilityIsMakeOptional() throws {
        let old = try schema(0, #"{"name": "o", "properties": {"v": "int[]"}}"#)
        let new = try schema(0, #"{"name": "o", "properties": {"v": "int?[]"}}"#)
        #expect(SchemaDiff.compare(old, new).map(\.code) == ["make-optional"])
    }
}
