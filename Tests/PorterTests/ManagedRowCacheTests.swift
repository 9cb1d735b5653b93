import Foundation
import PorterStore
import Testing
@testable import Porter
import PorterTestSupport

/// Managed objects keep the stored values they read (one row per object) while the database is
/// unchanged: every way the data can change under them must make them read again.
@Suite struct ManagedRowCacheTests {
    /// A file realm holding one dog named "Rex", read once so its row is cached.
    private func realmWithRex(_ dir: TemporaryFolder) throws -> (Realm, Dog) {
        let realm = try fileRealm(dir.file("cache.realm"))
        try realm.write { realm.add(Dog(value: ["name": "Rex", "breed": "lab"])) }
        let rex = try #require(realm.objects(Dog.self).first)
        #expect(rex.name == "Rex" && rex.breed == "lab")
        return (realm, rex)
    }

    /// Sets a property of the dog through another connection to the file, as another process would.
    private func setThroughAnotherConnection(_ dir: TemporaryFolder, _ property: String, _ value: String) throws {
        let other = try Database.open(at: dir.file("cache.realm").path)
        let key = try #require(try other.allKeys("Dog").first)
        try other.write { try other.set("Dog", key, property, .string(value)) }
    }

    @Test func anotherConnectionsCommitIsSeenAfterRefresh() throws {
        let dir = try TemporaryFolder()
        let (realm, rex) = try realmWithRex(dir)
        try setThroughAnotherConnection(dir, "name", "Max")
        realm.refresh()
        #expect(rex.name == "Max")
        #expect(rex.breed == "lab")
    }

    @Test func anotherConnectionsCommitIsSeenAfterAQuery() throws {
        let dir = try TemporaryFolder()
        let (realm, rex) = try realmWithRex(dir)
        try setThroughAnotherConnection(dir, "breed", "husky")
        // Any statement on the realm's connection shows it the other connection's commit.
        #expect(realm.objects(Dog.self).where { $0.breed == "husky" }.count == 1)
        #expect(rex.breed == "husky")
    }

    @Test func anotherThreadsRealmCommitIsSeenAfterRefresh() throws {
        let dir = try TemporaryFolder()
        let (realm, rex) = try realmWithRex(dir)
        let config = ConfigurationBox(value: realm.configuration)
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let other = try? Realm(configuration: config.value), let dog = other.objects(Dog.self).first {
                try? other.write { dog.breed = "poodle" }
            }
            done.signal()
        }.start()
        done.wait()
        realm.refresh()
        #expect(rex.breed == "poodle")
    }

    @Test func cancelledChangesAreNotReadFromTheCache() throws {
        let dir = try TemporaryFolder()
        let (realm, rex) = try realmWithRex(dir)
        realm.beginWrite()
        rex.name = "Changed"
        #expect(rex.name == "Changed")  // read (and cached) inside the write
        realm.cancelWrite()
        #expect(rex.name == "Rex")
        #expect(rex.breed == "lab")
    }

    @Test func aFailedWriteIsNotReadFromTheCache() throws {
        let dir = try TemporaryFolder()
        let (realm, rex) = try realmWithRex(dir)
        #expect(throws: PorterError.self) {
            try realm.write {
                rex.name = "Changed"
                #expect(rex.name == "Changed")
                throw PorterError(.usage, "stop")
            }
        }
        #expect(rex.name == "Rex")
    }

    @Test func aDeletedObjectIsNotReadFromTheCache() throws {
        let dir = try TemporaryFolder()
        let (realm, rex) = try realmWithRex(dir)
        let same = try #require(realm.objects(Dog.self).first)
        try realm.write { realm.delete(same) }
        #expect(rex.isInvalidated)
        realm.clearReadError()
        #expect(rex.name == "")  // the fallback, with the reason recorded
        #expect(realm.lastReadError?.code == .notFound)
    }

    @Test func objectsIteratedBeforeAChangeReadTheNewValues() throws {
        let realm = try memoryRealm()
        try realm.write {
            for i in 0..<600 { realm.add(Dog(value: ["name": "dog \(i)"])) }
        }
        var seen = 0
        try realm.write {
            for dog in realm.objects(Dog.self) {
                // Changing one object moves every prefetched row's stamp: later ones read again.
                dog.breed = "b\(seen)"
                #expect(dog.breed == "b\(seen)")
                #expect(dog.name == "dog \(seen)")
                seen += 1
            }
        }
        #expect(seen == 600)
        #expect(realm.objects(Dog.self).map(\.breed) == (0..<600).map { "b\($0)" })
    }

    @Test func objectsAddedInACancelledWriteAreUnmanagedAgain() throws {
        let realm = try memoryRealm()
        let dogs = (0..<3).map { Dog(value: ["name": "dog \($0)"]) }
        realm.beginWrite()
        for dog in dogs { realm.add(dog) }
        #expect(dogs.allSatisfy { $0.realm != nil })
        realm.cancelWrite()
        #expect(dogs.allSatisfy { $0.realm == nil && !$0.isInvalidated })
        #expect(dogs.map(\.name) == ["dog 0", "dog 1", "dog 2"])
        // They can be added again, and stay managed once committed.
        try realm.write { for dog in dogs { realm.add(dog) } }
        realm.cancelWrite()
        #expect(dogs.allSatisfy { $0.realm != nil })
        #expect(realm.objects(Dog.self).count == 3)
    }
}

/// Hands a configuration to another thread (it is used there only).
private final class ConfigurationBox: @unchecked Sendable {
    let value: Realm.Configuration
    init(value: Realm.Configuration) { self.value = value }
}
