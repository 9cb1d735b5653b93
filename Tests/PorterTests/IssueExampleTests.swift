import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// The model exactly as the typed-models issue writes it (nested in a namespace so its class
/// names, which are the unqualified Swift names, do not clash with the fixture models).
enum IssueExample {
    final class Dog: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted(indexed: true) var name = ""
        @Persisted var breed: String?
        @Persisted var dateOfBirth = Date()
        @Persisted var favoriteToys: List<DogToy>
        @Persisted var owner: Person?  // to-one: must be optional
        @Persisted var address: Address?  // embedded
        @Persisted var status = Status.active  // PersistableEnum, stored as its raw value
        @Persisted var tags: MutableSet<String>
        @Persisted var ratings: Map<String, Int?>
        @Persisted var extra: AnyRealmValue
        @Persisted var homepage: URL?  // type projection, stored as a string
        var isSelected = false  // not @Persisted: ignored, never stored
    }
    final class DogToy: Object { @Persisted var name = "" }
    final class Person: Object {
        @Persisted(primaryKey: true) var _id: UUID
        @Persisted var dogs: List<Dog>
        @Persisted(originProperty: "owner") var walkedDogs: LinkingObjects<Dog>
    }
    final class Address: EmbeddedObject { @Persisted var street = ""; @Persisted var city = "" }
    enum Status: String, PersistableEnum { case active, retired }

    static let types: [ObjectBase.Type] = [Dog.self, DogToy.self, Person.self, Address.self]
}

@Suite struct IssueExampleTests {
    @Test func schemaOfTheIssueModel() throws {
        let schema = try Schema(objectTypes: IssueExample.types)
        let dog = try #require(schema["Dog"])
        #expect(dog.primaryKey == "_id")
        #expect(
            dog.properties.map(\.typeShorthand) == [
                "objectId", "string", "string?", "date", "DogToy[]", "Person?",
                "Address?", "string", "string<>", "int?{}", "mixed", "string?",
            ])
        #expect(dog.property(named: "name")?.isIndexed == true)
        #expect(dog.property(named: "name")?.defaultValue == .string(""))
        #expect(dog.property(named: "dateOfBirth")?.defaultValue == nil, "Date() differs per object")
        #expect(dog.property(named: "status")?.defaultValue == .string("active"))
        #expect(
            schema["Person"]?.property(named: "walkedDogs")
                == .linkingObjects("walkedDogs", originClass: "Dog", originProperty: "owner"))
        #expect(schema["Address"]?.isEmbedded == true)
    }

    @Test func theIssueModelRoundTripsThroughAFile() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("issue.realm")
        let config = Realm.Configuration(fileURL: url, objectTypes: IssueExample.types)
        let born = Date(timeIntervalSince1970: 1_600_000_000)
        do {
            let realm = try Realm(configuration: config)
            let person = IssueExample.Person()
            let dog = IssueExample.Dog()
            dog.name = "Rex"
            dog.dateOfBirth = born
            dog.owner = person
            dog.status = .retired
            dog.homepage = URL(string: "https://rex.dog")
            dog.extra = .int(7)
            let address = IssueExample.Address()
            address.city = "Oslo"
            dog.address = address
            person.dogs.append(dog)
            try realm.write { realm.add(person) }
        }
        let realm = try Realm(configuration: config)
        let person = try #require(realm.objects(IssueExample.Person.self).first)
        let dog = try #require(person.walkedDogs.first)
        #expect(dog.name == "Rex" && dog.dateOfBirth == born && dog.status == .retired)
        #expect(
            dog.homepage?.absoluteString == "https://rex.dog" && dog.extra == .int(7) && dog.address?.city == "Oslo")
        #expect(person.dogs.first == dog)
    }
}
