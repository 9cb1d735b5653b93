import Foundation
import RealmSwift

/// A fresh in-memory realm per test, set up as Realm's test cases do
/// (`Realm.Configuration(inMemoryIdentifier:)`).
func testRealm(_ name: String = #function) throws -> Realm {
    let config = Realm.Configuration(
        inMemoryIdentifier: "\(name)-\(UUID().uuidString)",
        objectTypes: [
            Dog.self, Person.self, Address.self, Task.self, Project.self,
            Location.self, Landmark.self, Money.self, LegacyKeyed.self,
        ])
    return try Realm(configuration: config)
}
