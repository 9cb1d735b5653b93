import Foundation
import Porter

// Version 2 of the model `Fixtures/data/dogs-v1-fixture.json` was written with: `Owner.name` is
// renamed `fullName`, and `Owner.age` is replaced by `birthYear` (computed by the migration).
// Swift names carry a prefix so they do not clash with the other test models.

/// An owner at schema version 2.
final class FixtureOwner: Object {
    override class func _realmObjectName() -> String? { "Owner" }
    @Persisted(primaryKey: true) var _id: String
    @Persisted var fullName: String
    @Persisted var birthYear: Int
    @Persisted var dogs: List<FixtureDog>
    @Persisted var home: FixtureHome?
}

/// A dog, unchanged since version 1.
final class FixtureDog: Object {
    override class func _realmObjectName() -> String? { "Dog" }
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name: String
    @Persisted var born: Date
    @Persisted var owner: FixtureOwner?
    @Persisted var toys: List<FixtureToy>
}

/// A toy: no primary key, so the fixture links to it by `_key`.
final class FixtureToy: Object {
    override class func _realmObjectName() -> String? { "Toy" }
    @Persisted var label: String
}

/// An owner's home, embedded.
final class FixtureHome: EmbeddedObject {
    override class func _realmObjectName() -> String? { "Home" }
    @Persisted var street: String
    @Persisted var city: String
}

/// The version-2 model classes.
let fixtureV2Types: [ObjectBase.Type] = [FixtureOwner.self, FixtureDog.self, FixtureToy.self, FixtureHome.self]

/// The migration from version 1: renames `name` and turns `age` into `birthYear`.
let fixtureV2Migration: Realm.MigrationBlock = { migration, oldVersion in
    guard oldVersion < 2 else { return }
    migration.renameProperty(onType: "Owner", from: "name", to: "fullName")
    migration.enumerateObjects(ofType: "Owner") { old, new in
        guard case .int(let age)? = old?["age"] else { return }
        new?["birthYear"] = .int(2025 - age)
    }
}

/// An in-memory realm of the version-2 model with `block` as its migration block.
func fixtureV2Realm(block: Realm.MigrationBlock? = fixtureV2Migration, _ label: String = #function) throws -> Realm {
    var config = Realm.Configuration(
        inMemoryIdentifier: "\(label)-\(UUID().uuidString)", schemaVersion: 2, objectTypes: fixtureV2Types)
    config.migrationBlock = block
    return try Realm(configuration: config)
}
