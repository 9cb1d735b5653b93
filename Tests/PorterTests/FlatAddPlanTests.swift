import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// A second flat class, added alternately with ``FlatAddItem`` (each class has its own add plan).
final class FlatAddOther: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var label = ""
    @Persisted var when = Date(timeIntervalSince1970: 0)
}

/// Objects of a flat class after the first are added through the class's plan
/// (`Realm+FlatAdd.swift`): the same values, keys, managed state, rollback and update rules as
/// the first one, which took the general path.
@Suite struct FlatAddPlanTests {
    private func realm() throws -> Realm { try memoryRealm([FlatAddItem.self, FlatAddOther.self]) }

    @Test func twoClassesAddedAlternatelyKeepTheirValues() throws {
        let realm = try realm()
        var others: [FlatAddOther] = []
        try realm.write {
            for i in 0..<50 {
                let item = FlatAddItem()
                item._id = i
                item.name = "item \(i)"
                item.score = i % 2 == 0 ? Double(i) / 2 : nil
                realm.add(item)
                let other = FlatAddOther()
                other.label = "other \(i)"
                other.when = Date(timeIntervalSince1970: Double(i))
                realm.add(other)
                others.append(other)
            }
        }
        let items = realm.objects(FlatAddItem.self).sorted(byKeyPath: "_id")
        #expect(items.map(\.name) == (0..<50).map { "item \($0)" })
        let scores: [Double?] = (0..<50).map { i -> Double? in i % 2 == 0 ? Double(i) / 2 : nil }
        #expect(Array(items.map(\.score)) == scores)
        #expect(realm.objects(FlatAddOther.self).map(\.label) == (0..<50).map { "other \($0)" })
        // The objects added are the managed ones, each with its own key and generated ObjectId.
        #expect(others.allSatisfy { $0.realm != nil })
        #expect(Set(others.map(\._id)).count == 50)
        #expect(realm.object(ofType: FlatAddOther.self, forPrimaryKey: others[49]._id)?.label == "other 49")
        #expect(others[7].when == Date(timeIntervalSince1970: 7))
    }

    @Test func objectsAddedThroughThePlanAreUnmanagedAfterARollback() throws {
        let realm = try realm()
        try realm.write {
            let first = FlatAddItem()
            first._id = 1
            realm.add(first)
        }
        let added = (2..<6).map { i -> FlatAddItem in
            let item = FlatAddItem()
            item._id = i
            item.name = "rolled back \(i)"
            return item
        }
        realm.beginWrite()
        for item in added { realm.add(item) }
        #expect(added.allSatisfy { $0.realm != nil })
        #expect(realm.objects(FlatAddItem.self).count == 5)
        realm.cancelWrite()
        #expect(added.allSatisfy { $0.realm == nil })
        #expect(realm.objects(FlatAddItem.self).count == 1)
        // Unmanaged again with their own values, and addable once more.
        #expect(added.map(\.name) == (2..<6).map { "rolled back \($0)" })
        try realm.write { for item in added { realm.add(item) } }
        #expect(realm.objects(FlatAddItem.self).count == 5)
    }

    @Test func aManagedObjectAddedAgainIsLeftAsIsAndUpdatesTakeTheGeneralPath() throws {
        let realm = try realm()
        let item = FlatAddItem()
        item._id = 9
        item.name = "kept"
        try realm.write {
            realm.add(item)
            realm.add(item)  // already managed by this realm: nothing happens
        }
        #expect(realm.objects(FlatAddItem.self).count == 1)
        let replacement = FlatAddItem()
        replacement._id = 9
        replacement.name = "updated"
        try realm.write { realm.add(replacement, update: .modified) }
        #expect(realm.objects(FlatAddItem.self).map(\.name) == ["updated"])
        #expect(item.name == "updated")
    }

    @Test func anObjectOfAnotherRealmIsRefusedOnThePlanToo() throws {
        let realm = try realm()
        let other = try memoryRealm([FlatAddItem.self, FlatAddOther.self])
        try realm.write {
            let first = FlatAddItem()
            first._id = 1
            realm.add(first)
        }
        let foreign = FlatAddItem()
        foreign._id = 2
        try other.write { other.add(foreign) }
        let error = expectPorterError(.usage) { try realm.write { realm.add(foreign) } }
        #expect(error?.message.contains("another realm") == true)
        #expect(realm.objects(FlatAddItem.self).count == 1)
    }
}
