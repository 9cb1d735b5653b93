import Foundation
import PorterModel
import PorterQuery
import PorterTestSupport
import Testing

@testable import PorterStudio

/// The studio's typed sorts give exactly the order of ``ValueOrder/sortCompare(_:_:)`` with
/// equal values in key order (as `porter export --sort` orders), nulls included, both directions.
@Suite struct StudioSortTests {
    /// The order by `ValueOrder` alone, the reference.
    static func reference(_ keys: [ObjectKey], _ values: [Value], descending: Bool) -> [ObjectKey] {
        zip(keys, values).sorted { a, b in
            let order = ValueOrder.sortCompare(a.1, b.1)
            if order != 0 { return descending ? order > 0 : order < 0 }
            return a.0 < b.0
        }.map(\.0)
    }

    /// Columns of each kind the sort specializes, and mixtures it does not.
    static func columns() -> [(String, StudioSort.Kind, [Value])] {
        var rng = SeededGenerator(seed: 23)
        func some(_ make: (inout SeededGenerator) -> Value) -> [Value] {
            (0..<2000).map { _ in rng.next() % 7 == 0 ? .null : make(&rng) }
        }
        // "a\u{301}" and "\u{E1}" are equal as Swift Strings but not as Realm orders them (UTF-8 bytes).
        let words = ["b", "a", "ä", "Z", "z", "", "ab", "a\u{301}", "\u{E1}", "🙂", "é", "\u{FFFD}"]
        return [
            ("int", .int, some { .int(Int64($0.next() % 50) - 25) }),
            ("big int", .int, some { .int(Int64(bitPattern: $0.next())) }),
            ("double", .number, some { .double(Double($0.next() % 1000) / 7 - 50) }),
            ("int and float", .number, some { $0.next() % 2 == 0 ? .int(Int64($0.next() % 9)) : .float(1.5) }),
            ("double with NaN", .other, some { $0.next() % 9 == 0 ? .double(.nan) : .double(Double($0.next() % 9)) }),
            ("string", .string, some { .string(words[Int($0.next() % UInt64(words.count))]) }),
            (
                "date", .date,
                some { .date(Timestamp(seconds: Int64($0.next() % 40), nanoseconds: Int32($0.next() % 3))) }
            ),
            ("bool", .other, some { .bool($0.next() % 2 == 0) }),
            ("mixed", .other, some { $0.next() % 2 == 0 ? .int(Int64($0.next() % 9)) : .string("x") }),
            ("nulls only", .other, (0..<50).map { _ in .null }),
        ]
    }

    @Test func everyKindSortsAsValueOrderDoes() {
        for (name, kind, values) in Self.columns() {
            #expect(StudioSort.kind(of: values) == kind, "\(name)")
            // Keys not in value order and not contiguous.
            let keys = (0..<values.count).map { ObjectKey(Int64(($0 * 7919) % 10007)) }
            for descending in [false, true] {
                let got = StudioSort.sorted(keys: keys, values: values, descending: descending)
                #expect(
                    got == Self.reference(keys, values, descending: descending), "\(name), descending \(descending)")
            }
        }
    }
}
