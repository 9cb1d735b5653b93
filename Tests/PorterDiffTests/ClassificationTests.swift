import Testing
@testable import PorterDiff
import PorterModel

/// Automatic / needs migration / destructive, as realm-core's `needs_migration` and
/// `verify_no_migration_required` split the kinds, plus Porter's data-loss view.
@Suite struct ClassificationTests {
    @Test func everyKindHasItsSeverity() throws {
        let dog = ObjectSchema(name: "Dog", properties: [Property(name: "age", type: .int)])
        let age = Property(name: "age", type: .int)
        let cases: [(SchemaChange, ChangeSeverity)] = [
            (.addClass(dog), .automatic),
            (.addIndex(className: "Dog", property: age), .automatic),
            (.removeIndex(className: "Dog", property: age), .automatic),
            (.addProperty(className: "Dog", property: age), .migration),
            (.makeOptional(className: "Dog", property: age), .migration),
            (.makeRequired(className: "Dog", property: age), .destructive),
            (.changePrimaryKey(className: "Dog", old: nil, new: "age"), .migration),
            (.changeClassType(className: "Dog", toEmbedded: false), .migration),
            (.changeClassType(className: "Dog", toEmbedded: true), .destructive),
            (.removeClass(dog), .destructive),
            (.removeProperty(className: "Dog", property: age), .destructive),
            // int → string: porter migrate converts it without a plan, losing nothing.
            (.changePropertyType(className: "Dog", old: age, new: Property(name: "age", type: .string)), .converted),
            // double → float rounds; date → int has no conversion: both lose data without a plan.
            (
                .changePropertyType(
                    className: "Dog", old: Property(name: "w", type: .double), new: Property(name: "w", type: .float)),
                .destructive
            ),
            (
                .changePropertyType(
                    className: "Dog", old: Property(name: "d", type: .date), new: Property(name: "d", type: .int)),
                .destructive
            ),
        ]
        for (change, severity) in cases {
            #expect(change.severity == severity, "\(change.code)")
            #expect(change.isAutomatic == (severity == .automatic), "\(change.code)")
        }
    }

    @Test func codesAndOperationNamesAreStable() throws {
        let age = Property(name: "age", type: .int)
        let change = SchemaChange.changePropertyType(
            className: "Dog", old: age, new: Property(name: "age", type: .string))
        #expect(change.code == "change-property-type")
        #expect(change.operationName == "changePropertyType")
        #expect(change.subject == "Dog.age")
        #expect(change.message == "Property 'Dog.age' has been changed from 'int' to 'string'.")
        #expect(ChangeSeverity.automatic < .migration && .migration < .converted && .converted < .destructive)
    }

    @Test func reportCountsAndNeedsMigration() throws {
        let old = try schema(1, #"{"name": "Dog", "properties": {"name": "string", "age": "int"}}"#)
        let new = try schema(
            2,
            #"{"name": "Dog", "properties": {"name": {"type": "string", "indexed": true}, "age": "string", "born": "date?"}}"#,
            #"{"name": "Toy", "properties": {"n": "string"}}"#)
        let report = try DiffReport(old: old, new: new)
        #expect(report.count(.automatic) == 2)
        #expect(report.count(.migration) == 1)
        // int → string is converted by porter migrate without a plan: not destructive.
        #expect(report.count(.converted) == 1)
        #expect(report.count(.destructive) == 0)
        #expect(report.needsMigration)
        #expect(report.hasChanges)
        let same = try DiffReport(old: old, new: old)
        #expect(!same.hasChanges)
        var bumped = old
        bumped.version = 5
        #expect(try DiffReport(old: old, new: bumped).hasChanges)
    }

    @Test func textAndJSONShowEverything() throws {
        let old = try schema(1, #"{"name": "Person", "properties": {"name": "string", "age": "int"}}"#)
        let new = try schema(2, #"{"name": "Person", "properties": {"fullName": "string", "age": "string"}}"#)
        let report = try DiffReport(old: old, new: new)
        let text = report.text(oldName: "v1.json", newName: "v2.json")
        #expect(text.contains("Schema diff: v1.json (version 1) -> v2.json (version 2)"))
        #expect(
            text.contains(
                "converted    change-property-type  Property 'Person.age' has been changed from 'int' to 'string'. porter migrate converts it: no data lost."
            ))
        #expect(text.contains("--rename Person.name=fullName"))
        let json = report.jsonValue(oldName: "v1.json", newName: "v2.json")
        #expect(json["summary"]?["changes"] == .number(3))
        #expect(json["changes"]?[0]?["code"] == .string("remove-property"))
        #expect(json["likelyRenames"]?[0]?["hint"] == .string("--rename Person.name=fullName"))
        #expect(try JSONValue.parse(json.serialized(pretty: true)) == json)
    }
}
