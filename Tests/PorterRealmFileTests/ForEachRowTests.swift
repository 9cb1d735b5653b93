import Foundation
import Testing
import PorterTestSupport
import PorterModel
@testable import PorterRealmFile

/// `forEachRow`, which hands out runs of objects to the typed API, against reading each object on
/// its own (`values(in:key:properties:)`): every table of Porter's own Realm fixtures (one with
/// many clusters), whole key ranges, ranges starting and ending between keys, and bad arguments.
@Suite("RealmFile.forEachRow")
struct ForEachRowTests {
    /// The keys and values `forEachRow` hands out for `low...high`.
    static func rows(
        _ file: RealmFile, _ table: RealmTable, _ low: Int64, _ high: Int64, _ properties: [Int]
    ) throws -> [(Int64, [RealmValue])] {
        var out: [(Int64, [RealmValue])] = []
        try file.forEachRow(
            in: table, from: low, through: high, properties: properties,
            row: { out.append(($0, [])) }, value: { out[out.count - 1].1.append($0) })
        return out
    }

    /// The same read one object at a time.
    static func expected(
        _ file: RealmFile, _ table: RealmTable, _ low: Int64, _ high: Int64, _ properties: [Int]
    ) throws -> [(Int64, [RealmValue])] {
        try file.objectKeys(in: table).sorted().filter { $0 >= low && $0 <= high }.map {
            ($0, try #require(try file.values(in: table, key: $0, properties: properties)))
        }
    }

    /// Equal values, NaNs equal to themselves (bit for bit), collections element by element.
    static func same(_ a: RealmValue, _ b: RealmValue) -> Bool {
        func all(_ x: [RealmValue], _ y: [RealmValue]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        }
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
        case (.list(let x), .list(let y)), (.set(let x), .set(let y)): return all(x, y)
        case (.dictionary(let x), .dictionary(let y)):
            return x.map(\.key) == y.map(\.key) && all(x.map(\.value), y.map(\.value))
        case (.embedded(let n, let k, let x), .embedded(let m, let l, let y)): return n == m && k == l && all(x, y)
        default: return a == b
        }
    }

    /// ``same(_:_:)`` for the typed API's values.
    static func sameValue(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
        case (.list(let x), .list(let y)), (.set(let x), .set(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.map(let x), .map(let y)):
            return x.keys.sorted() == y.keys.sorted() && x.allSatisfy { key, value in sameValue(value, y[key]!) }
        default: return a == b
        }
    }

    static func check(_ path: String, key: [UInt8]? = nil) throws -> Int {
        let file = try RealmFile(path: path, encryptionKey: key)
        var compared = 0
        for table in file.tables {
            let keys = try file.objectKeys(in: table).sorted()
            guard let first = keys.first, let last = keys.last else { continue }
            let all = Array(table.properties.indices)
            let middle = keys[keys.count / 2]
            let ranges: [(Int64, Int64, [Int])] = [
                (first, last, all), (Int64.min, Int64.max, all), (first &+ 1, middle, all),
                (middle, last &- 1, all.reversed()), (middle, middle, all), (last &+ 1, Int64.max, all),
                (first, last, all.isEmpty ? [] : [all[all.count - 1], all[0]]),
            ]
            for (low, high, properties) in ranges where low <= high {
                let mine = try rows(file, table, low, high, properties)
                let theirs = try expected(file, table, low, high, properties)
                #expect(mine.map(\.0) == theirs.map(\.0), "\(path) \(table.name) \(low)...\(high)")
                for (a, b) in zip(mine, theirs) {
                    #expect(
                        a.1.count == b.1.count && zip(a.1, b.1).allSatisfy { same($0, $1) },
                        "\(path) \(table.name) object \(a.0) in \(low)...\(high)")
                }
                // `appendRows`, the typed API's form of the same run: the same keys, and each value
                // as `RealmValues.rowValue` converts the one `forEachRow` hands out.
                var keys: [ObjectKey] = [ObjectKey(-7)]
                var values: [Value] = [.string("kept")]
                try file.appendRows(
                    in: table, from: low, through: high, properties: properties, keys: &keys, values: &values)
                #expect(keys.dropFirst().map(\.rawValue) == mine.map(\.0), "\(path) \(table.name) \(low)...\(high)")
                let converted = mine.flatMap { $0.1.map(RealmValues.rowValue) }
                #expect(
                    values.count == converted.count + 1 && values.first == .string("kept")
                        && zip(values.dropFirst(), converted).allSatisfy { sameValue($0, $1) },
                    "\(path) \(table.name) \(low)...\(high): appendRows")
                compared += mine.count
            }
        }
        return compared
    }

    @Test("Every table of Porter's Realm fixtures, whole and partial key ranges, as objects read one by one")
    func sameAsOneByOne() throws {
        #expect(try Self.check(Fixture.own("every-type.realm")) > 0)
        // Thousands of objects in many clusters: runs cross cluster boundaries.
        #expect(try Self.check(Fixture.own("inner-nodes.realm")) > 1000)
        #expect(try Self.check(Fixture.own("every-type-encrypted.realm"), key: OracleFixtureTests.everyTypeKey) > 0)
    }

    @Test("A property number the class does not have is reported, with the file")
    func unknownProperty() throws {
        let path = Fixture.own("every-type.realm")
        let file = try RealmFile(path: path)
        let table = try #require(file.tables.first { !(try file.objectKeys(in: $0)).isEmpty })
        let error = #expect(throws: PorterError.self) {
            _ = try Self.rows(file, table, .min, .max, [table.properties.count + 3])
        }
        #expect(error?.description.contains("has no property number \(table.properties.count + 3)") == true)
        #expect(error?.description.contains(path) == true)
        var keys: [ObjectKey] = []
        var values: [Value] = []
        let appendError = #expect(throws: PorterError.self) {
            try file.appendRows(
                in: table, from: .min, through: .max, properties: [table.properties.count + 3], keys: &keys,
                values: &values)
        }
        #expect(appendError?.description.contains("has no property number \(table.properties.count + 3)") == true)
        #expect(appendError?.description.contains(path) == true)
    }
}
