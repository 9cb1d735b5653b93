import Foundation
import Porter

/// The dataset shapes `make bench` measures: flat (8 scalars), onelink (plus one to-one link: the
/// shape the interchange targets name), linked (plus a to-one link and a list of links), nested
/// (embedded objects two levels deep, a map and a set).
enum Shape: String, CaseIterable {
    case flat, onelink, linked, nested

    /// The schema file text of the shape.
    var schemaJSON: String {
        let scalars = """
            "_id": "objectId", "name": "string", "count": "int", "price": "double",
            "ratio": "float", "active": "bool", "created": "date", "note": "string?"
            """
        switch self {
        case .flat:
            return
                #"{"schemaVersion": 1, "classes": [{"name": "Item", "primaryKey": "_id", "properties": {\#(scalars)}}]}"#
        case .onelink:
            return #"""
                {"schemaVersion": 1, "classes": [
                  {"name": "Owner", "primaryKey": "_id", "properties": {"_id": "int", "name": "string"}},
                  {"name": "Item", "primaryKey": "_id", "properties": {\#(scalars), "owner": "Owner?"}}]}
                """#
        case .linked:
            return #"""
                {"schemaVersion": 1, "classes": [
                  {"name": "Owner", "primaryKey": "_id", "properties": {"_id": "int", "name": "string"}},
                  {"name": "Item", "primaryKey": "_id", "properties": {\#(scalars), "owner": "Owner?", "friends": "Owner[]"}}]}
                """#
        case .nested:
            return #"""
                {"schemaVersion": 1, "classes": [
                  {"name": "Geo", "embedded": true, "properties": {"lat": "double", "lon": "double"}},
                  {"name": "Address", "embedded": true, "properties": {"street": "string", "city": "string", "geo": "Geo?"}},
                  {"name": "Item", "primaryKey": "_id", "properties": {\#(scalars), "address": "Address?", "scores": "int{}", "labels": "string<>"}}]}
                """#
        }
    }

    /// Whether the interchange issue's speed targets apply: 8 scalars and a to-one link (onelink is
    /// exactly that shape; linked adds a list of links).
    var hasInterchangeTargets: Bool { self == .onelink || self == .linked }

    /// Owners in the onelink and linked shapes: one per 10 items.
    static func ownerCount(_ items: Int) -> Int { max(1, items / 10) }
}

/// SplitMix64: small, fast and deterministic, so every run measures the same data.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds the benchmark databases through Porter's own engine.
enum DatasetBuilder {
    static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]

    /// The scalar values of item `i`.
    static func scalars(_ i: Int, _ rng: inout SeededGenerator) -> [String: Value] {
        var oid = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: UInt64(i).bigEndian) { oid.replaceSubrange(4..<12, with: $0) }
        return [
            "_id": .objectId(ObjectId(bytes: oid)!),
            "name": .string("\(words[i % words.count]) item \(i)"),
            "count": .int(Int64(rng.next() % 1_000_000)),
            "price": .double(Double(rng.next() % 100_000) / 100),
            "ratio": .float(Float(rng.next() % 1000) / 8),
            "active": .bool(rng.next() % 2 == 0),
            "created": .date(Timestamp(microseconds: 1_600_000_000_000_000 + Int64(i) * 1000)),
            "note": i % 3 == 0 ? .null : .string("note \(rng.next() % 1000)"),
        ]
    }

    /// Creates `path` with `count` items of `shape`, in one write transaction.
    static func build(_ shape: Shape, count: Int, at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let schema = try Schema(jsonString: shape.schemaJSON)
        let db = try Database.create(at: path, schema: schema)
        var rng = SeededGenerator(seed: 42)
        try db.write {
            var ownerKeys: [ObjectKey] = []
            if shape == .linked || shape == .onelink {
                for o in 0..<Shape.ownerCount(count) {
                    ownerKeys.append(
                        try db.createInBulk("Owner", ["_id": .int(Int64(o)), "name": .string("owner \(o)")]))
                }
            }
            for i in 0..<count {
                var values = scalars(i, &rng)
                switch shape {
                case .flat: break
                case .onelink:
                    values["owner"] = .link(ObjectLink("Owner", ownerKeys[Int(rng.next() % UInt64(ownerKeys.count))]))
                case .linked:
                    values["owner"] = .link(ObjectLink("Owner", ownerKeys[Int(rng.next() % UInt64(ownerKeys.count))]))
                    values["friends"] = .list(
                        (0..<Int(rng.next() % 4)).map { _ in
                            .link(ObjectLink("Owner", ownerKeys[Int(rng.next() % UInt64(ownerKeys.count))]))
                        })
                case .nested:
                    values["address"] = .object([
                        "street": .string("\(i) Main Street"), "city": .string(words[i % 7]),
                        "geo": .object(["lat": .double(Double(i % 90)), "lon": .double(Double(i % 180))]),
                    ])
                    values["scores"] = .map(["a": .int(Int64(i % 10)), "b": .int(Int64(i % 7))])
                    values["labels"] = .set([.string(words[i % 10]), .string(words[(i + 3) % 10])])
                }
                try db.createInBulk("Item", values)
            }
        }
    }
}
