import Foundation
import Testing
import RealmSwift
import PorterTestSupport

// Realm's "Migrate a Realm" example: version 1 has firstName/lastName/age, version 2 joins the
// names into fullName and renames age to yearsSinceBirth.
enum PersonV1 {
    class Person: Object {
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var age = 0
    }
}

enum PersonV2 {
    class Person: Object {
        @Persisted var fullName = ""
        @Persisted var yearsSinceBirth = 0
        @Persisted var born: Date?
    }
}

extension TemporaryFolder {
    /// A version-1 realm with one person.
    func versionOneFile() throws -> URL {
        let file = url.appendingPathComponent("people.realm")
        let v1 = try Realm(
            configuration: Realm.Configuration(fileURL: file, schemaVersion: 1, objectTypes: [PersonV1.Person.self]))
        try v1.write { v1.add(PersonV1.Person(value: ["firstName": "Ada", "lastName": "Lovelace", "age": 36])) }
        return file
    }
}

@Suite struct MigrationTests {
    @Test func realmDocumentationMigrationBlock() throws {
        let dir = try TemporaryFolder()
        defer { withExtendedLifetime(dir) {} }
        let url = try dir.versionOneFile()
        let config = Realm.Configuration(
            fileURL: url,
            schemaVersion: 2,
            migrationBlock: { migration, oldSchemaVersion in
                if oldSchemaVersion < 2 {
                    migration.enumerateObjects(ofType: PersonV2.Person.className()) { oldObject, newObject in
                        let firstName = oldObject!["firstName"] as! String
                        let lastName = oldObject!["lastName"] as! String
                        newObject!["fullName"] = "\(firstName) \(lastName)"
                        newObject!["born"] = Date(timeIntervalSince1970: 0)
                    }
                    migration.renameProperty(onType: PersonV2.Person.className(), from: "age", to: "yearsSinceBirth")
                }
            },
            objectTypes: [PersonV2.Person.self])
        let realm = try Realm(configuration: config)
        let person = try #require(realm.objects(PersonV2.Person.self).first)
        #expect(person.fullName == "Ada Lovelace" && person.yearsSinceBirth == 36)
        #expect(person.born == Date(timeIntervalSince1970: 0))
    }

    @Test func aFailingCallFailsTheMigrationAndChangesNothing() throws {
        let dir = try TemporaryFolder()
        defer { withExtendedLifetime(dir) {} }
        let url = try dir.versionOneFile()
        let config = Realm.Configuration(
            fileURL: url, schemaVersion: 2,
            migrationBlock: { migration, _ in
                migration.renameProperty(onType: "Person", from: "agee", to: "yearsSinceBirth")
            }, objectTypes: [PersonV2.Person.self])
        #expect(throws: (any Error).self) { try Realm(configuration: config) }
        let reopened = try Realm(
            configuration: Realm.Configuration(fileURL: url, schemaVersion: 1, objectTypes: [PersonV1.Person.self]))
        #expect(reopened.objects(PersonV1.Person.self).first?.age == 36)
    }
}
