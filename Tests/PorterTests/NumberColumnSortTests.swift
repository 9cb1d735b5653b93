import Foundation
import PorterQuery
import PorterStore
import Testing

@testable import Porter

/// A model for the SQL-filtered sort by one number column (see `Results+NumberSort.swift`).
final class RankedItem: Object {
    @Persisted var level: Int?
    @Persisted var score = 0.0
    @Persisted var rank = 0
    @Persisted var bonus: Double?
    @Persisted var tag = ""
}

/// An int comparison sorted by one int or double property runs in SQL and sorts (number, key)
/// entries: the results must be exactly those of comparing and sorting the objects themselves,
/// with nulls never matching the comparison, ties by key, and data the fast path cannot order
/// (null, NaN, -0.0 numbers) left to the general path with the same answer.
@Suite struct NumberColumnSortTests {
    typealias Row = (level: Int?, score: Double, rank: Int, bonus: Double?)

    /// Repeated levels, scores and ranks; null levels; extreme ranks (the descending complement).
    static let rows: [Row] = [
        (7, 2.5, 3, 1.0), (nil, 0.5, 1, 2.0), (3, 2.5, Int.max, nil), (9, -1.0, Int.min, 4.0), (nil, 9.0, 0, 0.5),
        (7, 0.25, 3, 3.0), (5, 2.5, -7, 1.0), (500, 1e300, 2, 2.0), (-3, -1e-300, Int.max, 1.0), (7, 2.5, 3, -2.0),
        (1, -1.0, 5, 8.0), (0, 0.0, 0, 6.0),
    ]

    func realm(_ rows: [Row] = rows) throws -> Realm {
        let realm = try memoryRealm([RankedItem.self])
        try realm.write {
            for (i, row) in rows.enumerated() {
                let item = RankedItem()
                item.level = row.level
                item.score = row.score
                item.rank = row.rank
                item.bonus = row.bonus
                item.tag = "t\(i)"
                realm.add(item)
            }
        }
        return realm
    }

    /// The tags of the rows passing `test`, in key order, stably sorted by `less`.
    func expected(in rows: [Row] = rows, _ test: (Row) -> Bool, by less: (Row, Row) -> Bool) -> [String] {
        let kept = rows.enumerated().filter { test($0.element) }
        // Stable by construction: ties compare by position (the key order).
        let sorted = kept.sorted { a, b in
            less(a.element, b.element) || (!less(b.element, a.element) && a.offset < b.offset)
        }
        return sorted.map { "t\($0.offset)" }
    }

    /// Whether the SQL-filtered number sort answers `results`' query (rather than the general path).
    func usesNumberColumn(_ realm: Realm, _ results: Results<RankedItem>) throws -> Bool {
        let schema = try #require(realm.database.schema["RankedItem"])
        var evaluator = QueryEvaluator(database: realm.database, schema: schema, realm: realm)
        return try evaluator.sortedByNumberColumn(results.predicates[0], results.sortKeys[0]) != nil
    }

    @Test func eachComparisonSortedByADoubleMatchesTheObjects() throws {
        let realm = try realm()
        let all = realm.objects(RankedItem.self)
        let cases: [(Results<RankedItem>, (Row) -> Bool)] = [
            (all.where { $0.level > 5 }, { ($0.level ?? .min) > 5 }),
            (all.where { $0.level >= 5 }, { ($0.level ?? .min) >= 5 }),
            (all.where { $0.level < 5 }, { $0.level.map { $0 < 5 } ?? false }),
            (all.where { $0.level <= 5 }, { $0.level.map { $0 <= 5 } ?? false }),
            (all.filter("level > %@", -100), { $0.level != nil }),
        ]
        for (index, (filtered, test)) in cases.enumerated() {
            let up = filtered.sorted(byKeyPath: "score")
            #expect(try usesNumberColumn(realm, up), "case \(index)")
            #expect(up.map(\.tag) == expected(test, by: { $0.score < $1.score }), "case \(index)")
            let down = filtered.sorted(byKeyPath: "score", ascending: false)
            #expect(down.map(\.tag) == expected(test, by: { $0.score > $1.score }), "case \(index), ties by key")
        }
        let query = all.where { $0.level > 5 }.sorted(byKeyPath: "score")
        #expect(query.count == 5 && query.first?.tag == "t3" && query.first?.score == -1.0)
    }

    @Test func sortByAnIntHandlesItsExtremes() throws {
        let realm = try realm()
        let filtered = realm.objects(RankedItem.self).where { $0.level >= 0 }
        let up = filtered.sorted(byKeyPath: "rank")
        #expect(try usesNumberColumn(realm, up))
        #expect(up.map(\.tag) == expected({ ($0.level ?? -1) >= 0 }, by: { $0.rank < $1.rank }))
        let down = filtered.sorted(byKeyPath: "rank", ascending: false)
        #expect(down.map(\.tag) == expected({ ($0.level ?? -1) >= 0 }, by: { $0.rank > $1.rank }))
        #expect(down.first?.rank == Int.max && down.last?.rank == Int.min)
    }

    @Test func numbersTheFastPathCannotOrderGoTheGeneralWay() throws {
        // Null bonuses come first; -0.0 equals 0.0 (ties by key); NaN comes before other numbers.
        let realm = try realm()
        let all = realm.objects(RankedItem.self)
        let byBonus = all.where { $0.level > 0 }.sorted(byKeyPath: "bonus")
        #expect(try !usesNumberColumn(realm, byBonus))
        #expect(
            byBonus.map(\.tag)
                == expected({ ($0.level ?? 0) > 0 }, by: { ($0.bonus ?? -.infinity) < ($1.bonus ?? -.infinity) }))
        var rows = Self.rows
        rows[4].score = -0.0
        rows[6].score = .nan
        let special = try self.realm(rows)
        let byScore = special.objects(RankedItem.self).where { $0.rank > -10 }.sorted(byKeyPath: "score")
        #expect(try !usesNumberColumn(special, byScore))
        let order = { (a: Row, b: Row) -> Bool in
            a.score.isNaN ? !b.score.isNaN : (!b.score.isNaN && a.score < b.score)
        }
        #expect(byScore.map(\.tag) == expected(in: rows, { $0.rank > -10 }, by: order))
        #expect(byScore.first?.tag == "t6")
    }

    @Test func otherQueriesStayOnTheirPaths() throws {
        let realm = try realm()
        let all = realm.objects(RankedItem.self)
        // A double argument, equality, a double property, a string sort, a key path: not this path.
        for results in [
            all.filter("level > 4.5").sorted(byKeyPath: "score"),
            all.where { $0.level != 7 }.sorted(byKeyPath: "score"),
            all.where { $0.score > 0 }.sorted(byKeyPath: "rank"), all.where { $0.level > 0 }.sorted(byKeyPath: "tag"),
        ] {
            #expect(try !usesNumberColumn(realm, results))
        }
        #expect(
            all.filter("level > 4.5").sorted(byKeyPath: "score").map(\.tag)
                == expected({ ($0.level ?? .min) > 4 }, by: { $0.score < $1.score }))
        #expect(
            all.where { $0.level != 7 }.sorted(byKeyPath: "score").map(\.tag)
                == expected({ $0.level != 7 }, by: { $0.score < $1.score }), "null != 7 holds")
    }

    @Test func resultsReEvaluateAfterWritesAndUnknownSortKeysAreReported() throws {
        let realm = try realm()
        let sorted = realm.objects(RankedItem.self).where { $0.level > 5 }.sorted(byKeyPath: "score")
        #expect(sorted.count == 5 && sorted.first?.tag == "t3")
        try realm.write {
            realm.objects(RankedItem.self).where { $0.tag == "t3" }.first?.level = nil
            realm.objects(RankedItem.self).where { $0.tag == "t1" }.first?.level = 6
        }
        #expect(sorted.count == 5 && sorted.first?.tag == "t5" && sorted.map(\.tag).contains("t1"))
        let unknown = realm.objects(RankedItem.self).where { $0.level > 5 }.sorted(byKeyPath: "missing")
        #expect(unknown.isEmpty)
        #expect(throws: PorterError.self) { try unknown.snapshot() }
    }
}
