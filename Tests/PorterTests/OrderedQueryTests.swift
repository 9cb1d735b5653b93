import Foundation
import Testing
@testable import Porter

/// A model for the one-comparison-plus-sort query paths (see `Results+OrderedKeys.swift`).
final class PricedItem: Object {
    @Persisted var count = 0
    @Persisted var price = 0.0
    @Persisted var label = ""
    @Persisted var weight: Double?
}

/// One comparison on a stored property, with or without sorting by stored properties: the keys
/// come from one read of the table (no key set), and the sort from number entries; the results
/// must be exactly what comparing and sorting the objects themselves gives.
@Suite struct OrderedQueryTests {
    /// (count, price, label, weight) rows with repeated counts and prices, both zeros and nulls.
    static let rows: [(Int, Double, String, Double?)] = [
        (7, 2.5, "g", nil), (3, 0.0, "c", 1.5), (9, -0.0, "i", 0.0), (7, 2.5, "a", -2.0), (1, -4.0, "b", nil),
        (9, 10.0, "h", 3.0), (5, 2.5, "e", -0.0), (3, 1.0, "d", 1.5), (8, -4.0, "f", nil), (6, 0.0, "j", 9.0),
    ]

    func realm() throws -> Realm {
        let realm = try memoryRealm([PricedItem.self])
        try realm.write {
            for (count, price, label, weight) in Self.rows {
                let m = PricedItem()
                m.count = count
                m.price = price
                m.label = label
                m.weight = weight
                realm.add(m)
            }
        }
        return realm
    }

    /// The labels of the rows passing `test`, in insertion (key) order, stably sorted by `order`.
    func expected(
        _ test: ((Int, Double, String, Double?)) -> Bool,
        by order: (((Int, Double, String, Double?)), ((Int, Double, String, Double?))) -> Bool = { _, _ in false }
    ) -> [String] {
        var kept = Self.rows.filter(test)
        // Insertion sort: stable, so ties keep key order as Realm's sort does.
        for i in kept.indices.dropFirst() {
            var j = i
            while j > 0, order(kept[j], kept[j - 1]) {
                kept.swapAt(j, j - 1)
                j -= 1
            }
        }
        return kept.map(\.2)
    }

    @Test func comparisonAloneKeepsKeyOrder() throws {
        let all = try realm().objects(PricedItem.self)
        #expect(all.where { $0.count > 5 }.map(\.label) == expected { $0.0 > 5 })
        #expect(all.where { $0.price <= 0 }.map(\.label) == expected { $0.1 <= 0 })
        #expect(all.where { $0.label >= "e" }.map(\.label) == expected { $0.2 >= "e" })
        #expect(
            all.where { $0.weight > 0 }.map(\.label) == expected { ($0.3 ?? -.infinity) > 0 }, "null never compares")
        #expect(all.where { $0.count != 7 }.map(\.label) == expected { $0.0 != 7 })
        #expect(all.filter("price == 2.5").map(\.label) == expected { $0.1 == 2.5 })
        #expect(all.where { $0.count > 100 }.isEmpty)
    }

    @Test func comparisonThenSortByOneNumberColumn() throws {
        let all = try realm().objects(PricedItem.self)
        let byPrice = all.where { $0.count > 2 }.sorted(byKeyPath: "price")
        #expect(byPrice.map(\.label) == expected({ $0.0 > 2 }, by: { $0.1 < $1.1 }))
        #expect(byPrice.count == 9 && byPrice.first?.label == "f")
        let byPriceDown = all.where { $0.count > 2 }.sorted(byKeyPath: "price", ascending: false)
        #expect(byPriceDown.map(\.label) == expected({ $0.0 > 2 }, by: { $0.1 > $1.1 }), "ties keep key order")
        let byCountDown = all.where { $0.price >= 0 }.sorted(byKeyPath: "count", ascending: false)
        #expect(byCountDown.map(\.label) == expected({ $0.1 >= 0 }, by: { $0.0 > $1.0 }))
        let byOwnColumn = all.where { $0.count < 9 }.sorted(byKeyPath: "count")
        #expect(byOwnColumn.map(\.label) == expected({ $0.0 < 9 }, by: { $0.0 < $1.0 }))
    }

    @Test func comparisonThenSortBySeveralOrNullableColumns() throws {
        let all = try realm().objects(PricedItem.self)
        let twoKeys = all.where { $0.count >= 3 }.sorted(by: [
            Realm.SortDescriptor(keyPath: "price", ascending: false), Realm.SortDescriptor(keyPath: "label"),
        ])
        #expect(
            twoKeys.map(\.label)
                == expected({ $0.0 >= 3 }, by: { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }))
        // Null first when ascending.
        let byWeight = all.where { $0.count > 0 }.sorted(byKeyPath: "weight")
        #expect(
            byWeight.map(\.label)
                == expected({ $0.0 > 0 }, by: { ($0.3 ?? -.infinity) < ($1.3 ?? -.infinity) }))
        let byLabel = all.where { $0.price < 3 }.sorted(byKeyPath: "label", ascending: false)
        #expect(byLabel.map(\.label) == expected({ $0.1 < 3 }, by: { $0.2 > $1.2 }))
    }

    @Test func resultsStayLiveAndErrorsStayReported() throws {
        let realm = try realm()
        let sorted = realm.objects(PricedItem.self).where { $0.count > 5 }.sorted(byKeyPath: "price")
        #expect(sorted.count == 6)
        try realm.write { realm.objects(PricedItem.self).where { $0.label == "h" }.first?.count = 0 }
        #expect(sorted.count == 5 && !sorted.map(\.label).contains("h"))
        let unknown = realm.objects(PricedItem.self).filter("count > 1").sorted(byKeyPath: "missing")
        #expect(unknown.isEmpty)
        #expect(throws: PorterError.self) { try unknown.snapshot() }
    }
}
