import Foundation
import Testing
import PorterTestSupport
import RealmSwift

/// Notifications as Realm's "React to Changes" page registers them.
@Suite struct NotificationTests {
    @Test func resultsNotifications() throws {
        let realm = try testRealm()
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "name")
        var changes: [String] = []
        let token = dogs.observe { (changes_: RealmCollectionChange) in
            switch changes_ {
            case .initial(let results):
                changes.append("initial \(results.count)")
            case .update(_, let deletions, let insertions, let modifications):
                changes.append("update d\(deletions) i\(insertions) m\(modifications)")
            case .error(let error):
                Issue.record("\(error)")
            }
        }
        try realm.write { realm.add([Dog(value: ["name": "b"]), Dog(value: ["name": "d"])]) }
        try realm.write { realm.add(Dog(value: ["name": "a"])) }
        try realm.write { dogs[2].age = 5 }
        try realm.write { realm.delete(dogs[1]) }
        try realm.write { dogs[0].name = "z" }  // moves from first to last
        try realm.write {}  // nothing changed: no notification
        token.invalidate()
        try realm.write { realm.add(Dog(value: ["name": "c"])) }
        #expect(
            changes == [
                "initial 0", "update d[] i[0, 1] m[]", "update d[] i[0] m[]", "update d[] i[] m[2]",
                "update d[1] i[] m[]", "update d[0] i[1] m[]",
            ])
    }

    @Test func objectNotifications() throws {
        let realm = try testRealm()
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        var seen: [String] = []
        let token = dog.observe { change in
            switch change {
            case .change(let object, let properties):
                for property in properties {
                    seen.append(
                        "\(object.name): \(property.name) \(property.oldValue ?? "nil") -> \(property.newValue ?? "nil")"
                    )
                }
            case .error(let error):
                Issue.record("\(error)")
            case .deleted:
                seen.append("deleted")
            }
        }
        try realm.write { dog.age = 2 }
        try realm.write { dog.currentCity = "Oslo" }
        try realm.write { realm.delete(dog) }
        #expect(seen == ["Rex: age 1 -> 2", "Rex: currentCity  -> Oslo", "deleted"])
        token.invalidate()
    }

    @Test func keyPathFilters() throws {
        let realm = try testRealm()
        let dog = Dog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        var objectCalls = 0
        var collectionMods: [[Int]] = []
        let objectToken = dog.observe(keyPaths: ["name"]) { _ in objectCalls += 1 }
        let typedToken = dog.observe(keyPaths: [\Dog.age]) { _ in objectCalls += 10 }
        let resultsToken = realm.objects(Dog.self).observe(keyPaths: ["age"]) { change in
            if case .update(_, _, _, let modifications) = change { collectionMods.append(modifications) }
        }
        try realm.write { dog.currentCity = "Oslo" }
        try realm.write { dog.name = "Max" }
        try realm.write { dog.age = 3 }
        #expect(objectCalls == 11)
        #expect(collectionMods == [[0]])
        var typedMods: [[Int]] = []
        let typedResultsToken = realm.objects(Dog.self).observe(keyPaths: [\Dog.name]) { change in
            if case .update(_, _, _, let modifications) = change { typedMods.append(modifications) }
        }
        try realm.write { dog.age = 4 }
        try realm.write { dog.name = "Rex" }
        try realm.write(withoutNotifying: [typedResultsToken]) { dog.name = "Quiet" }
        #expect(typedMods == [[0]])
        _ = (objectToken, typedToken, resultsToken, typedResultsToken)
    }

    @Test func listSetAndMapNotifications() throws {
        let realm = try testRealm()
        let person = Person()
        try realm.write { realm.add(person) }
        var log: [String] = []
        let listToken = person.dogs.observe { change in
            if case .update(let list, let d, let i, let m) = change {
                log.append("list \(list.count) d\(d) i\(i) m\(m)")
            }
        }
        let setToken = person.tags.observe { change in
            if case .update(_, let d, let i, _) = change { log.append("set d\(d) i\(i)") }
        }
        let mapToken = person.favoriteParksByCity.observe { change in
            if case .update(_, let d, let i, let m) = change { log.append("map d\(d) i\(i) m\(m)") }
        }
        try realm.write { person.dogs.append(Dog(value: ["name": "Rex"])) }
        try realm.write { person.dogs[0].age = 4 }
        try realm.write { person.tags.insert("x") }
        try realm.write { person.favoriteParksByCity["Oslo"] = "Frogner" }
        try realm.write { person.favoriteParksByCity["Oslo"] = "Vigeland" }
        #expect(
            log == [
                "list 1 d[] i[0] m[]", "list 1 d[] i[] m[0]", "set d[] i[0]", "map d[] i[0] m[]", "map d[] i[] m[0]",
            ])
        _ = (listToken, setToken, mapToken)
    }

    @Test func deliveryOnADispatchQueue() async throws {
        let name = "queue-\(UUID().uuidString)"
        let config = Realm.Configuration(inMemoryIdentifier: name, objectTypes: [Dog.self, Person.self, Address.self])
        let realm = try await Realm(configuration: config)
        let queue = DispatchQueue(label: "observer")
        let received = Received()
        let token = realm.objects(Dog.self).observe(on: queue) { change in
            switch change {
            case .initial(let dogs): received.append("initial \(dogs.count)")
            case .update(let dogs, _, let insertions, _):
                received.append("update \(dogs.count) \(insertions) \(dogs.first?.name ?? "")")
            case .error: received.append("error")
            }
        }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(received.values == ["initial 0", "update 1 [0] Rex"])
        token.invalidate()
    }

    @Test func refreshDeliversAnotherRealmsCommits() throws {
        let tmp = try TemporaryFolder("refresh")
        let dir = tmp.url
        let config = Realm.Configuration(
            fileURL: dir.appendingPathComponent("r.realm"), objectTypes: [Dog.self, Person.self, Address.self])
        let reader = try Realm(configuration: config)
        var counts: [Int] = []
        let token = reader.objects(Dog.self).observe { change in
            if case .update(let dogs, _, _, _) = change { counts.append(dogs.count) }
        }
        // Another connection to the same file, as another process would have.
        let writer = try Realm(configuration: config)
        try writer.write { writer.add(Dog(value: ["name": "Rex"])) }
        #expect(counts == [1])  // same thread, same file: delivered at once
        #expect(reader.refresh() == false)
        // A commit from another thread's connection (as from another process) arrives on refresh().
        let shared = Box(config)
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let other = try? Realm(configuration: shared.value) {
                try? other.write { other.add(Dog(value: ["name": "Max"])) }
            }
            done.signal()
        }.start()
        done.wait()
        #expect(counts == [1])
        #expect(reader.refresh() == true)
        #expect(counts == [1, 2])
        _ = token
    }
}

/// Collects strings from the delivery queue.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var values: [String] { lock.withLock { items } }
}

/// Hands a value to another thread in a test.
final class Box<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
