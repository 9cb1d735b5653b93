import Foundation
import Testing
@testable import PorterDiff
import PorterModel
import PorterTestSupport

/// Plans: made from two schemas, written and read back unchanged, validated with errors that
/// name the operation, and turned into checked steps.
@Suite struct PlanTests {
    let v1 =
        #"{"name": "Person", "properties": {"name": "string", "city": "string?", "age": "int", "nick": "string?"}}"#
    let v2 =
        #"{"name": "Person", "properties": {"fullName": "string", "city": "string", "age": "string", "email": "date?"}}"#

    private func make(allowDataLoss: Bool = false) throws -> (Schema, MigrationPlan, [String]) {
        let old = try schema(1, v1), new = try schema(2, v2)
        let (plan, warnings) = try MigrationPlan.make(
            from: old, to: new,
            renames: RenameSet(properties: [PropertyRename(className: "Person", from: "name", to: "fullName")]),
            fills: [try FillArgument(parsing: "Person.city=Unknown")], allowDataLoss: allowDataLoss)
        return (old, plan, warnings)
    }

    @Test func makeListsRenamesConversionsFillsAndChanges() throws {
        let (old, plan, warnings) = try make()
        #expect(plan.fromVersion == 1 && plan.toVersion == 2)
        #expect(plan.oldSchemaChecksum == old.sha256Checksum)
        #expect(
            plan.operations.map(\.name) == [
                "renameProperty", "makeRequired", "fill", "convert", "removeProperty", "addProperty",
            ])
        #expect(plan.operations[2] == .fill(className: "Person", property: "city", value: .string("Unknown")))
        #expect(
            plan.operations[3]
                == .convert(
                    PlanConversion(className: "Person", property: "age", from: "int", to: "string", rule: .exact)))
        #expect(warnings.count == 1)
        #expect(warnings[0].contains("Property 'Person.nick' has been removed."))
        #expect(warnings[0].contains(#"{"op":"deleteData","class":"Person","property":"nick"}"#))
        let (_, covered, none) = try make(allowDataLoss: true)
        #expect(none.isEmpty)
        #expect(covered.operations.contains(.deleteData(className: "Person", property: "nick")))
    }

    @Test func jsonRoundTripIsExact() throws {
        let (_, plan, _) = try make(allowDataLoss: true)
        let text = plan.jsonString()
        let read = try MigrationPlan(jsonBytes: Array(text.utf8))
        #expect(read == plan)
        #expect(read.jsonString() == text)
        #expect(read.checksum == plan.checksum)
        #expect(plan.checksum.hasPrefix("sha256:"))
        #expect(text.contains(#""op": "renameProperty""#))
        #expect(text.contains(#""message": "Property 'Person.nick' has been removed.""#))
    }

    @Test func fillValuesAreTypedByTheirProperty() throws {
        let old = try schema(
            1, #"{"name": "E", "properties": {"when": "date?", "id": "objectId?", "n": "decimal128?"}}"#)
        let new = try schema(2, #"{"name": "E", "properties": {"when": "date", "id": "objectId", "n": "decimal128"}}"#)
        let fills = try ["E.when=2024-01-02T03:04:05Z", "E.id=5f1b2c3d4e5f60718293a4b5", "E.n=1.50"].map(
            FillArgument.init(parsing:))
        let (plan, _) = try MigrationPlan.make(from: old, to: new, fills: fills)
        let text = plan.jsonString()
        #expect(text.contains(#""value": "2024-01-02T03:04:05Z""#))
        #expect(text.contains(#""value": "5f1b2c3d4e5f60718293a4b5""#))
        #expect(try MigrationPlan(jsonBytes: Array(text.utf8)) == plan)
        expectPorterError(.usage) { _ = try FillArgument(parsing: "E.when=soon").value(in: new) }
    }

    private func planError(_ mutate: (inout JSONValue) -> Void) throws -> PorterError? {
        let (_, plan, _) = try make(allowDataLoss: true)
        var json = plan.jsonValue
        mutate(&json)
        return expectPorterError(.invalidInput) {
            _ = try MigrationPlan(jsonBytes: Array(json.serialized(pretty: false).utf8)).step(from: try schema(1, v1))
        }
    }

    private func setOperation(_ json: inout JSONValue, _ index: Int, _ op: JSONValue) {
        guard case .object(var members) = json, let i = members.firstIndex(where: { $0.key == "operations" }),
            case .array(var ops) = members[i].value
        else { return }
        if index < ops.count { ops[index] = op } else { ops.append(op) }
        members[i].value = .array(ops)
        json = .object(members)
    }

    @Test func shapeErrorsNameTheOperation() throws {
        let unknown = try planError { setOperation(&$0, 1, .object(["op": .string("renameProp")])) }
        #expect(unknown?.location == "operations[1].op")
        #expect(unknown?.message.hasPrefix("unknown op \"renameProp\"") == true)
        let badKey = try planError {
            setOperation(
                &$0, 0,
                .object([
                    "op": .string("renameProperty"), "class": .string("Person"), "from": .string("name"),
                    "too": .string("x"),
                ]))
        }
        #expect(badKey?.location == "operations[0] (renameProperty)")
        #expect(badKey?.message.hasPrefix("unknown key \"too\"") == true)
        let badRule = try planError {
            setOperation(
                &$0, 3,
                .object([
                    "op": .string("convert"), "class": .string("Person"), "property": .string("age"),
                    "to": .string("string"), "rule": .string("magic"),
                ]))
        }
        #expect(badRule?.location == "operations[3] (convert).rule")
        let badFill = try planError {
            setOperation(
                &$0, 2,
                .object([
                    "op": .string("fill"), "class": .string("Person"), "property": .string("city"), "value": .number(3),
                ]))
        }
        #expect(badFill?.location == "operations[2] (fill).value")
    }

    @Test func semanticErrorsNameTheOperation() throws {
        let wrongConvert = try planError {
            setOperation(
                &$0, 3,
                .object([
                    "op": .string("convert"), "class": .string("Person"), "property": .string("city"),
                    "to": .string("string"),
                ]))
        }
        #expect(wrongConvert?.location == "operations[3] (convert)")
        #expect(wrongConvert?.message == "the schemas do not change the type of 'Person.city'")
        let badRename = try planError {
            setOperation(
                &$0, 0,
                .object([
                    "op": .string("renameProperty"), "class": .string("Person"), "from": .string("nope"),
                    "to": .string("fullName"),
                ]))
        }
        #expect(badRename?.location == "operations[0] (renameProperty)")
        #expect(badRename?.message == "Cannot rename property 'Person.nope' because it does not exist.")
        let extra = try planError {
            setOperation(
                &$0, 99, .object(["op": .string("addIndex"), "class": .string("Person"), "property": .string("age")]))
        }
        #expect(extra?.message == "addIndex 'Person.age' is not a change between the schemas (was the plan edited?)")
        let missing = try planError { json in
            guard case .object(var members) = json, let i = members.firstIndex(where: { $0.key == "operations" }),
                case .array(var ops) = members[i].value
            else { return }
            ops.removeAll { $0["op"] == .string("addProperty") }
            members[i].value = .array(ops)
            json = .object(members)
        }
        #expect(missing?.details == ["Property 'Person.email' has been added."])
    }

    @Test func checksumGuardsTheSourceSchema() throws {
        let (_, plan, _) = try make()
        var other = try schema(1, v1)
        other.upsert(ObjectSchema(name: "Extra", properties: [Property(name: "v", type: .int)]))
        let error = expectPorterError(.migrationFailed) { _ = try plan.step(from: other) }
        #expect(error?.message.hasPrefix("the plan was made for another schema") == true)
    }

    @Test func stepsResolveCoverage() throws {
        let (old, plan, _) = try make()
        let step = try plan.step(from: old)
        #expect(step.conversions["Person.age"]?.rule == .exact)
        #expect(step.fills["Person.city"] == .string("Unknown"))
        #expect(step.uncoveredDestructiveChanges.map(\.message) == ["Property 'Person.nick' has been removed."])
        let (_, covered, _) = try make(allowDataLoss: true)
        #expect(try covered.step(from: old).uncoveredDestructiveChanges.isEmpty)
        let implicit = try MigrationStep.implicit(from: old, to: try schema(2, v2))
        #expect(implicit.conversions["Person.age"] != nil)
        #expect(Set(implicit.uncoveredDestructiveChanges.map(\.code)) == ["remove-property"])
    }

    @Test func readsPlansWithRealErrors() throws {
        expectPorterError(.invalidInput) { _ = try MigrationPlan(jsonBytes: Array("{".utf8)) }
        let notPlan = expectPorterError(.invalidInput) {
            _ = try MigrationPlan(jsonBytes: Array(#"{"format": "x"}"#.utf8))
        }
        #expect(notPlan?.location == "format")
        let dir = try TemporaryFolder()
        let missing = expectPorterError(.io) { _ = try MigrationPlan(contentsOfFile: dir.path("none.json")) }
        #expect(missing?.location == dir.path("none.json"))
    }

    @Test func sha256KnownVectors() throws {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(String(repeating: "a", count: 1000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
