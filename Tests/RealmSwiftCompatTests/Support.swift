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

/// The default configuration is one for the whole process: tests that change it (as Realm's
/// XCTest cases do in `setUp`) take turns. A semaphore, not a lock: a suite's `init` (setUp) and
/// `deinit` (tearDown) may run on different threads.
enum DefaultConfigurationTurn {
    private static let semaphore = DispatchSemaphore(value: 1)
    /// Waits for the turn.
    static func begin() { semaphore.wait() }
    /// Hands the turn on.
    static func end() { semaphore.signal() }
}
