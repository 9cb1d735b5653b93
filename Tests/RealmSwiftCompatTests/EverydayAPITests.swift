import Foundation
import RealmSwift
import Testing
import PorterTestSupport

// Realm Swift's everyday API as its documentation and apps write it (issue 22).

class Friend: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id = ObjectId.generate()
    @Persisted var name = ""
    @Persisted var group = ""
    @Persisted var scores: List<Int>
    @Persisted var friend: Friend?
    @Persisted var phoneNumbers: Map<String, String>
}

class TaskList: Object {
    @Persisted var name = ""
    @Persisted var items: List<ChecklistItem>
}

class ChecklistItem: Object {
    @Persisted var title = ""
    @Persisted var ratings: List<Int>
}

class Zeroed: Object {
    @Persisted var id = ObjectId()
}

private let everydayTypes: [ObjectBase.Type] = [Friend.self, TaskList.self, ChecklistItem.self, Zeroed.self]

private func everydayRealm(_ name: String = #function) throws -> Realm {
    try Realm(
        configuration: Realm.Configuration(
            inMemoryIdentifier: "\(name)-\(UUID().uuidString)",
            objectTypes: everydayTypes))
}

@Suite struct EverydayAPITests {
    @Test func objectIdFromAStringLiteral() throws {
        let id = ObjectId("5f1b2c3d4e5f6a7b8c9d0e0f")
        #expect(id.stringValue == "5f1b2c3d4e5f6a7b8c9d0e0f")
        #expect(try ObjectId(string: "5F1B2C3D4E5F6A7B8C9D0E0F") == id)
        #expect(ObjectId() == ObjectId("000000000000000000000000"))
        #expect(throws: (any Error).self) { try ObjectId(string: "5f1b") }
    }

    @Test func objectIdAsADefaultValueIsTheZeroId() throws {
        let realm = try everydayRealm()
        try realm.write { realm.add(Zeroed()) }
        #expect(realm.objects(Zeroed.self).first?.id == ObjectId("000000000000000000000000"))
        #expect(realm.schema["Zeroed"]?.property(named: "id")?.defaultValue != nil)
    }

    @Test func objectIdFromTimestampMachineAndProcess() {
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        let id = ObjectId(timestamp: date, machineId: 0x0A0B0C, processId: 0x0D0E)
        #expect(id.timestamp == date)
        #expect(Array(id.bytes[4..<9]) == [0x0A, 0x0B, 0x0C, 0x0D, 0x0E])
    }

    @Test func objectIdIsCodableAsItsString() throws {
        let id = ObjectId("5f1b2c3d4e5f6a7b8c9d0e0f")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"5f1b2c3d4e5f6a7b8c9d0e0f\"]")
        #expect(try JSONDecoder().decode([ObjectId].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ObjectId].self, from: Data("[\"zz\"]".utf8)) }
    }

    @Test func objectKeyIdentifiableIsStableForOneManagedObject() throws {
        let realm = try everydayRealm()
        let contact = Friend()
        let unmanagedId = contact.id
        #expect(unmanagedId == contact.id)
        try realm.write { realm.add(contact) }
        let again = realm.object(ofType: Friend.self, forPrimaryKey: contact._id)!
        #expect(again.id == contact.id)
        let other = Friend()
        try realm.write { realm.add(other) }
        #expect(other.id != contact.id)
    }

    @Test func realmsCompareEqualWhenTheyAreTheSameRealm() throws {
        let config = Realm.Configuration(inMemoryIdentifier: "eq-\(UUID().uuidString)", objectTypes: [Friend.self])
        let a = try Realm(configuration: config)
        let b = try Realm(configuration: config)
        let other = try Realm(
            configuration: .init(
                inMemoryIdentifier: "eq-other-\(UUID().uuidString)",
                objectTypes: [Friend.self]))
        #expect(a == b)
        #expect(a != other)
    }

    @Test func mapsCompareAndMerge() throws {
        let realm = try everydayRealm()
        let contact = Friend()
        contact.phoneNumbers["home"] = "111"
        let same: Map<String, String> = ["home": "111"]
        #expect(contact.phoneNumbers == same)
        try realm.write {
            realm.add(contact)
            contact.phoneNumbers.merge(["home": "222", "work": "333"]) { current, _ in current }
        }
        #expect(contact.phoneNumbers["home"] == "111")
        #expect(contact.phoneNumbers["work"] == "333")
        try realm.write {
            contact.phoneNumbers.merge([(key: "home", value: "444")]) { _, new in new }
        }
        #expect(contact.phoneNumbers["home"] == "444")
        // The same property of the same object, reached another way, is the same map (Realm's `==`).
        let fetched = try #require(realm.objects(Friend.self).first { $0.phoneNumbers["work"] == "333" })
        #expect(contact.phoneNumbers == fetched.phoneNumbers)
        #expect(
            Dictionary(uniqueKeysWithValues: contact.phoneNumbers.map { ($0.key, $0.value) })
                == ["home": "444", "work": "333"])
        #expect(contact.phoneNumbers != same)
    }

    @Test func valueForKeyOnCollections() throws {
        let realm = try everydayRealm()
        let list = TaskList()
        list.items.append(objectsIn: [ChecklistItem(value: ["title": "a"]), ChecklistItem(value: ["title": "b"])])
        let ann = Friend(value: ["name": "Ann"])
        let bob = Friend(value: ["name": "Bob", "friend": ann])
        try realm.write {
            realm.add(list)
            realm.add(bob)
        }
        #expect(list.items.value(forKey: "title") as! [String] == ["a", "b"])
        #expect(realm.objects(ChecklistItem.self).value(forKey: "title") as! [String] == ["a", "b"])
        #expect(
            realm.objects(Friend.self).where { $0.name == "Bob" }.value(forKeyPath: "friend.name") as! [String]
                == ["Ann"])
        try realm.write { list.items.setValue("z", forKey: "title") }
        #expect(list.items.map(\.title) == ["z", "z"])
    }

    @Test func realmNotificationsAfterEveryCommit() throws {
        let realm = try everydayRealm()
        var notifications: [Realm.Notification] = []
        let token = realm.observe { notification, realm in
            notifications.append(notification)
            _ = realm.objects(Friend.self).count
        }
        try realm.write { realm.add(Friend()) }
        try realm.write { realm.add(Friend()) }
        #expect(notifications == [.didChange, .didChange])
        token.invalidate()
        try realm.write { realm.add(Friend()) }
        #expect(notifications.count == 2)
    }

    @Test func sectionedResultsByAKeyPathAndByABlock() throws {
        let realm = try everydayRealm()
        try realm.write {
            for (name, group) in [("Bea", "work"), ("Al", "family"), ("Cy", "work"), ("Alma", "family")] {
                realm.add(Friend(value: ["name": name, "group": group]))
            }
        }
        let byGroup = realm.objects(Friend.self).sectioned(by: \.group, ascending: true)
        #expect(byGroup.allKeys == ["family", "work"])
        #expect(byGroup[0].map(\.name).sorted() == ["Al", "Alma"])
        #expect(byGroup[IndexPath(item: 0, section: 1)].group == "work")
        let byLetter = realm.objects(Friend.self).sectioned(
            by: { String($0.name.first!) },
            sortDescriptors: [
                SortDescriptor(
                    keyPath: "name",
                    ascending: true)
            ])
        #expect(byLetter.allKeys == ["A", "B", "C"])
        #expect(byLetter.map(\.count) == [2, 1, 1])
        #expect(byLetter[0].key == "A")
        try realm.write { realm.add(Friend(value: ["name": "Dee"])) }
        #expect(byLetter.allKeys == ["A", "B", "C", "D"])
    }

    @Test func comparisonsThroughCollectionsOfValues() throws {
        let realm = try everydayRealm()
        let good = TaskList(value: ["name": "good"])
        good.items.append(ChecklistItem(value: ["title": "x", "ratings": [1, 5]]))
        let poor = TaskList(value: ["name": "poor"])
        poor.items.append(ChecklistItem(value: ["title": "y", "ratings": [1, 2]]))
        try realm.write { realm.add([good, poor]) }
        #expect(realm.objects(TaskList.self).where { $0.items.ratings > 3 }.map(\.name) == ["good"])
        #expect(realm.objects(ChecklistItem.self).where { $0.ratings >= 2 }.map(\.title) == ["x", "y"])
        #expect(realm.objects(ChecklistItem.self).where { $0.ratings == 5 }.map(\.title) == ["x"])
        #expect(realm.objects(ChecklistItem.self).where { $0.ratings < 1 }.isEmpty)
    }

    @Test func asyncOpenAndAsyncWrite() async throws {
        let config = Realm.Configuration(inMemoryIdentifier: "async-\(UUID().uuidString)", objectTypes: [Friend.self])
        let realm = try await Realm(configuration: config)
        let name = try await realm.asyncWrite {
            realm.create(Friend.self, value: ["name": "Ann"]).name
        }
        #expect(name == "Ann")
        #expect(realm.objects(Friend.self).count == 1)
        await #expect(throws: Stop.self) {
            try await realm.asyncWrite { () throws -> Void in
                realm.add(Friend())
                throw Stop()
            }
        }
        #expect(realm.objects(Friend.self).count == 1)
    }

    @Test func actorIsolatedRealm() async throws {
        let store = try await FriendStore(identifier: "actor-\(UUID().uuidString)")
        try await store.add(name: "Ann")
        try await store.add(name: "Bob")
        #expect(await store.count() == 2)
    }

    @Test func writeAsyncCommitsAndReportsToOnComplete() throws {
        let realm = try everydayRealm()
        var completed: [String] = []
        realm.writeAsync(
            { realm.add(Friend(value: ["name": "Ann"])) },
            onComplete: { error in
                completed.append(error == nil ? "ok" : "\(error!)")
            })
        #expect(completed == ["ok"])
        #expect(realm.objects(Friend.self).count == 1)
        #expect(!realm.isPerformingAsynchronousWriteOperations)
        let id = realm.beginAsyncWrite { realm.add(Friend(value: ["name": "Bob"])) }
        #expect(realm.isPerformingAsynchronousWriteOperations)
        try realm.cancelAsyncWrite(id)
        #expect(realm.objects(Friend.self).count == 1)
    }

    @Test func asyncWriteErrorsWithoutATransaction() throws {
        let realm = try everydayRealm()
        var message = ""
        realm.commitAsyncWrite { error in message = "\(error.map { String(describing: $0) } ?? "nil")" }
        #expect(message.contains("Can't commit a non-existing write transaction"))
        #expect(throws: (any Error).self) { try realm.cancelAsyncWrite(7) }
    }
}

private struct Stop: Error {}

actor FriendStore {
    var realm: Realm!

    init(identifier: String) async throws {
        realm = try await Realm(
            configuration: .init(inMemoryIdentifier: identifier, objectTypes: [Friend.self]),
            actor: self)
    }

    func add(name: String) async throws {
        try await realm.asyncWrite {
            realm.create(Friend.self, value: ["name": name])
        }
    }

    func count() -> Int { realm.objects(Friend.self).count }
}

@Suite struct CompactOnLaunchTests {
    @Test func shouldCompactOnLaunchGetsTheSizesAndCompacts() throws {
        let tmp = try TemporaryFolder("compact")
        let folder = tmp.url
        let url = folder.appendingPathComponent("default.realm")
        do {
            let realm = try Realm(configuration: .init(fileURL: url, objectTypes: [Friend.self]))
            try realm.write {
                for i in 0..<2000 { realm.add(Friend(value: ["name": String(repeating: "x", count: 200) + "\(i)"])) }
            }
            try realm.write { realm.deleteAll() }
        }
        var asked: [(Int, Int)] = []
        let config = Realm.Configuration(
            fileURL: url,
            shouldCompactOnLaunch: { totalBytes, usedBytes in
                asked.append((totalBytes, usedBytes))
                return (Double(usedBytes) / Double(totalBytes)) < 0.5
            }, objectTypes: [Friend.self])
        do {
            let realm = try Realm(configuration: config)
            #expect(realm.isEmpty)
        }
        #expect(asked.count == 1)
        #expect(asked[0].1 < asked[0].0 / 2)
        do { _ = try Realm(configuration: config) }
        #expect(asked.count == 2)
        #expect(asked[1].0 < asked[0].0)
        #expect(asked[1].1 * 2 > asked[1].0)
    }
}

@Suite struct ThreadSafeTests {
    final class Holder: @unchecked Sendable {
        @ThreadSafe var friend: Friend?
        @ThreadSafe var everyone: Results<Friend>?
    }

    @Test func threadSafePropertiesResolveOnAnotherThread() async throws {
        let config = Realm.Configuration(
            inMemoryIdentifier: "threadsafe-\(UUID().uuidString)",
            objectTypes: [Friend.self])
        let realm = try await Realm(configuration: config)
        let ann = Friend(value: ["name": "Ann"])
        try realm.write { realm.add(ann) }
        let holder = Holder()
        holder.friend = ann
        holder.everyone = realm.objects(Friend.self)
        let names: [String] = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: [holder.friend?.name ?? "nil", "\(holder.everyone?.count ?? -1)"])
            }
        }
        #expect(names == ["Ann", "1"])
        try realm.write { realm.delete(ann) }
        #expect(holder.friend == nil)
        holder.friend = nil
        #expect(holder.friend == nil)
    }
}
