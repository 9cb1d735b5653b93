import PorterTestSupport
import RealmSwift
import Testing

// The rest of round two's query DSL and protocols (issue 36), written as public code writes them:
// ranges on collections of values, properties of different Swift types compared, key paths
// through custom-persistable values, `where` on a map of links, Realm's tag protocols as generic
// constraints, and `List<Element>` of a results' element type.

// MARK: - Models

class Scorecard: Object {
    @Persisted var name = ""
    @Persisted var scores: List<Int>
    @Persisted var weights: List<Double?>
    @Persisted var ratings: Map<String, Int>
    @Persisted var best = 0
    @Persisted var target: Int?
    @Persisted var average = 0.0
    @Persisted var places: List<CLLocationCoordinate2D>
}

class Boarder: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

class Kennel: Object {
    @Persisted var name = ""
    @Persisted var rooms: Map<String, Boarder?>
}

private let queryTypes: [ObjectBase.Type] = [
    Scorecard.self, Boarder.self, Kennel.self, Landmark.self, Location.self, Dog.self, Person.self, Address.self,
]

private func queryRealm(_ name: String = #function) throws -> Realm {
    try Realm(
        configuration: Realm.Configuration(
            inMemoryIdentifier: "\(name)-\(UUID().uuidString)", objectTypes: queryTypes))
}

/// Three score cards: A (scores 1 2 3), B (4 9), C (none).
private func scorecards(_ realm: Realm) throws -> Results<Scorecard> {
    try realm.write {
        realm.add(
            Scorecard(value: [
                "name": "A", "scores": [1, 2, 3], "weights": [0.5, nil, 1.5], "ratings": ["x": 1, "y": 3], "best": 3,
                "target": 3, "average": 2.0,
                "places": [CLLocationCoordinate2D(latitude: 59.9, longitude: 10.7)],
            ]))
        realm.add(
            Scorecard(value: [
                "name": "B", "scores": [4, 9], "weights": [2.0], "ratings": ["x": 7], "best": 9, "target": 10,
                "average": 6.5,
                "places": [
                    CLLocationCoordinate2D(latitude: -12.0, longitude: -77.0),
                    CLLocationCoordinate2D(latitude: 48.8, longitude: 2.3),
                ],
            ]))
        realm.add(Scorecard(value: ["name": "C", "best": 0, "average": 0.0]))
    }
    return realm.objects(Scorecard.self)
}

// MARK: - Ranges on collections of values

@Suite struct CollectionRangeQueryTests {
    @Test func aRangeOnACollectionHoldsWhenEveryElementLiesInIt() throws {
        let realm = try queryRealm()
        let cards = try scorecards(realm)
        func names(_ query: (Query<Scorecard>) -> Query<Bool>) -> [String] { cards.where(query).map(\.name).sorted() }
        #expect(names { $0.scores.contains(1...3) } == ["A"])
        #expect(names { $0.scores.contains(1..<3) } == [], "3 is outside 1..<3")
        #expect(names { $0.scores.contains(0...10) } == ["A", "B"], "an empty list has no elements in any range")
        #expect(names { $0.scores.contains(4...9) } == ["B"])
        #expect(names { !$0.scores.contains(4...9) } == ["A", "C"])
        // A list of optionals takes a range of the wrapped type; a null element has no place in it.
        #expect(names { $0.weights.contains(1.0...2.0) } == ["B"])
        #expect(names { $0.weights.contains(0.0..<2.0) } == ["A"], "@min and @max skip the null")
        // A map's values.
        #expect(names { $0.ratings.contains(1...3) } == ["A"])
        #expect(names { $0.ratings.contains(5..<8) } == ["B"])
        #expect(realm.lastReadError == nil)
    }

    @Test func aRangeOnAnOptionalPropertyIsABetween() throws {
        let realm = try queryRealm()
        let cards = try scorecards(realm)
        #expect(cards.where { $0.target.contains(3...10) }.map(\.name).sorted() == ["A", "B"])
        #expect(cards.where { $0.target.contains(3..<10) }.map(\.name) == ["A"])
        #expect(cards.where { $0.target.contains(0...100) }.count == 2, "a null target is in no range")
    }
}

// MARK: - Properties of different Swift types

@Suite struct MixedTypePropertyComparisonTests {
    @Test func anIntComparesWithAnOptionalIntAndWithADouble() throws {
        let realm = try queryRealm()
        let cards = try scorecards(realm)
        func names(_ query: (Query<Scorecard>) -> Query<Bool>) -> [String] { cards.where(query).map(\.name).sorted() }
        // Int with Int? (C's target is null: equal to nothing, different from every number).
        #expect(names { $0.best == $0.target } == ["A"])
        #expect(names { $0.best != $0.target } == ["B", "C"])
        #expect(names { $0.best < $0.target } == ["B"])
        #expect(names { $0.target >= $0.best } == ["A", "B"])
        // Int with Double: compared by value.
        #expect(names { $0.best > $0.average } == ["A", "B"])
        #expect(names { $0.best == $0.average } == ["C"])
        #expect(names { $0.average <= $0.best } == ["A", "B", "C"])
        #expect(realm.lastReadError == nil)
    }
}

// MARK: - Key paths through custom-persistable values

@Suite struct CustomPersistablePathTests {
    @Test func pathsGoOnThroughTheObjectsValuesAreStoredAs() throws {
        let realm = try queryRealm()
        try realm.write {
            let oslo = Landmark()
            oslo.name = "Opera"
            oslo.location = CLLocationCoordinate2D(latitude: 59.9, longitude: 10.75)
            let lima = Landmark()
            lima.name = "Plaza"
            lima.location = CLLocationCoordinate2D(latitude: -12.05, longitude: -77.04)
            let nowhere = Landmark()
            nowhere.name = "Nowhere"
            realm.add([oslo, lima, nowhere])
        }
        let landmarks = realm.objects(Landmark.self)
        #expect(landmarks.where { $0.location.latitude > 0 }.map(\.name) == ["Opera"])
        #expect(landmarks.where { $0.location.longitude < 0 && $0.location.latitude < 0 }.map(\.name) == ["Plaza"])
        let cards = try scorecards(realm)
        // Any element of a list of custom-persistable values.
        #expect(cards.where { $0.places.latitude < 0 }.map(\.name) == ["B"])
        #expect(cards.where { $0.places.longitude > 0 }.map(\.name).sorted() == ["A", "B"])
        #expect(cards.where { $0.places.count == 0 }.map(\.name) == ["C"])
        #expect(realm.lastReadError == nil)
    }
}

// MARK: - `where` on a map of links

@Suite struct MapOfLinksQueryTests {
    @Test func aMapOfLinksIsQueriedLikeAListOfItsObjects() throws {
        let realm = try queryRealm()
        let kennel = Kennel()
        try realm.write {
            kennel.name = "North"
            kennel.rooms["b"] = Boarder(value: ["name": "Rex", "age": 4])
            kennel.rooms["a"] = Boarder(value: ["name": "Fido", "age": 9])
            kennel.rooms.updateValue(nil, forKey: "c")
            kennel.rooms["d"] = Boarder(value: ["name": "Max", "age": 2])
            realm.add(kennel)
            realm.add(Boarder(value: ["name": "Stray", "age": 5]))
        }
        // The linked objects in key order (a, b, d), the null value of "c" left out.
        #expect(kennel.rooms.where { $0.age > 3 }.map(\.name) == ["Fido", "Rex"])
        #expect(kennel.rooms.where { $0.age >= 0 }.map(\.name) == ["Fido", "Rex", "Max"])
        #expect(kennel.rooms.filter("name BEGINSWITH 'M'").map(\.name) == ["Max"])
        #expect(kennel.rooms.sorted(byKeyPath: "age").map(\.name) == ["Max", "Rex", "Fido"])
        #expect(realm.objects(Boarder.self).count == 4, "Stray is not in the kennel's results")
    }
}

// MARK: - Realm's tag protocols as generic constraints

/// Helpers written as apps write them, generic over Realm's tag protocols.
private func smallest<T: MinMaxType>(_ results: Results<Scorecard>, _ property: String) -> T? {
    results.min(ofProperty: property)
}

private func total<T: AddableType>(_ results: Results<Scorecard>, _ property: String) -> T {
    results.sum(ofProperty: property)
}

private func ordered<T: SortableType & Comparable>(_ values: [T]) -> [T] { values.sorted() }

private func inRange<T: _QueryNumeric & Comparable>(_ query: Query<T>, _ range: ClosedRange<T>) -> Query<Bool> {
    query.contains(range)
}

private func describe<T: _RealmSchemaDiscoverable>(_ type: T.Type) -> String { "\(type)" }

private func keyCount<M: RealmKeyedCollection>(_ map: M) -> Int where M.Key == String { map.keys.count }

@Suite struct TagProtocolTests {
    @Test func genericCodeOverTheTagProtocolsCompilesAndRuns() throws {
        let realm = try queryRealm()
        let cards = try scorecards(realm)
        #expect(smallest(cards, "best") as Int? == 0)
        #expect(smallest(cards, "target") as Int?? == .some(3))
        #expect(total(cards, "best") as Int == 12)
        #expect(total(cards, "average") as Double == 8.5)
        #expect(ordered(["b", "a"]) == ["a", "b"])
        #expect(cards.where { inRange($0.best, 1...5) }.map(\.name) == ["A"])
        #expect(describe(Int.self) == "Int")
        #expect(keyCount(cards.first { $0.name == "A" }!.ratings) == 2)
        let unmanaged: Map<String, Int> = ["k": 1]
        #expect(keyCount(unmanaged) == 1)
    }
}

// MARK: - A list of results' element type

extension Results {
    /// The objects as an unmanaged list (a helper many apps carry).
    fileprivate func toList() -> List<Element> {
        let list = List<Element>()
        list.append(objectsIn: self)
        return list
    }
}

@Suite struct ResultsAsListTests {
    @Test func resultsCopyIntoAListOfTheirElementType() throws {
        let realm = try queryRealm()
        let cards = try scorecards(realm)
        let list = cards.sorted(byKeyPath: "name").toList()
        #expect(list.map(\.name) == ["A", "B", "C"])
        #expect(list.realm == nil)
        // Assigned to a managed object's list property, the objects are linked, not copied.
        let person = Person()
        try realm.write {
            person.name = "Ali"
            person.dogs.append(objectsIn: [Dog(value: ["name": "Rex"])])
            realm.add(person)
        }
        let dogs = realm.objects(Dog.self).toList()
        try realm.write { person.dogs.append(objectsIn: dogs) }
        #expect(person.dogs.count == 2)
        #expect(realm.objects(Dog.self).count == 1)
    }
}
