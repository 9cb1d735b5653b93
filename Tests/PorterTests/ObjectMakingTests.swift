import Foundation
import Synchronization
import Testing

@testable import Porter

/// A model whose `init()` makes another model object (an unmanaged one, made while a realm makes
/// this one managed).
final class ObjectMakingMaker: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var label = ""
    /// The unmanaged tag each initializer made last (the test reads it after a realm made objects).
    nonisolated(unsafe) static var lastTag: ObjectMakingTag?

    override init() {
        Self.lastTag = ObjectMakingTag()
        super.init()
    }
}

final class ObjectMakingTag: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var text = ""
}

final class ObjectMakingItem: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var name = ""
    @Persisted var count = 0
    @Persisted var note: String?
}

/// Objects a realm makes (with `init()`, as many as it hands out) and objects the program makes
/// hold their `@Persisted` values in themselves: each managed one reads and writes its own stored
/// values, each unmanaged one its own values, whatever their initializers make meanwhile.
@Suite(.serialized) struct ObjectMakingTests {
    private func realm(_ label: String = #function) throws -> Realm {
        try memoryRealm([ObjectMakingItem.self, ObjectMakingMaker.self, ObjectMakingTag.self], label)
    }

    @Test func managedObjectsReadTheirOwnValues() throws {
        let realm = try realm()
        try realm.write {
            for i in 0..<300 {
                realm.add(
                    ObjectMakingItem(value: [
                        "_id": i, "name": "item \(i)", "count": i * 2, "note": i % 2 == 0 ? nil : "n\(i)",
                    ]))
            }
        }
        var seen = 0
        for item in realm.objects(ObjectMakingItem.self) {
            #expect(item.name == "item \(item._id)")
            #expect(item.count == item._id * 2)
            #expect(item.note == (item._id % 2 == 0 ? nil : "n\(item._id)"))
            seen += 1
        }
        #expect(seen == 300)
        let both = Array(realm.objects(ObjectMakingItem.self).sorted(byKeyPath: "_id").prefix(2))
        #expect(both[0].name == "item 0" && both[1].name == "item 1")
        #expect(both[1].description.contains("name = item 1"))
    }

    @Test func managedObjectsWriteTheirOwnValues() throws {
        let realm = try realm()
        try realm.write {
            realm.add(ObjectMakingItem(value: ["_id": 1, "name": "a"]))
            realm.add(ObjectMakingItem(value: ["_id": 2, "name": "b"]))
        }
        let first = try #require(realm.object(ofType: ObjectMakingItem.self, forPrimaryKey: 1))
        let second = try #require(realm.object(ofType: ObjectMakingItem.self, forPrimaryKey: 2))
        try realm.write { first.name = "changed" }
        #expect(first.name == "changed")
        #expect(second.name == "b")
        #expect(realm.objects(ObjectMakingItem.self).where { $0.name == "changed" }.count == 1)
    }

    @Test func unmanagedObjectsKeepValuesOfTheirOwn() throws {
        let realm = try realm()
        try realm.write { realm.add(ObjectMakingItem(value: ["_id": 1, "name": "stored"])) }
        #expect(realm.objects(ObjectMakingItem.self).map(\.name) == ["stored"])
        let a = ObjectMakingItem()
        let b = ObjectMakingItem()
        a.name = "a"
        b.name = "b"
        #expect(a.name == "a" && b.name == "b")
        // A copy of a managed object is unmanaged and holds the values it was copied with.
        let managed = try #require(realm.objects(ObjectMakingItem.self).first)
        let copy = ObjectMakingItem(value: managed)
        #expect(copy.realm == nil && copy.name == "stored")
        copy.name = "copy"
        #expect(copy.name == "copy" && managed.name == "stored")
        #expect(realm.objects(ObjectMakingItem.self).first?.name == "stored")
    }

    @Test func aClassWhoseInitializerMakesAnotherObject() throws {
        let realm = try realm()
        try realm.write {
            realm.add(ObjectMakingMaker(value: ["_id": 1, "label": "one"]))
            realm.add(ObjectMakingMaker(value: ["_id": 2, "label": "two"]))
        }
        var tags: [ObjectMakingTag] = []
        var labels: [String] = []
        for maker in realm.objects(ObjectMakingMaker.self).sorted(byKeyPath: "_id") {
            labels.append(maker.label)
            tags.append(try #require(ObjectMakingMaker.lastTag))
        }
        #expect(labels == ["one", "two"])
        // The tags made inside the realm's initializer calls are ordinary unmanaged objects.
        tags[0].text = "first"
        tags[1].text = "second"
        #expect(tags[0] !== tags[1])
        #expect(tags[0].text == "first" && tags[1].text == "second")
    }

    @Test func aClassWhoseInitializerStartsMakingAnotherObject() throws {
        let realm = try memoryRealm([ObjectMakingLateMaker.self, ObjectMakingTag.self], #function)
        try realm.write {
            for i in 0..<4 { realm.add(ObjectMakingLateMaker(value: ["_id": i, "label": "l\(i)"])) }
        }
        ObjectMakingLateMaker.makesTag = false
        defer { ObjectMakingLateMaker.makesTag = false }
        // Several passes of the same class, …
        for _ in 0..<3 {
            #expect(
                realm.objects(ObjectMakingLateMaker.self).sorted(byKeyPath: "_id").map(\.label) == [
                    "l0", "l1", "l2", "l3",
                ])
        }

        ObjectMakingLateMaker.makesTag = true
        let makers = Array(realm.objects(ObjectMakingLateMaker.self).sorted(byKeyPath: "_id"))
        #expect(makers.map(\.label) == ["l0", "l1", "l2", "l3"])
        let tag = try #require(ObjectMakingLateMaker.lastTag)
        tag.text = "own"
        #expect(tag.text == "own" && tag.realm == nil)
        try realm.write { makers[1].label = "changed" }
        #expect(
            realm.objects(ObjectMakingLateMaker.self).sorted(byKeyPath: "_id").map(\.label) == [
                "l0", "changed", "l2", "l3",
            ])
    }

    @Test func objectsOfTwoClassesMadeInTurnReadTheirOwnValues() throws {
        let realm = try memoryRealm([ObjectMakingItem.self, ObjectMakingTag.self], #function)
        try realm.write {
            for i in 0..<300 {
                realm.add(ObjectMakingItem(value: ["_id": i, "name": "n\(i)", "count": i * 2]))
                realm.add(ObjectMakingTag(value: ["_id": i, "text": "t\(i)"]))
            }
        }
        var items = realm.objects(ObjectMakingItem.self).sorted(byKeyPath: "_id").makeIterator()
        var tags = realm.objects(ObjectMakingTag.self).sorted(byKeyPath: "_id").makeIterator()
        var seen = 0
        while let item = items.next(), let tag = tags.next() {
            #expect(item.name == "n\(seen)" && item.count == seen * 2 && tag.text == "t\(seen)")
            seen += 1
        }
        #expect(seen == 300)
    }

    @Test func anObjectMadeInsideAnotherOnesInitializerReadsItsOwnValues() throws {
        let realm = try memoryRealm([ObjectMakingReader.self, ObjectMakingTag.self], #function)
        try realm.write {
            realm.add(ObjectMakingTag(value: ["_id": 1, "text": "tag"]))
            for i in 0..<5 { realm.add(ObjectMakingReader(value: ["_id": i, "label": "r\(i)"])) }
        }
        ObjectMakingReader.realm = realm
        ObjectMakingReader.readTexts = []
        defer { ObjectMakingReader.realm = nil }
        // Twice: the first objects of the class, then later ones.
        for _ in 0..<2 {
            let readers = Array(realm.objects(ObjectMakingReader.self).sorted(byKeyPath: "_id"))
            #expect(readers.map(\.label) == ["r0", "r1", "r2", "r3", "r4"])
        }
        #expect(ObjectMakingReader.readTexts == Array(repeating: "tag", count: 10))
        let unmanaged = ObjectMakingReader()
        unmanaged.label = "own"
        #expect(unmanaged.label == "own" && unmanaged.realm == nil)
        #expect(realm.objects(ObjectMakingReader.self)[0].label == "r0")
    }

    @Test func manyThreadsMakingObjectsOfTheSameClassesReadTheirOwnValues() throws {
        let configuration = Realm.Configuration(
            inMemoryIdentifier: "object-making-\(UUID())",
            objectTypes: [ObjectMakingItem.self, ObjectMakingTag.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for i in 0..<200 {
                realm.add(ObjectMakingItem(value: ["_id": i, "name": "n\(i)", "count": i * 3]))
                realm.add(ObjectMakingTag(value: ["_id": i, "text": "t\(i)"]))
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
                    var items = local.objects(ObjectMakingItem.self).sorted(byKeyPath: "_id").makeIterator()
                    var tags = local.objects(ObjectMakingTag.self).sorted(byKeyPath: "_id").makeIterator()
                    var seen = 0
                    while let item = items.next(), let tag = tags.next() {
                        let ok = item.name == "n\(seen)" && item.count == seen * 3 && tag.text == "t\(seen)"
                        if !ok { shared.fail() }
                        seen += 1
                        // Unmanaged objects made meanwhile keep values of their own.
                        if (seen + thread + round) % 50 == 0 {
                            let own = ObjectMakingItem()
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
    }

    @Test func propertiesAreNamedFromTheirStorageKeyPaths() {
        let item = ObjectMakingItem()
        #expect(item.storageKeyPathNames() == ["_id", "name", "count", "note"])
        // Twice: the second from the names kept by key path.
        #expect(item.storageKeyPathNames() == ["_id", "name", "count", "note"])
        #expect(PersistedFieldTable.shared.fields(of: item).map(\.name) == ["_id", "name", "count", "note"])
    }

    @Test func fieldsFoundByOffsetAreReadAndWrittenInPlace() throws {
        let item = ObjectMakingItem()
        let properties = item._persistedProperties()
        let name = try #require(properties.first { $0.name == "name" }?.property)
        #expect(name.assign("set in place", in: item))
        #expect(item.name == "set in place")
        item.name = "set by the setter"
        #expect(name.currentValue(of: item) as? String == "set by the setter")
        name.releaseUnmanagedValue()
        #expect(item.name == "")
        // Options are held with each value: the primary key's, and the initial value's.
        #expect(properties.map(\.property.options.isPrimaryKey) == [true, false, false, false])
        #expect(properties.map(\.property.options.hasInitialValue) == [true, true, true, false])
    }

    @Test func optionsKeepTheirFlagsAndOriginPropertyInOneWord() {
        #expect(MemoryLayout<PersistedOptions>.size == 4)
        let key = PersistedOptions(isPrimaryKey: true, hasInitialValue: true)
        #expect(key.isPrimaryKey && !key.isIndexed && key.hasInitialValue && key.originProperty == nil)
        let indexed = PersistedOptions(isIndexed: true)
        #expect(!indexed.isPrimaryKey && indexed.isIndexed && !indexed.hasInitialValue)
        let owner = PersistedOptions(originProperty: "owner")
        let walker = PersistedOptions(originProperty: "walker")
        #expect(owner.originProperty == "owner" && walker.originProperty == "walker")
        #expect(PersistedOptions(originProperty: "owner").bits == owner.bits)
        #expect(!owner.isPrimaryKey && !owner.isIndexed && PersistedOptions(originProperty: nil).originProperty == nil)
    }

    @Test func aDefaultMadeOnFirstReadIsKeptByAnUnmanagedObjectOnly() throws {
        let tag = ObjectMakingKeyed()
        let first = tag._id
        #expect(tag._id == first)
        let realm = try memoryRealm([ObjectMakingKeyed.self], #function)
        try realm.write { realm.add(tag) }
        #expect(tag._id == first)
        #expect(realm.object(ofType: ObjectMakingKeyed.self, forPrimaryKey: first)?._id == first)
    }
}

extension ObjectMakingItem {
    /// The property names found from each storage key path (the wrappers are private to this file).
    func storageKeyPathNames() -> [String] {
        [
            PersistedFieldTable.name(of: \ObjectMakingItem.__id, in: self),
            PersistedFieldTable.name(of: \ObjectMakingItem._name, in: self),
            PersistedFieldTable.name(of: \ObjectMakingItem._count, in: self),
            PersistedFieldTable.name(of: \ObjectMakingItem._note, in: self),
        ]
    }
}

/// A model whose primary key has no initial value: made (and kept) on first use.
final class ObjectMakingKeyed: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
}

final class ObjectMakingLateMaker: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var label = ""
    /// Whether initializers make a tag (set by the test once the class is remembered).
    nonisolated(unsafe) static var makesTag = false
    /// The unmanaged tag the initializer made last.
    nonisolated(unsafe) static var lastTag: ObjectMakingTag?

    override init() {
        if Self.makesTag { Self.lastTag = ObjectMakingTag() }
        super.init()
    }
}

/// A model whose `init()` reads a tag through a realm while `realm` is set: each of its managed
/// objects is made while another (the tag) is made managed inside its initializer.
final class ObjectMakingReader: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var label = ""
    // One more property than the tag: a hand-out not put back after the tag's shows.
    @Persisted var count = 0
    /// The realm initializers read a tag from (nil: they read nothing).
    nonisolated(unsafe) static var realm: Realm?
    /// The texts of the tags initializers read, in order.
    nonisolated(unsafe) static var readTexts: [String] = []

    override init() {
        if let realm = Self.realm, let tag = realm.objects(ObjectMakingTag.self).sorted(byKeyPath: "_id").first {
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
