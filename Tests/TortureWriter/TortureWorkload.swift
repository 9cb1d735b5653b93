import Foundation
import Porter

/// Deterministic write transactions over a schema with every relationship kind: the same seed
/// and database state always give the same changes, so a test can compute every state a killed
/// writer may legitimately leave behind.
struct TortureWorkload {
    /// Items (primary key `id`) with scalars of every type, a mixed, a to-one link, a list of
    /// links, a set, a map, embedded objects (to-one, list, map; nested), and a class without a
    /// primary key (Note) that links back.
    static let schemaJSON = #"""
        {"schemaVersion": 1, "classes": [
          {"name": "Item", "primaryKey": "id", "properties": {
            "id": "int", "label": {"type": "string", "indexed": true}, "flag": "bool", "ratio": "float",
            "score": "double", "blob": "data", "when": "date?", "oid": "objectId", "dec": "decimal128",
            "uid": "uuid?", "extra": "mixed", "parent": "Item?", "children": "Item[]", "tags": "string<>",
            "counts": "int{}", "part": "Part?", "parts": "Part[]", "byName": "Part?{}",
            "followers": {"type": "linkingObjects", "objectType": "Item", "property": "parent"}}},
          {"name": "Part", "embedded": true, "properties": {"name": "string", "weight": "int", "sub": "Sub?"}},
          {"name": "Sub", "embedded": true, "properties": {"code": "string"}},
          {"name": "Note", "properties": {"text": "string", "item": "Item?"}}
        ]}
        """#

    private var state: UInt64

    /// A workload whose choices all follow from `seed`.
    init(seed: UInt64) { state = seed }

    /// SplitMix64: small, fast, and identical on every platform.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    /// One transaction: new items and notes, updates of the previous batch, deletions (which
    /// cascade to embedded objects and unlink lists, maps and mixed values).
    mutating func transaction(_ db: Database, number t: Int) throws {
        try createItems(db, count: 300, batch: t)
        let previous = (try db.allKeys("Item")).filter { $0.rawValue % 3 == Int64(t % 3) }
        for key in previous.prefix(120) {
            try db.update(
                "Item", key,
                ["label": .string("updated in \(t) #\(below(1000))"), "score": .double(Double(below(1 << 20)) / 7)],
                policy: .modified)
            _ = try db.listAppend("Item", key, "parts", .object(part(t)))
            _ = try db.mapSet("Item", key, "counts", forKey: "t\(t)", .int(Int64(below(100))))
        }
        for key in previous.suffix(40) { try db.delete("Item", key) }
        let items = try db.allKeys("Item")
        for i in 0..<60 {
            let target: Value = items.isEmpty ? .null : .link(ObjectLink("Item", items[below(items.count)]))
            try db.create("Note", ["text": .string("note \(t).\(i)"), "item": target])
        }
    }

    /// Creates `count` items of batch `batch` (ids `batch * 1_000_000 + i`), each linked to an
    /// earlier one of the same batch.
    mutating func createItems(_ db: Database, count: Int, batch: Int) throws {
        var created: [ObjectKey] = []
        for i in 0..<count {
            let id = Int64(batch) * 1_000_000 + Int64(i)
            var values: [String: Value] = [
                "id": .int(id), "label": .string("item \(id) " + String(repeating: "x", count: below(200))),
                "flag": .bool(below(2) == 0), "ratio": .float(Float(below(1000)) / 8),
                "score": .double(Double(next() % 1_000_000) / 3),
                "blob": .data(Data((0..<below(64)).map { _ in UInt8(truncatingIfNeeded: next()) })),
                "when": below(4) == 0 ? .null : .date(Timestamp(microseconds: Int64(next() % 4_000_000_000_000_000))),
                "oid": .objectId(ObjectId(bytes: (0..<12).map { _ in UInt8(truncatingIfNeeded: next()) })!),
                "dec": .decimal128(Decimal128(Int64(below(1_000_000)) - 500_000)),
                "uid": .uuid(UUID(uuid: uuidBytes())),
                "extra": mixed(created),
                "tags": .set((0..<below(4)).map { .string("tag\($0 * 7 + below(5))") }),
                "counts": .map(["a": .int(Int64(below(10))), "b": .int(id)]),
                "part": below(3) == 0 ? .null : .object(part(batch)),
                "parts": .list((0..<below(3)).map { _ in .object(part(batch)) }),
                "byName": .map(["first": .object(part(batch)), "none": .null]),
            ]
            if let parent = created.last, below(2) == 0 { values["parent"] = .link(ObjectLink("Item", parent)) }
            if !created.isEmpty {
                values["children"] = .list(
                    (0..<below(4)).map { _ in .link(ObjectLink("Item", created[below(created.count)])) })
            }
            created.append(try db.create("Item", values))
        }
    }

    /// An embedded Part, sometimes with a nested Sub.
    private mutating func part(_ batch: Int) -> [String: Value] {
        var fields: [String: Value] = [
            "name": .string("part \(batch).\(below(100))"), "weight": .int(Int64(below(500))),
        ]
        if below(2) == 0 { fields["sub"] = .object(["code": .string("s\(below(99))")]) }
        return fields
    }

    /// A mixed value: a scalar of some type, or a link to an item of this batch.
    private mutating func mixed(_ created: [ObjectKey]) -> Value {
        switch below(5) {
        case 0: return .int(Int64(below(1000)))
        case 1: return .string("m\(below(1000))")
        case 2: return .double(Double(below(1000)) + 0.5)
        case 3: return created.isEmpty ? .null : .link(ObjectLink("Item", created[below(created.count)]))
        default: return .null
        }
    }

    private mutating func uuidBytes() -> uuid_t {
        let a = next(), b = next()
        func byte(_ v: UInt64, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
        return (
            byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), byte(a, 6), byte(a, 7),
            byte(b, 0), byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)
        )
    }
}
