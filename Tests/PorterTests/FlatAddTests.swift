import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// A class without links, mixed values or collections: adding one is a single INSERT without a
/// savepoint (`Database.createRow`).
final class FlatAddItem: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var name = ""
    @Persisted var score: Double?
}

/// The same with an optional primary key (a unique index lets nulls repeat: looked up instead).
final class FlatAddOptionalKey: Object {
    @Persisted(primaryKey: true) var _id: String?
    @Persisted var note = ""
}

/// Adding flat objects keeps `add`'s rules: a failing add is reported when the write ends, the
/// whole write is rolled back, and its objects are unmanaged again.
@Suite struct FlatAddTests {
    private func realm() throws -> Realm { try memoryRealm([FlatAddItem.self, FlatAddOptionalKey.self]) }

    private func item(_ id: Int, _ name: String) -> FlatAddItem {
        let item = FlatAddItem()
        item._id = id
        item.name = name
        return item
    }

    @Test func addedValuesAreStoredAndReadBack() throws {
        let realm = try realm()
        try realm.write { for i in 0..<300 { realm.add(item(i, "item \(i)")) } }
        let items = realm.objects(FlatAddItem.self)
        #expect(items.count == 300)
        #expect(items.map(\.name) == (0..<300).map { "item \($0)" })
        #expect(items.allSatisfy { $0.score == nil })
    }

    @Test func aDuplicateKeyFailsTheWholeWrite() throws {
        let realm = try realm()
        try realm.write { realm.add(item(1, "first")) }
        let fresh = item(2, "fresh"), twin = item(1, "twin"), later = item(3, "later")
        let error = expectPorterError(.duplicatePrimaryKey) {
            try realm.write {
                realm.add(fresh)
                realm.add(twin)
                #expect(realm.pendingWriteError?.code == .duplicatePrimaryKey)
                realm.add(later)  // skipped after the failure
            }
        }
        #expect(error?.location == "FlatAddItem._id")
        #expect(error?.message.contains("1") == true)
        #expect(realm.objects(FlatAddItem.self).map(\.name) == ["first"])
        #expect([fresh, twin, later].allSatisfy { $0.realm == nil })
        #expect(fresh.name == "fresh" && twin.name == "twin")
    }

    @Test func aDuplicateKeyWithinOneWriteIsFound() throws {
        let realm = try realm()
        expectPorterError(.duplicatePrimaryKey) {
            try realm.write {
                realm.add(item(7, "a"))
                realm.add(item(7, "b"))
            }
        }
        #expect(realm.objects(FlatAddItem.self).isEmpty)
    }

    @Test func aSecondNullKeyIsADuplicate() throws {
        let realm = try realm()
        try realm.write { realm.add(FlatAddOptionalKey()) }
        expectPorterError(.duplicatePrimaryKey) { try realm.write { realm.add(FlatAddOptionalKey()) } }
        #expect(realm.objects(FlatAddOptionalKey.self).count == 1)
    }
}

/// Sorting by one number column compares the numbers directly; the order must stay Realm's:
/// ascending or descending by value, ties in key order, nulls first when ascending.
@Suite struct NumberSortTests {
    @Test func sortsByIntsAndDoublesWithTiesInKeyOrder() throws {
        let realm = try memoryRealm([FlatAddItem.self, FlatAddOptionalKey.self])
        let scores: [Double] = [2.5, -1, 0, 2.5, -0.0, 7, -1, 3]
        try realm.write {
            for (i, score) in scores.enumerated() {
                let item = FlatAddItem()
                item._id = (i * 37) % 11  // ids out of insertion order
                item.name = "n\(i)"
                item.score = score
                realm.add(item)
            }
        }
        let byInsertion = Array(0..<scores.count)  // keys ascend in insertion order
        let ascending = byInsertion.sorted { scores[$0] != scores[$1] ? scores[$0] < scores[$1] : $0 < $1 }.map {
            "n\($0)"
        }
        let descending = byInsertion.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.map {
            "n\($0)"
        }
        let items = realm.objects(FlatAddItem.self)
        #expect(items.sorted(byKeyPath: "score").map(\.name) == ascending)
        #expect(items.sorted(byKeyPath: "score", ascending: false).map(\.name) == descending)
        let ids = items.map(\._id)
        #expect(items.sorted(byKeyPath: "_id").map(\._id) == ids.sorted())
        #expect(items.sorted(byKeyPath: "_id", ascending: false).map(\._id) == ids.sorted(by: >))
        // A null among the doubles takes the general path: null first.
        try realm.write { items.first?.score = nil }
        #expect(items.sorted(byKeyPath: "score").first?.name == "n0")
        #expect(items.where { $0.score > 0 }.sorted(byKeyPath: "score").map(\.score) == [2.5, 3, 7])
    }
}
