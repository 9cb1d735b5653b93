import Foundation
import Testing

@testable import Porter

/// A model whose `init()` makes another model object only once `makesTag` is set: its first
/// managed objects share storages (and its thread remembers them), later ones cannot.
final class SharedStorageLateMaker: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var label = ""
    /// Whether initializers make a tag (set by the test once the class is remembered).
    nonisolated(unsafe) static var makesTag = false
    /// The unmanaged tag the initializer made last.
    nonisolated(unsafe) static var lastTag: SharedStorageTag?

    required init() {
        if Self.makesTag { Self.lastTag = SharedStorageTag() }
        super.init()
    }
}

/// The per-thread cache of shared-storage contexts (see `ConstructCache`): objects made from it
/// read their own values, and a class whose initializer stops making its storages as recorded is
/// found out on the next object and no longer shared.
@Suite(.serialized) struct SharedStorageCacheTests {
    @Test func aRememberedClassThatStopsMatchingGetsStoragesOfItsOwn() throws {
        let realm = try memoryRealm([SharedStorageLateMaker.self, SharedStorageTag.self], #function)
        try realm.write {
            for i in 0..<4 { realm.add(SharedStorageLateMaker(value: ["_id": i, "label": "l\(i)"])) }
        }
        SharedStorageLateMaker.makesTag = false
        defer { SharedStorageLateMaker.makesTag = false }
        // Several passes: recorded, then shared from the table, then from this thread's cache.
        for _ in 0..<3 {
            #expect(
                realm.objects(SharedStorageLateMaker.self).sorted(byKeyPath: "_id").map(\.label) == [
                    "l0", "l1", "l2", "l3",
                ])
        }
        let shared = Array(realm.objects(SharedStorageLateMaker.self))
        #expect(
            shared[0]._persistedProperties().map { ObjectIdentifier($0.property.storageObject) }
                == shared[1]._persistedProperties().map { ObjectIdentifier($0.property.storageObject) })

        SharedStorageLateMaker.makesTag = true
        let makers = Array(realm.objects(SharedStorageLateMaker.self).sorted(byKeyPath: "_id"))
        #expect(makers.map(\.label) == ["l0", "l1", "l2", "l3"])
        #expect(
            makers[2]._persistedProperties().map { ObjectIdentifier($0.property.storageObject) }
                != makers[3]._persistedProperties().map { ObjectIdentifier($0.property.storageObject) })
        let tag = try #require(SharedStorageLateMaker.lastTag)
        tag.text = "own"
        #expect(tag.text == "own" && tag.realm == nil)
        try realm.write { makers[1].label = "changed" }
        #expect(
            realm.objects(SharedStorageLateMaker.self).sorted(byKeyPath: "_id").map(\.label) == [
                "l0", "changed", "l2", "l3",
            ])
    }

    @Test func objectsOfTwoClassesMadeInTurnReadTheirOwnValues() throws {
        let realm = try memoryRealm([SharedStorageItem.self, SharedStorageTag.self], #function)
        try realm.write {
            for i in 0..<300 {
                realm.add(SharedStorageItem(value: ["_id": i, "name": "n\(i)", "count": i * 2]))
                realm.add(SharedStorageTag(value: ["_id": i, "text": "t\(i)"]))
            }
        }
        var items = realm.objects(SharedStorageItem.self).sorted(byKeyPath: "_id").makeIterator()
        var tags = realm.objects(SharedStorageTag.self).sorted(byKeyPath: "_id").makeIterator()
        var seen = 0
        while let item = items.next(), let tag = tags.next() {
            #expect(item.name == "n\(seen)" && item.count == seen * 2 && tag.text == "t\(seen)")
            seen += 1
        }
        #expect(seen == 300)
    }
}
