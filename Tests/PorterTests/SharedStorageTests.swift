import Foundation
import Testing

@testable import Porter

/// A model whose `init()` makes another model object: its objects must keep storages of their own.
final class SharedStorageMaker: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var label = ""
    /// The unmanaged tag each initializer made last (the test reads it after a realm made objects).
    nonisolated(unsafe) static var lastTag: SharedStorageTag?

    required init() {
        Self.lastTag = SharedStorageTag()
        super.init()
    }
}

final class SharedStorageTag: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var text = ""
}

final class SharedStorageItem: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var name = ""
    @Persisted var count = 0
    @Persisted var note: String?
}

/// Managed objects a realm makes share their class's `@Persisted` storages (see `SharedStorages`):
/// each still reads and writes its own stored values, and no unmanaged object ever gets them.
@Suite struct SharedStorageTests {
    private func realm(_ label: String = #function) throws -> Realm {
        try memoryRealm([SharedStorageItem.self, SharedStorageMaker.self, SharedStorageTag.self], label)
    }

    @Test func managedObjectsReadTheirOwnValues() throws {
        let realm = try realm()
        try realm.write {
            for i in 0..<300 {
                realm.add(
                    SharedStorageItem(value: [
                        "_id": i, "name": "item \(i)", "count": i * 2, "note": i % 2 == 0 ? nil : "n\(i)",
                    ]))
            }
        }
        var seen = 0
        for item in realm.objects(SharedStorageItem.self) {
            #expect(item.name == "item \(item._id)")
            #expect(item.count == item._id * 2)
            #expect(item.note == (item._id % 2 == 0 ? nil : "n\(item._id)"))
            seen += 1
        }
        #expect(seen == 300)
        let both = Array(realm.objects(SharedStorageItem.self).sorted(byKeyPath: "_id").prefix(2))
        #expect(both[0].name == "item 0" && both[1].name == "item 1")
        #expect(both[1].description.contains("name = item 1"))
        // The second object a realm makes of the class has the first one's storages.
        let storages = both.map { $0._persistedProperties().map { ObjectIdentifier($0.property.storageObject) } }
        #expect(storages[0] == storages[1])
        #expect(
            SharedStorageItem()._persistedProperties().map { ObjectIdentifier($0.property.storageObject) }
                != storages[0])
    }

    @Test func managedObjectsWriteTheirOwnValues() throws {
        let realm = try realm()
        try realm.write {
            realm.add(SharedStorageItem(value: ["_id": 1, "name": "a"]))
            realm.add(SharedStorageItem(value: ["_id": 2, "name": "b"]))
        }
        let first = try #require(realm.object(ofType: SharedStorageItem.self, forPrimaryKey: 1))
        let second = try #require(realm.object(ofType: SharedStorageItem.self, forPrimaryKey: 2))
        try realm.write { first.name = "changed" }
        #expect(first.name == "changed")
        #expect(second.name == "b")
        #expect(realm.objects(SharedStorageItem.self).where { $0.name == "changed" }.count == 1)
    }

    @Test func unmanagedObjectsKeepStoragesOfTheirOwn() throws {
        let realm = try realm()
        try realm.write { realm.add(SharedStorageItem(value: ["_id": 1, "name": "stored"])) }
        #expect(realm.objects(SharedStorageItem.self).map(\.name) == ["stored"])
        let a = SharedStorageItem()
        let b = SharedStorageItem()
        a.name = "a"
        b.name = "b"
        #expect(a.name == "a" && b.name == "b")
        // A copy of a managed object is unmanaged and holds the values it was copied with.
        let managed = try #require(realm.objects(SharedStorageItem.self).first)
        let copy = SharedStorageItem(value: managed)
        #expect(copy.realm == nil && copy.name == "stored")
        copy.name = "copy"
        #expect(copy.name == "copy" && managed.name == "stored")
        #expect(realm.objects(SharedStorageItem.self).first?.name == "stored")
    }

    @Test func aClassWhoseInitializerMakesAnotherObjectIsNotShared() throws {
        let realm = try realm()
        try realm.write {
            realm.add(SharedStorageMaker(value: ["_id": 1, "label": "one"]))
            realm.add(SharedStorageMaker(value: ["_id": 2, "label": "two"]))
        }
        var tags: [SharedStorageTag] = []
        var labels: [String] = []
        for maker in realm.objects(SharedStorageMaker.self).sorted(byKeyPath: "_id") {
            labels.append(maker.label)
            tags.append(try #require(SharedStorageMaker.lastTag))
        }
        #expect(labels == ["one", "two"])
        let makers = Array(realm.objects(SharedStorageMaker.self))
        #expect(
            makers[0]._persistedProperties().map { ObjectIdentifier($0.property.storageObject) }
                != makers[1]._persistedProperties().map { ObjectIdentifier($0.property.storageObject) })
        // The tags made inside the realm's initializer calls are ordinary unmanaged objects.
        tags[0].text = "first"
        tags[1].text = "second"
        #expect(tags[0] !== tags[1])
        #expect(tags[0].text == "first" && tags[1].text == "second")
    }
}
