import PorterTestSupport
import RealmSwift
import Testing

// Realm Swift code as public code writes it, round two (issue 36). This file imports RealmSwift
// and not Foundation: `Data`, `Date`, `UUID`, `JSONEncoder` … come through RealmSwift, as
// through Realm's module.

// MARK: - Models

/// A model with its own initializers, as apps write them: an override of `init()` and a
/// designated initializer of its own.
class Greeting: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var text = ""
    @Persisted var language = "en"
    /// Not persisted: set by the initializers.
    var madeBy = ""

    override init() {
        super.init()
        madeBy = "init()"
    }

    init(text: String, language: String) {
        super.init()
        self.text = text
        self.language = language
        madeBy = "init(text:language:)"
    }
}

/// An embedded model overriding `init()`.
class Signature: EmbeddedObject {
    @Persisted var name = ""
    var note = ""

    override init() {
        super.init()
        note = "made"
    }
}

class Letter: Object {
    @Persisted var subject = ""
    @Persisted var signature: Signature?
}

/// A model declaring `Codable` whose `@Persisted` properties are all Codable (the synthesized
/// coding is used): a list of embedded objects, an optional link, a map, a set, an optional.
class Trip: Object, Codable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var budget: Decimal128
    @Persisted var stops: List<TripStop>
    @Persisted var guide: Guide?
    @Persisted var ratings: Map<String, Int>
    @Persisted var tags: MutableSet<String>
    @Persisted var note: String?
    @Persisted var start: Date
}

class TripStop: EmbeddedObject, Codable {
    @Persisted var city = ""
    @Persisted var nights = 0
}

class Guide: Object, Codable {
    @Persisted var name = ""
    @Persisted var languages: List<String>
}

/// A model with two properties of one enum type.
class Ticket: Object {
    @Persisted var title = ""
    @Persisted var status = TaskStatusEnum.notStarted
    @Persisted var lastStatus = TaskStatusEnum.notStarted
    @Persisted var estimate = 0
    @Persisted var spent = 0
    @Persisted var assignee: Person?
    @Persisted var reviewer = ""
}

/// A model with a set of objects.
class Pack: Object {
    @Persisted var name = ""
    @Persisted var members: MutableSet<Dog>
}

private let roundTwoTypes: [ObjectBase.Type] = [
    Dog.self, Person.self, Address.self, Greeting.self, Signature.self, Letter.self, Trip.self, TripStop.self,
    Guide.self, Ticket.self, Pack.self,
]

private func roundTwoRealm(_ name: String = #function) throws -> Realm {
    try Realm(
        configuration: Realm.Configuration(
            inMemoryIdentifier: "\(name)-\(UUID().uuidString)", objectTypes: roundTwoTypes))
}

// MARK: - deleteAll() on a fresh Realm()

/// Realm's documentation tests as XCTest cases write them: `setUp` points the default
/// configuration at a realm of the test's own, `tearDown` empties it through a fresh `Realm()`
/// (`let realm = try! Realm(); try! realm.write { realm.deleteAll() }`).
@Suite(.serialized) final class FreshRealmTearDownTests {
    private let folder: TemporaryFolder
    private let saved: Realm.Configuration

    /// setUp.
    init() throws {
        folder = try TemporaryFolder("teardown")
        DefaultConfigurationTurn.begin()
        saved = Realm.Configuration.defaultConfiguration
        var config = Realm.Configuration()
        config.fileURL = folder.file("default.realm")
        Realm.Configuration.defaultConfiguration = config
    }

    deinit {
        Realm.Configuration.defaultConfiguration = saved
        DefaultConfigurationTurn.end()
    }

    /// The documentation tests' tearDown.
    private func tearDown() {
        let realm = try! Realm()
        try! realm.write {
            realm.deleteAll()
        }
    }

    @Test func tearDownEmptiesEveryClassOfTheFile() throws {
        // The test's objects are written on another thread (another realm, as a test's code
        // under test may do): tearDown's Realm() is the first of this thread and has used no class.
        let written = DispatchSemaphore(value: 0)
        let url = try #require(Realm.Configuration.defaultConfiguration.fileURL)
        let writer = Thread {
            let realm = try! Realm(fileURL: url)
            try! realm.write {
                realm.add(Dog(value: ["name": "Rex", "owner": ["name": "Ali", "address": ["city": "Oslo"]]]))
                realm.add(Task(value: ["name": "Walk the dog"]))
                realm.add(Money(value: ["id": 1, "amount": "5.25"]))
            }
            written.signal()
        }
        writer.start()
        written.wait()
        tearDown()
        let realm = try Realm()
        #expect(realm.objects(Dog.self).isEmpty)
        #expect(realm.objects(Person.self).isEmpty)
        #expect(realm.objects(Task.self).isEmpty)
        #expect(realm.objects(Money.self).isEmpty)
        #expect(try realm.database.count("Address") == 0)
    }

    @Test func aRealmListingItsObjectTypesEmptiesOnlyThose() throws {
        let url = try #require(Realm.Configuration.defaultConfiguration.fileURL)
        do {
            let realm = try Realm()
            try realm.write {
                realm.add(Dog(value: ["name": "Rex"]))
                realm.add(Money(value: ["id": 1]))
            }
        }
        let moneyOnly = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Money.self]))
        try moneyOnly.write { moneyOnly.deleteAll() }
        let realm = try Realm()
        #expect(realm.objects(Money.self).isEmpty)
        #expect(realm.objects(Dog.self).map(\.name) == ["Rex"])
    }
}

// MARK: - An in-memory realm lives for the process

/// An XCTest case whose `setUp` fills an in-memory realm and releases it; the test opens it again.
@Suite final class InMemorySetUpTests {
    private let configuration: Realm.Configuration

    /// setUp.
    init() throws {
        configuration = Realm.Configuration(
            inMemoryIdentifier: "setUp-\(UUID().uuidString)", objectTypes: [Dog.self, Person.self, Address.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            realm.add(Person(value: ["name": "Ali", "dogs": [["name": "Rex"], ["name": "Fido"]]]))
        }
    }

    @Test func theTestReadsWhatSetUpWrote() throws {
        let realm = try Realm(configuration: configuration)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.name == "Ali")
        #expect(person.dogs.map(\.name) == ["Rex", "Fido"])
    }

    @Test func aRealmOfOtherClassesOpensTheSameMemoryAndLeavesTheRestAlone() throws {
        var moneyOnly = Realm.Configuration(objectTypes: [Money.self])
        moneyOnly.inMemoryIdentifier = configuration.inMemoryIdentifier
        do {
            let realm = try Realm(configuration: moneyOnly)
            try realm.write { realm.add(Money(value: ["id": 7])) }
        }
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).count == 2)
        #expect(try Realm(configuration: moneyOnly).objects(Money.self).map(\.id) == [7])
    }
}

// MARK: - setValue(_:forKey:) with any sequence of objects

@Suite struct SetValueSequenceTests {
    @Test func resultsArraysAndListsAreCopiedIntoAList() throws {
        let realm = try roundTwoRealm()
        let person = Person(value: ["name": "Ali"])
        try realm.write {
            realm.add(Dog(value: ["name": "Rex", "age": 3]))
            realm.add(Dog(value: ["name": "Fido", "age": 5]))
            realm.add(person)
            person.setValue(realm.objects(Dog.self).sorted(byKeyPath: "name"), forKey: "dogs")
        }
        #expect(person.dogs.map(\.name) == ["Fido", "Rex"])

        // Results of the very list being replaced, an array of objects, another object's list.
        try realm.write {
            person.setValue(person.dogs.filter("age > 4"), forKey: "dogs")
        }
        #expect(person.dogs.map(\.name) == ["Fido"])
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        try realm.write { person.setValue([rex, rex], forKey: "dogs") }
        #expect(person.dogs.map(\.name) == ["Rex", "Rex"])
        let copy = Person()
        copy.setValue(person.dogs, forKey: "dogs")
        #expect(copy.dogs.map(\.name) == ["Rex", "Rex"])
        #expect(realm.objects(Dog.self).count == 2)

        // A set of strings from an array, a set from results' values.
        try realm.write { person.setValue(["b", "a", "b"], forKey: "tags") }
        #expect(person.tags.sorted() == ["a", "b"])
        person.realm?.beginWrite()
        person["dogs"] = realm.objects(Dog.self).filter("age < 4")
        try person.realm?.commitWrite()
        #expect(person.dogs.map(\.name) == ["Rex"])
    }
}

// MARK: - Object.init() as a plain designated initializer

@Suite struct OverriddenInitTests {
    @Test func modelsOverridingInitAreMadeAndReadThroughTheirInitializers() throws {
        let realm = try roundTwoRealm()
        let hello = Greeting(text: "hello", language: "en")
        #expect(hello.madeBy == "init(text:language:)")
        let plain = Greeting()
        #expect(plain.madeBy == "init()" && plain.text == "" && plain.language == "en")
        try realm.write {
            realm.add(hello)
            realm.add(Greeting(text: "hallo", language: "de"))
            realm.add(Greeting(value: ["text": "bonjour", "language": "fr"]))
        }
        // Objects a realm hands out are made with the class's init(), then read their stored values.
        let read = realm.objects(Greeting.self).sorted(byKeyPath: "text")
        #expect(read.map(\.text) == ["bonjour", "hallo", "hello"])
        #expect(read.map(\.language) == ["fr", "de", "en"])
        #expect(read.allSatisfy { $0.madeBy == "init()" })

        try realm.write { realm.add(Letter(value: ["subject": "Hi", "signature": ["name": "Ali"]])) }
        let signature = try #require(realm.objects(Letter.self).first?.signature)
        #expect(signature.name == "Ali" && signature.note == "made")
        #expect(Signature().note == "made")
    }
}

// MARK: - Codable models

@Suite struct CodableModelTests {
    private func sampleTrip() throws -> Trip {
        let trip = Trip()
        trip._id = try ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e0f")
        trip.name = "Coast"
        trip.budget = try Decimal128(string: "1234.50")
        trip.stops.append(TripStop(value: ["city": "Bergen", "nights": 2]))
        trip.stops.append(TripStop(value: ["city": "Ålesund", "nights": 1]))
        trip.guide = Guide(value: ["name": "Ola", "languages": ["no", "en"]])
        trip.ratings["food"] = 5
        trip.ratings["weather"] = 2
        trip.tags.insert("fjords")
        trip.start = Date(timeIntervalSince1970: 1_700_000_000)
        return trip
    }

    @Test func aCodableModelRoundTripsThroughJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = try encoder.encode(sampleTrip())
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Realm's forms: ObjectId and Decimal128 as strings, lists and sets as arrays, a map as an
        // object, an unset optional as null.
        #expect(json["_id"] as? String == "5f1b2c3d4e5f6a7b8c9d0e0f")
        #expect(json["budget"] as? String == "1234.50")
        #expect((json["stops"] as? [[String: Any]])?.compactMap { $0["city"] as? String } == ["Bergen", "Ålesund"])
        #expect((json["ratings"] as? [String: Int]) == ["food": 5, "weather": 2])
        #expect(json["tags"] as? [String] == ["fjords"])
        #expect(json["note"] is NSNull)
        #expect((json["guide"] as? [String: Any])?["name"] as? String == "Ola")

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let trip = try decoder.decode(Trip.self, from: data)
        #expect(try trip._id == ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e0f"))
        #expect(try trip.name == "Coast" && trip.budget == Decimal128(string: "1234.50"))
        #expect(trip.stops.map(\.city) == ["Bergen", "Ålesund"] && trip.stops.map(\.nights) == [2, 1])
        #expect(trip.guide?.name == "Ola" && trip.guide?.languages.map { $0 } == ["no", "en"])
        #expect(trip.ratings["food"] == 5 && trip.ratings["weather"] == 2 && trip.ratings.count == 2)
        #expect(Array(trip.tags) == ["fjords"] && trip.note == nil)
        #expect(trip.start == Date(timeIntervalSince1970: 1_700_000_000))

        // The decoded object is an ordinary unmanaged object: added, it is stored as decoded.
        let realm = try roundTwoRealm()
        try realm.write { realm.add(trip) }
        let stored = try #require(realm.object(ofType: Trip.self, forPrimaryKey: trip._id))
        #expect(stored.stops.map(\.city) == ["Bergen", "Ålesund"] && stored.guide?.name == "Ola")
        #expect(try stored.ratings["weather"] == 2 && stored.budget == Decimal128(string: "1234.50"))
    }

    @Test func missingOptionalKeysDecodeAsNilAndBadValuesAreDecodingErrors() throws {
        let json = Data(
            #"{"_id": "5f1b2c3d4e5f6a7b8c9d0e10", "name": "Short", "budget": 12, "stops": [], "ratings": {}, "tags": [], "start": 0}"#
                .utf8)
        let trip = try JSONDecoder().decode(Trip.self, from: json)
        #expect(trip.guide == nil && trip.note == nil && trip.budget == Decimal128(12))
        #expect(trip.name == "Short" && trip.stops.isEmpty)

        let badId = Data(
            #"{"_id": "not-an-id", "name": "", "budget": "1", "stops": [], "ratings": {}, "tags": [], "start": 0}"#.utf8
        )
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Trip.self, from: badId) }
        let missingName = Data(
            #"{"_id": "5f1b2c3d4e5f6a7b8c9d0e10", "budget": "1", "stops": [], "ratings": {}, "tags": [], "start": 0}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Trip.self, from: missingName) }
    }

    @Test func objectIdAndDecimal128CodeAsStrings() throws {
        let id = ObjectId.generate()
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(id.stringValue)\"]")
        #expect(try JSONDecoder().decode([ObjectId].self, from: data) == [id])
        let amounts = try JSONDecoder().decode([Decimal128].self, from: Data(#"["1.5", 2, 0.25]"#.utf8))
        #expect(try amounts == [Decimal128(string: "1.5"), Decimal128(2), Decimal128(0.25)])
        #expect(String(decoding: try JSONEncoder().encode(amounts), as: UTF8.self) == #"["1.5","2","0.25"]"#)
    }
}

// MARK: - Smaller items

@Suite struct SmallerItemsTests {
    @Test func decimal128Negate() throws {
        var amount = try Decimal128(string: "12.5")
        amount.negate()
        #expect(try amount == Decimal128(string: "-12.5"))
        amount.negate()
        #expect(amount.stringValue == "12.5")
    }

    @Test func sortDescriptorDescription() {
        #expect(
            SortDescriptor(keyPath: "age", ascending: false).description
                == "SortDescriptor(keyPath: age, direction: descending)")
        #expect("\(SortDescriptor(keyPath: "name"))" == "SortDescriptor(keyPath: name, direction: ascending)")
    }

    @Test func autoreleasepoolRunsItsBodyAndRethrows() throws {
        let realm = try roundTwoRealm()
        let count = try autoreleasepool {
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
            return realm.objects(Dog.self).count
        }
        #expect(count == 1)
        struct Halt: Error {}
        #expect(throws: Halt.self) { try autoreleasepool { throw Halt() } }
    }

    @Test func foundationNamesComeWithRealmSwift() throws {
        let payload = try JSONSerialization.data(withJSONObject: ["name": "Rex"])
        #expect(payload.isEmpty == false)
        let id = UUID()
        #expect(UUID(uuidString: id.uuidString) == id)
        #expect(FileManager.default.fileExists(atPath: NSTemporaryDirectory()))
    }
}

// MARK: - The query DSL: property against property

@Suite struct PropertyComparisonQueryTests {
    @Test func propertiesCompareWithPropertiesOfTheirType() throws {
        let realm = try roundTwoRealm()
        try realm.write {
            realm.add(
                Ticket(value: [
                    "title": "A", "status": "complete", "lastStatus": "inProgress", "estimate": 3, "spent": 5,
                    "assignee": ["name": "Ali"], "reviewer": "Ali",
                ]))
            realm.add(
                Ticket(value: [
                    "title": "B", "status": "inProgress", "lastStatus": "inProgress", "estimate": 8, "spent": 2,
                    "assignee": ["name": "Bo"], "reviewer": "Cy",
                ]))
            realm.add(Ticket(value: ["title": "C", "estimate": 4, "spent": 4]))
        }
        let tickets = realm.objects(Ticket.self)
        func titles(_ query: (Query<Ticket>) -> Query<Bool>) -> [String] {
            tickets.where(query).map(\.title).sorted()
        }
        #expect(titles { $0.spent > $0.estimate } == ["A"])
        #expect(titles { $0.spent >= $0.estimate } == ["A", "C"])
        #expect(titles { $0.spent < $0.estimate } == ["B"])
        #expect(titles { $0.spent <= $0.estimate } == ["B", "C"])
        #expect(titles { $0.spent == $0.estimate } == ["C"])
        #expect(titles { $0.spent != $0.estimate } == ["A", "B"])
        // Two enum properties.
        #expect(titles { $0.status == $0.lastStatus } == ["B", "C"])
        #expect(titles { $0.status != $0.lastStatus } == ["A"])
        // Through a link, against a property of the object.
        #expect(titles { $0.assignee.name == $0.reviewer } == ["A"])
        #expect(titles { $0.status == .inProgress && $0.estimate > $0.spent } == ["B"])
        #expect(realm.lastReadError == nil)
    }
}

// MARK: - Queries on a set of objects

@Suite struct SetQueryTests {
    @Test func aSetOfObjectsIsQueriedAndSorted() throws {
        let realm = try roundTwoRealm()
        let pack = Pack(
            value: [
                "name": "North",
                "members": [["name": "Rex", "age": 3], ["name": "Fido", "age": 5], ["name": "Max", "age": 1]],
            ])
        try realm.write {
            realm.add(pack)
            realm.add(Dog(value: ["name": "Outsider", "age": 9]))
        }
        #expect(pack.members.where { $0.age > 2 }.map(\.name).sorted() == ["Fido", "Rex"])
        #expect(pack.members.filter("age < %@", 4).map(\.name).sorted() == ["Max", "Rex"])
        #expect(pack.members.sorted(byKeyPath: "age").map(\.name) == ["Max", "Rex", "Fido"])
        #expect(
            pack.members.sorted(by: [SortDescriptor(keyPath: "name", ascending: false)]).map(\.name)
                == ["Rex", "Max", "Fido"])
        #expect(realm.objects(Dog.self).where { $0.age > 2 }.count == 3)
    }
}

// MARK: - List<MigrationObject> in a migration block

enum KennelV1 {
    class Owner: Object {
        @Persisted var name = ""
        @Persisted var pets: List<Pet>
    }
    class Pet: Object {
        @Persisted var name = ""
    }
}

enum KennelV2 {
    class Owner: Object {
        @Persisted var name = ""
        @Persisted var pets: List<Pet>
        @Persisted var petNames = ""
    }
    class Pet: Object {
        @Persisted var name = ""
        @Persisted var adopted = false
    }
}

@Suite struct MigrationObjectListTests {
    @Test func listsOfObjectsAreListsOfMigrationObjects() throws {
        let folder = try TemporaryFolder("kennel")
        let url = folder.file("kennel.realm")
        do {
            let v1 = try Realm(
                configuration: Realm.Configuration(
                    fileURL: url, schemaVersion: 1, objectTypes: [KennelV1.Owner.self, KennelV1.Pet.self]))
            try v1.write {
                v1.add(KennelV1.Owner(value: ["name": "Ali", "pets": [["name": "Rex"], ["name": "Fido"]]]))
            }
        }
        let config = Realm.Configuration(
            fileURL: url, schemaVersion: 2,
            migrationBlock: { migration, oldSchemaVersion in
                guard oldSchemaVersion < 2 else { return }
                migration.enumerateObjects(ofType: "Owner") { oldObject, newObject in
                    let oldPets = oldObject!["pets"] as! List<MigrationObject>
                    newObject!["petNames"] = oldPets.map { $0["name"] as! String }.joined(separator: ", ")
                    let pets = newObject!["pets"] as! List<MigrationObject>
                    pets.append(migration.create("Pet", value: ["name": "Stray", "adopted": true]))
                }
            }, objectTypes: [KennelV2.Owner.self, KennelV2.Pet.self])
        let realm = try Realm(configuration: config)
        let owner = try #require(realm.objects(KennelV2.Owner.self).first)
        #expect(owner.petNames == "Rex, Fido")
        #expect(owner.pets.map(\.name) == ["Rex", "Fido", "Stray"])
        #expect(owner.pets.map(\.adopted) == [false, false, true])
    }
}
