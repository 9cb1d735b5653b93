import Foundation
import RealmSwift
import Testing

// Realm's actor-isolated notifications, as its documentation ("Use Realm with Actors") writes
// them: `await results.observe(on: actor) { actor, changes in }` (issue 22).

actor DogObserver {
    var realm: Realm!
    var seen: [String] = []
    var token: NotificationToken?

    init(inMemoryIdentifier: String) async throws {
        let configuration = Realm.Configuration(
            inMemoryIdentifier: inMemoryIdentifier, objectTypes: [Dog.self, Person.self, Address.self])
        realm = try await Realm(configuration: configuration, actor: self)
    }

    func observeDogs() async {
        token = await realm.objects(Dog.self).observe(on: self) { actor, changes in
            switch changes {
            case .initial(let dogs): actor.seen.append("initial \(dogs.count)")
            case .update(let dogs, let deletions, let insertions, _):
                actor.seen.append("update \(dogs.count) -\(deletions.count) +\(insertions.count)")
            case .error(let error): actor.seen.append("error \(error)")
            }
        }
    }

    func addDog(_ name: String) async throws {
        try await realm.asyncWrite { realm.add(Dog(value: ["name": name])) }
    }

    func stop() { token?.invalidate() }
}

@Suite struct ActorObserveTests {
    private func waitFor(_ observer: DogObserver, count: Int) async -> [String] {
        for _ in 0..<500 {
            let seen = await observer.seen
            if seen.count >= count { return seen }
            try? await _Concurrency.Task.sleep(nanoseconds: 2_000_000)
        }
        return await observer.seen
    }

    @Test func changesAreDeliveredOnTheActorInOrder() async throws {
        let observer = try await DogObserver(inMemoryIdentifier: "actor-observe-\(UUID().uuidString)")
        await observer.observeDogs()
        _ = await waitFor(observer, count: 1)
        try await observer.addDog("Rex")
        _ = await waitFor(observer, count: 2)
        try await observer.addDog("Max")
        let seen = await waitFor(observer, count: 3)
        #expect(seen == ["initial 0", "update 1 -0 +1", "update 2 -0 +1"])
        await observer.stop()
        try await observer.addDog("Bo")
        try? await _Concurrency.Task.sleep(nanoseconds: 20_000_000)
        #expect(await observer.seen.count == 3)
    }

    @Test func anObjectIsObservedOnTheActor() async throws {
        let identifier = "actor-object-\(UUID().uuidString)"
        let realm = try await Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: identifier, objectTypes: [Dog.self, Person.self, Address.self]))
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try await realm.asyncWrite { realm.add(dog) }
        let observer = try await DogObserver(inMemoryIdentifier: identifier)
        let token = await dog.observe(keyPaths: ["age"], on: observer) { actor, change in
            if case .change(let object, let properties) = change {
                actor.seen.append("\(object.name) \(properties.map(\.name))")
            }
        }
        try await realm.asyncWrite { dog.age = 2 }
        let seen = await waitFor(observer, count: 1)
        #expect(seen == ["Rex [\"age\"]"])
        token.invalidate()
    }
}
