import Foundation
import Synchronization
import Testing

@testable import Porter

/// A model whose `init()` reads a tag through a realm while `realm` is set: each of its managed
/// objects is made while another (the tag) is made managed inside its initializer.
final class ConstructSlotReader: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var label = ""
    // One more property than the tag: a hand-out not put back after the tag's shows.
    @Persisted var count = 0
    /// The realm initializers read a tag from (nil: they read nothing).
    nonisolated(unsafe) static var realm: Realm?
    /// The texts of the tags initializers read, in order.
    nonisolated(unsafe) static var readTexts: [String] = []

    required init() {
        if let realm = Self.realm, let tag = realm.objects(SharedStorageTag.self).sorted(byKeyPath: "_id").first {
            Self.readTexts.append(tag.text)
        }
        super.init()
    }
}

/// What threads of a test count and share.
private final class ThreadsShare: @unchecked Sendable {
    let failures = Atomic<Int>(0)
    let configuration: Realm.Configuration
    init(_ configuration: Realm.Configuration) { self.configuration = configuration }
    func fail() { failures.add(1, ordering: .relaxed) }
}

/// The process's construct slot (see `ConstructSlot`): objects made on it, inside each other, or
/// on the thread-local path while another thread holds it, read their own values, and unmanaged
/// objects never get shared storages.
@Suite(.serialized) struct ConstructSlotTests {
    private func storages(of object: ObjectBase) -> [ObjectIdentifier] {
        object._persistedProperties().map { ObjectIdentifier($0.property.storageObject) }
    }

    @Test func anObjectMadeInsideAnotherOnesInitializerReadsItsOwnValues() throws {
        let realm = try memoryRealm([ConstructSlotReader.self, SharedStorageTag.self], #function)
        try realm.write {
            realm.add(SharedStorageTag(value: ["_id": 1, "text": "tag"]))
            for i in 0..<5 { realm.add(ConstructSlotReader(value: ["_id": i, "label": "r\(i)"])) }
        }
        ConstructSlotReader.realm = realm
        ConstructSlotReader.readTexts = []
        defer { ConstructSlotReader.realm = nil }
        // Twice: recorded, then shared (from the table, then from the cache).
        for _ in 0..<2 {
            let readers = Array(realm.objects(ConstructSlotReader.self).sorted(byKeyPath: "_id"))
            #expect(readers.map(\.label) == ["r0", "r1", "r2", "r3", "r4"])
            #expect(storages(of: readers[3]) == storages(of: readers[4]))
        }
        #expect(ConstructSlotReader.readTexts == Array(repeating: "tag", count: 10))
        let unmanaged = ConstructSlotReader()
        unmanaged.label = "own"
        #expect(unmanaged.label == "own" && unmanaged.realm == nil)
        #expect(storages(of: unmanaged) != storages(of: realm.objects(ConstructSlotReader.self)[0]))
        #expect(!ConstructSlot.isHeldHere)
    }

    @Test func objectsMadeWhileAnotherThreadHoldsTheSlotReadTheirOwnValues() throws {
        let realm = try memoryRealm([SharedStorageItem.self], #function)
        try realm.write {
            for i in 0..<20 { realm.add(SharedStorageItem(value: ["_id": i, "name": "n\(i)", "count": i])) }
        }
        // Read once on the slot so the class's storages are recorded and shared.
        #expect(realm.objects(SharedStorageItem.self).map(\.count).reduce(0, +) == 190)
        let claimed = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let freed = DispatchSemaphore(value: 0)
        Thread {
            // Other suites may be making objects on the slot now: wait for it to be free.
            while !ConstructSlot.claim() { usleep(100) }
            claimed.signal()
            release.wait()
            ConstructSlot.free()
            freed.signal()
        }.start()
        claimed.wait()
        #expect(ConstructSlot.isHeld && !ConstructSlot.isHeldHere)
        let items = Array(realm.objects(SharedStorageItem.self).sorted(byKeyPath: "_id"))
        #expect(items.map(\.name) == (0..<20).map { "n\($0)" })
        #expect(items.map(\.count) == Array(0..<20))
        // This thread's own context shared them.
        #expect(storages(of: items[0]) == storages(of: items[1]))
        let unmanaged = SharedStorageItem()
        unmanaged.name = "own"
        #expect(unmanaged.name == "own" && storages(of: unmanaged) != storages(of: items[0]))
        release.signal()
        freed.wait()
        let again = Array(realm.objects(SharedStorageItem.self).sorted(byKeyPath: "_id"))
        #expect(again.map(\.name) == items.map(\.name))
    }

    @Test func manyThreadsMakingObjectsOfTheSameClassesReadTheirOwnValues() throws {
        let configuration = Realm.Configuration(
            inMemoryIdentifier: "construct-slot-\(UUID())",
            objectTypes: [SharedStorageItem.self, SharedStorageTag.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for i in 0..<200 {
                realm.add(SharedStorageItem(value: ["_id": i, "name": "n\(i)", "count": i * 3]))
                realm.add(SharedStorageTag(value: ["_id": i, "text": "t\(i)"]))
            }
        }
        let shared = ThreadsShare(configuration)
        let group = DispatchGroup()
        for thread in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                guard let local = try? Realm(configuration: shared.configuration) else {
                    shared.fail()
                    return
                }
                for round in 0..<5 {
                    var items = local.objects(SharedStorageItem.self).sorted(byKeyPath: "_id").makeIterator()
                    var tags = local.objects(SharedStorageTag.self).sorted(byKeyPath: "_id").makeIterator()
                    var seen = 0
                    while let item = items.next(), let tag = tags.next() {
                        let ok = item.name == "n\(seen)" && item.count == seen * 3 && tag.text == "t\(seen)"
                        if !ok { shared.fail() }
                        seen += 1
                        // Unmanaged objects made meanwhile keep values of their own.
                        if (seen + thread + round) % 50 == 0 {
                            let own = SharedStorageItem()
                            own.name = "own\(thread)"
                            if own.name != "own\(thread)" || own.realm != nil { shared.fail() }
                        }
                    }
                    if seen != 200 { shared.fail() }
                }
            }.start()
        }
        group.wait()
        #expect(shared.failures.load(ordering: .relaxed) == 0)
        #expect(!ConstructSlot.isHeldHere)
    }
}
