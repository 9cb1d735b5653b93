import Foundation
import Testing
import RealmSwift

/// Queries as Realm's "Filter Data" page writes them, in both the type-safe and the string form.
@Suite struct QueryTests {
    func seeded() throws -> Realm {
        let realm = try testRealm()
        try realm.write {
            let ali = Person(value: ["name": "Ali", "age": 40])
            let bea = Person(value: ["name": "Béa", "age": 25])
            ali.dogs.append(objectsIn: [
                Dog(value: ["name": "Rex", "age": 3, "breed": "Beagle"]),
                Dog(value: ["name": "rover", "age": 7]),
            ])
            bea.dogs.append(Dog(value: ["name": "Fido", "age": 1, "breed": "Pug"]))
            realm.add([ali, bea])
            for dog in ali.dogs { dog.owner = ali }
            bea.dogs[0].owner = bea
            let project = Project(value: ["name": "P"])
            project.tasks.append(objectsIn: [
                Task(value: ["name": "t1", "priority": 9, "isComplete": true]),
                Task(value: ["name": "t2", "priority": 3]),
            ])
            realm.add(project)
        }
        return realm
    }

    @Test func typeSafeQueries() throws {
        let realm = try seeded()
        let dogs = realm.objects(Dog.self)
        #expect(
            dogs.where { $0.age > 2 && $0.name.starts(with: "r", options: .caseInsensitive) }.map(\.name).sorted() == [
                "Rex", "rover",
            ])
        #expect(dogs.where { $0.name.contains("O", options: [.caseInsensitive]) }.count == 2)
        #expect(dogs.where { $0.name.ends(with: "do") || !($0.age < 7) }.count == 2)
        #expect(dogs.where { $0.name.like("R?x") }.count == 1)
        #expect(dogs.where { $0.breed.in(["Pug", "Beagle"]) }.count == 2)
        #expect(dogs.where { $0.breed == nil }.count == 1)
        #expect(dogs.where { $0.age.contains(1...3) }.count == 2)
        #expect(dogs.where { $0.age.between(3, 7) }.count == 2)
        #expect(dogs.where { $0.age.contains(1..<3) }.count == 1)
        #expect(dogs.where { $0.owner.name == "Ali" }.count == 2)
        let people = realm.objects(Person.self)
        #expect(people.where { $0.name.equals("bea", options: [.caseInsensitive, .diacriticInsensitive]) }.count == 1)
        #expect(people.where { $0.dogs.age > 5 }.map(\.name) == ["Ali"])
        #expect(people.where { $0.dogs.count == 1 }.map(\.name) == ["Béa"])
        #expect(people.where { $0.dogs.age.avg > 4 }.map(\.name) == ["Ali"])
        #expect(people.where { $0.dogs.age.max < 2 }.map(\.name) == ["Béa"])
        #expect(dogs.where { $0.owners.name == "Ali" }.count == 2)
        #expect(people.where { $0.tags.containsAny(in: ["x"]) }.isEmpty)
        #expect(people.where { $0.dogs.any.age == 1 }.map(\.name) == ["Béa"])
        #expect(people.where { $0.dogs.name.contains("ove") }.map(\.name) == ["Ali"])
        let rex = try #require(dogs.where { $0.name == "Rex" }.first)
        let ali = try #require(people.where { $0.name == "Ali" }.first)
        #expect(people.where { $0.dogs.contains(rex) }.map(\.name) == ["Ali"])
        #expect(rex.owners.where { $0.age > 30 }.map(\.name) == ["Ali"])
        #expect(rex.owners.filter("age < 30").isEmpty)
        #expect(ali.dogs.where { $0.age > 5 }.map(\.name) == ["rover"])
        let projects = realm.objects(Project.self)
        #expect(projects.where { $0.tasks.priority.sum == 12 && $0.tasks.isComplete == true }.count == 1)
    }

    @Test func predicateStrings() throws {
        let realm = try seeded()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.filter("age > %@ AND name BEGINSWITH[c] %@", 2, "r").count == 2)
        #expect(dogs.filter("name ENDSWITH 'do' OR NOT (age < 7)").count == 2)
        #expect(dogs.filter("name LIKE[c] 'r*'").count == 2)
        #expect(dogs.filter("breed IN {'Pug', 'Beagle'}").count == 2)
        #expect(dogs.filter("breed IN %@", ["Pug"]).count == 1)
        #expect(dogs.filter("breed == nil").count == 1)
        #expect(dogs.filter("age BETWEEN {1, 3}").count == 2)
        #expect(dogs.filter("owner.name == 'Ali'").count == 2)
        #expect(dogs.filter("%K CONTAINS[cd] %@", "name", "E").count == 2)
        let people = realm.objects(Person.self)
        #expect(people.filter("name ==[cd] 'bea'").count == 1)
        #expect(people.filter("ANY dogs.age > 5").map(\.name) == ["Ali"])
        #expect(people.filter("ALL dogs.age > 2").map(\.name) == ["Ali"])
        #expect(people.filter("NONE dogs.age > 2").map(\.name) == ["Béa"])
        #expect(people.filter("dogs.@count == 1").map(\.name) == ["Béa"])
        #expect(people.filter("dogs.@avg.age > 4").map(\.name) == ["Ali"])
        #expect(people.filter("dogs.age.@max < 2").map(\.name) == ["Béa"])
        #expect(people.filter("TRUEPREDICATE").count == 2 && people.filter("FALSEPREDICATE").isEmpty)
        #expect(realm.objects(Project.self).filter("tasks.@sum.priority == 12").count == 1)
    }

    @Test func queryErrorsNameClassPropertyAndPosition() throws {
        let realm = try seeded()
        let unknown = realm.objects(Dog.self).filter("agee > 3")
        #expect(unknown.isEmpty)
        #expect(realm.lastReadError?.location == "Dog.agee")
        #expect(throws: (any Error).self) { try unknown.snapshot() }
        realm.clearReadError()
        let bad = realm.objects(Dog.self).filter("age >> 3")
        #expect(bad.isEmpty)
        #expect(realm.lastReadError?.message.contains("at position 6") == true)
    }

    @Test func sortingDistinctAndAggregates() throws {
        let realm = try seeded()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.sorted(byKeyPath: "age", ascending: false).map(\.name) == ["rover", "Rex", "Fido"])
        #expect(
            dogs.sorted(by: [SortDescriptor(keyPath: "owner.name"), SortDescriptor(keyPath: "age", ascending: false)])
                .map(\.name)
                == ["rover", "Rex", "Fido"])
        #expect(dogs.distinct(by: ["owner.name"]).count == 2)
        #expect(dogs.first != nil && dogs.sorted(byKeyPath: "age").last?.name == "rover")
        #expect(dogs.min(ofProperty: "age") as Int? == 1)
        #expect(dogs.max(ofProperty: "age") as Int? == 7)
        #expect(dogs.sum(ofProperty: "age") as Int == 11)
        #expect(dogs.average(ofProperty: "age") as Double? == 11.0 / 3)
        let ali = try #require(realm.objects(Person.self).filter("name == 'Ali'").first)
        #expect(ali.dogs.filter("age > 5").map(\.name) == ["rover"])
        #expect(ali.dogs.sorted(byKeyPath: "name").map(\.name) == ["Rex", "rover"])
    }
}

@Suite struct AnyCollectionTests {
    /// Generic over Realm's collections, as table data sources are written.
    func names<C: RealmCollection>(_ collection: C) -> [String] where C.Element == Dog { collection.map(\.name) }

    @Test func anyRealmCollectionWrapsResultsListsAndLinkingObjects() throws {
        let realm = try testRealm()
        let person = Person(value: ["name": "Ali"])
        try realm.write {
            realm.add(person)
            person.dogs.append(objectsIn: [Dog(value: ["name": "Rex"]), Dog(value: ["name": "Fido"])])
        }
        let fromResults = AnyRealmCollection(realm.objects(Dog.self).sorted(byKeyPath: "name"))
        let fromList = AnyRealmCollection(person.dogs)
        #expect(names(fromResults) == ["Fido", "Rex"] && names(fromList) == ["Rex", "Fido"])
        #expect(fromResults.realm != nil && realm.objects(Dog.self).realm != nil)
        #expect(person.dogs[0].owners.map(\.name) == ["Ali"])
        var counts: [Int] = []
        let token = fromList.observe { change in
            switch change {
            case .initial(let dogs): counts.append(dogs.count)
            case .update(let dogs, _, _, _): counts.append(dogs.count)
            case .error: break
            }
        }
        var owners: [Int] = []
        let ownersToken = person.dogs[0].owners.observe { change in
            if case .update(let linking, _, _, _) = change { owners.append(linking.count) }
        }
        try realm.write {
            person.dogs.append(Dog(value: ["name": "Max"]))
            realm.add(Person(value: ["name": "Bea", "dogs": [person.dogs[0]]]))
        }
        #expect(counts == [2, 3] && owners == [2])
        _ = (token, ownersToken)
    }
}
