import Foundation
import Testing
@testable import PorterMigration
import PorterDiff
import PorterModel
import PorterTestSupport

/// Every conversion on a real file: values are converted in place and kept; values that do not
/// fit fail the migration naming the objects, and nothing changes.
@Suite struct ConversionRuntimeTests {
    /// A one-class file whose property `v` has type `from` and holds `values` (one object each).
    private func convert(
        _ from: String, _ values: [Value], to: String, fills: [String] = [], plan rule: ConversionRule? = nil
    ) throws -> (TemporaryFolder, String, Result<[Value], PorterError>) {
        let dir = try TemporaryFolder()
        let old = try schema(1, #"{"name": "C", "properties": {"n": "int", "v": "\#(from)"}}"#)
        let path = try makeDatabase(dir.path("db.porter"), old) { db in
            for (i, value) in values.enumerated() { try db.create("C", ["n": .int(Int64(i)), "v": value]) }
        }
        let new = try schema(2, #"{"name": "C", "properties": {"n": "int", "v": "\#(to)"}}"#)
        var plans: [MigrationPlan] = []
        if let rule {
            var plan = try MigrationPlan.make(from: old, to: new).plan
            plan.operations = plan.operations.map { op in
                if case .convert(var c) = op { c.rule = rule; return .convert(c) }
                return op
            }
            plans = [plan]
        }
        do {
            try migrate(
                path, to: new, plans: plans,
                options: MigrationOptions(fills: try fills.map(FillArgument.init(parsing:))))
            return (dir, path, .success(try column(path, "C", "v")))
        } catch let error as PorterError {
            #expect(try reopen(path).schema == old)
            return (dir, path, .failure(error))
        }
    }

    private func converted(
        _ from: String, _ values: [Value], to: String, fills: [String] = [], rule: ConversionRule? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Value]? {
        let (_, _, result) = try convert(from, values, to: to, fills: fills, plan: rule)
        switch result {
        case .success(let values): return values
        case .failure(let error):
            Issue.record("migration failed: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func failure(_ from: String, _ values: [Value], to: String, fills: [String] = []) throws -> PorterError? {
        let (_, _, result) = try convert(from, values, to: to, fills: fills)
        if case .failure(let error) = result { return error }
        Issue.record("expected the migration to fail")
        return nil
    }

    @Test func intAndString() throws {
        #expect(try converted("int", [.int(1), .int(-20)], to: "string") == [.string("1"), .string("-20")])
        #expect(try converted("string", [.string("7"), .string("-3")], to: "int") == [.int(7), .int(-3)])
        let error = try failure("string", [.string("7"), .string("seven"), .string("x")], to: "int")
        #expect(
            error?.headline.hasSuffix(
                ":C.v: cannot convert 2 values from string to int (exact): _key 2: 'seven'; _key 3: 'x'") == true)
        #expect(error?.details == ["_key 2: 'seven' is not an integer", "_key 3: 'x' is not an integer"])
    }

    @Test func failuresNameObjectsByPrimaryKeyAndValue() throws {
        let dir = try TemporaryFolder()
        let old = try schema(
            1, #"{"name": "Dog", "primaryKey": "_id", "properties": {"_id": "int", "weight": "double"}}"#)
        let path = try makeDatabase(dir.path("db.porter"), old) { db in
            for (id, weight) in [(1, 3.0), (4242, 2.5), (77, 0.1), (9, 1.25), (10, 7.75)] {
                try db.create("Dog", ["_id": .int(Int64(id)), "weight": .double(weight)])
            }
        }
        let before = try fileBytes(path)
        let new = try schema(2, #"{"name": "Dog", "primaryKey": "_id", "properties": {"_id": "int", "weight": "int"}}"#)
        let plan = try MigrationPlan.make(from: old, to: new).plan
        let error = expectPorterError { try migrate(path, to: new, plans: [plan]) }
        // The first three objects in key order, their values, and the count of all of them.
        #expect(
            error?.headline.hasSuffix(
                "Dog.weight: cannot convert 4 values from double to int (exact): _id 4242: 2.5; _id 77: 0.1; _id 9: 1.25; …"
            ) == true, "\(String(describing: error?.headline))")
        #expect(try fileBytes(path) == before)
    }

    @Test func numbers() throws {
        #expect(try converted("int", [.int(3)], to: "double") == [.double(3)])
        #expect(try converted("double", [.double(4), .double(-0.0)], to: "int") == [.int(4), .int(0)])
        let error = try failure("double", [.double(1), .double(2.5)], to: "int")
        #expect(error?.details == ["_key 2: 2.5 is not an integral value"])
        #expect(try converted("double", [.double(2.5)], to: "int", rule: .truncate) == [.int(2)])
        #expect(try converted("float", [.float(1.5)], to: "double") == [.double(1.5)])
        #expect(try converted("double", [.double(0.1)], to: "float") == [.float(0.1)])
        #expect(try converted("int", [.int(12)], to: "decimal128") == [.decimal128(Decimal128(12))])
        #expect(
            try converted("string", [.string("1.25")], to: "decimal128") == [
                .decimal128(try Decimal128(string: "1.25"))
            ])
        #expect(
            try converted("decimal128", [.decimal128(try Decimal128(string: "1.25"))], to: "string") == [
                .string("1.25")
            ])
    }

    @Test func datesIdsAndUUIDs() throws {
        let t = try Timestamp(iso8601: "2024-05-06T07:08:09.123456Z")
        #expect(try converted("string", [.string("2024-05-06T07:08:09.123456Z")], to: "date") == [.date(t)])
        #expect(try converted("date", [.date(t)], to: "string") == [.string("2024-05-06T07:08:09.123456Z")])
        let oid = try ObjectId(string: "5f1b2c3d4e5f60718293a4b5")
        #expect(try converted("string", [.string(oid.stringValue)], to: "objectId") == [.objectId(oid)])
        #expect(try converted("objectId", [.objectId(oid)], to: "string") == [.string(oid.stringValue)])
        let u = UUID()
        #expect(try converted("string", [.string(u.uuidString)], to: "uuid") == [.uuid(u)])
        #expect(try converted("uuid", [.uuid(u)], to: "string") == [.string(u.uuidString.lowercased())])
        #expect(
            try failure("string", [.string("not a date")], to: "date")?.details == [
                "_key 1: 'not a date' is not an ISO 8601 date"
            ])
    }

    @Test func valueToCollections() throws {
        #expect(try converted("int?", [.int(1), .null], to: "int[]") == [.list([.int(1)]), .list([])])
        #expect(try converted("string", [.string("a")], to: "string<>") == [.set([.string("a")])])
        #expect(try converted("int", [.int(5)], to: "string[]") == [.list([.string("5")])])
        #expect(
            try converted("int[]", [.list([.int(1), .int(2)])], to: "string[]") == [
                .list([.string("1"), .string("2")])
            ])
        #expect(try converted("string{}", [.map(["a": .string("1")])], to: "int{}") == [.map(["a": .int(1)])])
        let duplicate = try failure("string<>", [.set([.string("1"), .string("01")])], to: "int<>")
        #expect(
            duplicate?.message == "cannot convert 1 set from string<> to int<>: two elements become equal in _key 1")
    }

    @Test func nullsNeedAFillWhenTheTargetIsRequired() throws {
        let error = try failure("int?", [.int(1), .null, .null], to: "string")
        #expect(error?.message == "cannot convert 2 values from int? to string (exact): _key 2: null; _key 3: null")
        #expect(error?.details.first == "_key 2: null but 'C.v' is required (add a fill value)")
        #expect(
            try converted("int?", [.int(1), .null], to: "string", fills: ["C.v=none"]) == [
                .string("1"), .string("none"),
            ])
        #expect(try converted("int?", [.int(1), .null], to: "string?") == [.string("1"), .null])
    }

    @Test func linkBecomesAListOfLinks() throws {
        let dir = try TemporaryFolder()
        let t = #"{"name": "T", "properties": {"v": "int"}}"#
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, t, #"{"name": "C", "properties": {"link": "T?"}}"#)
        ) { db in
            let target = try db.create("T", ["v": .int(1)])
            try db.create("C", ["link": .link(ObjectLink("T", target))])
            try db.create("C", [:])
        }
        try migrate(path, to: try schema(2, t, #"{"name": "C", "properties": {"link": "T[]"}}"#))
        #expect(try column(path, "C", "link") == [.list([.link(ObjectLink("T", ObjectKey(1)))]), .list([])])
    }

    @Test func conversionsReportProgressAndCounts() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, #"{"name": "C", "properties": {"v": "int"}}"#))
        { db in
            for i in 0..<5_000 { try db.createInBulk("C", ["v": .int(Int64(i))]) }
        }
        let progress = Box<[Int]>([])
        let report = try migrate(
            path, to: try schema(2, #"{"name": "C", "properties": {"v": "string"}}"#),
            options: MigrationOptions(progress: { p in if p.phase.hasPrefix("convert") { progress.value.append(p.done) }
            }))
        #expect(report.steps.first?.conversions["C.v (int -> string)"] == 5_000)
        #expect(progress.value.last == 5_000)
        #expect(try column(path, "C", "v").last == .string("4999"))
    }
}
