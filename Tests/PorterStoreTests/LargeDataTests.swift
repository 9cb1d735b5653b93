import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// Tests that use a lot of memory. Serialized, so the streaming test's resident-memory
/// measurement never overlaps the 16 MB values of the size-limit tests.
@Suite("Large values and streaming", .serialized)
struct LargeDataTests {
    static let limit = Database.maxBinarySize

    static let schema = Schema(classes: [
        ObjectSchema(
            name: "Blob",
            properties: [
                prop("text", "string?"), prop("bytes", "data?"), prop("any", "mixed"),
                prop("texts", "string[]"), prop("byteMap", "data{}"),
            ])
    ])

    @Test("Strings and data over 16 MB are rejected; exactly 16 MB is accepted")
    func sizeLimits() throws {
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: Self.schema)
        let tooLongText = String(repeating: "a", count: Self.limit + 1)
        let tooLongData = Data(count: Self.limit + 1)
        let cases: [(String, Value, String)] = [
            ("text", .string(tooLongText), "string of 16777217 bytes exceeds the 16 MB limit"),
            ("bytes", .data(tooLongData), "data of 16777217 bytes exceeds the 16 MB limit"),
            ("any", .string(tooLongText), "string of 16777217 bytes exceeds the 16 MB limit"),
            ("any", .data(tooLongData), "data of 16777217 bytes exceeds the 16 MB limit"),
            (
                "texts", .list([.string("ok"), .string(tooLongText)]),
                "string of 16777217 bytes exceeds the 16 MB limit"
            ),
            ("byteMap", .map(["k": .data(tooLongData)]), "data of 16777217 bytes exceeds the 16 MB limit"),
            // The limit counts UTF-8 bytes, not characters: 8 Mi two-byte characters plus one byte.
            (
                "text", .string(String(repeating: "é", count: Self.limit / 2) + "x"),
                "string of 16777217 bytes exceeds the 16 MB limit"
            ),
        ]
        for (property, value, message) in cases {
            let error = try expectRejected(db, .constraintViolation) { try db.create("Blob", [property: value]) }
            #expect(error?.headline == "Blob.\(property): \(message)")
        }
        #expect(try db.count("Blob") == 0)

        let exactText = String(repeating: "é", count: Self.limit / 2)
        let exactData = Data(repeating: 0x5A, count: Self.limit)
        let key = try db.write {
            try db.create(
                "Blob", ["text": .string(exactText), "bytes": .data(exactData), "texts": .list([.string(exactText)])])
        }
        #expect(try db.value("Blob", key, "text") == .string(exactText))
        #expect(try db.value("Blob", key, "bytes") == .data(exactData))
        try db.write { try db.set("Blob", key, "any", .data(exactData)) }
        #expect(try db.value("Blob", key, "any") == .data(exactData))
        try expectRejected(db, .constraintViolation) { try db.set("Blob", key, "text", .string(exactText + "x")) }
        #expect(try db.value("Blob", key, "text") == .string(exactText))
    }

    @Test("Enumerating 1,000,000 objects keeps resident memory flat (< 100 MB growth)")
    func streamingMemory() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("million.porter")
        let total = 1_000_000
        let schema = Schema(classes: [
            ObjectSchema(
                name: "Row", properties: [prop("n", "int"), prop("label", "string"), prop("score", "double?")])
        ])
        do {
            let db = try Database.create(at: path, schema: schema)
            try db.write {
                for i in 0..<total {
                    try db.createInBulk(
                        "Row",
                        [
                            "n": .int(Int64(i)), "label": .string("row number \(i)"),
                            "score": i % 2 == 0 ? .double(Double(i)) : .null,
                        ])
                }
            }
        }
        let db = try Database.open(at: path, schema: schema)
        #expect(try db.count("Row") == total)

        trimHeap()
        let baseline = residentBytes()
        #expect(baseline > 0, "cannot read /proc/self/statm")
        var peak = baseline
        var seen = 0
        var sum: Int64 = 0
        var inOrder = true
        var previous = ObjectKey(0)
        try db.enumerate("Row") { object in
            if case .int(let n)? = object["n"] { sum += n }
            if object.key <= previous { inOrder = false }
            previous = object.key
            seen += 1
            if seen % 10_000 == 0 { peak = max(peak, residentBytes()) }
        }
        peak = max(peak, residentBytes())
        #expect(seen == total)
        #expect(sum == Int64(total) * Int64(total - 1) / 2)
        #expect(inOrder)
        let growth = peak - baseline
        // `make sanitize` widens the bound (PORTER_RSS_LIMIT_SCALE): ASan's quarantine holds
        // freed memory back, so resident memory grows with what was freed, not what is live.
        let scale = ProcessInfo.processInfo.environment["PORTER_RSS_LIMIT_SCALE"].flatMap { Int($0) } ?? 1
        #expect(
            growth < scale * 100 * 1024 * 1024, "resident memory grew by \(growth / 1024 / 1024) MB while enumerating")
    }
}

/// Hands memory that earlier work freed back to the system (glibc's `malloc_trim`), so freed but
/// still resident heap pages cannot absorb and hide growth measured afterwards.
private func trimHeap() {
    typealias MallocTrim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}
