import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// Lazy, live results: count, iteration, first, index access, conditions, closures, sorting.
@Suite struct QueryTests {
    /// A realm with five people (ages 30, nil, 25, 41, 25) and two dogs.
    func peopleRealm() throws -> Realm {
        let realm = try memoryRealm()
        try realm.write {
            for (name, age) in [("Ada", 30), ("Bob", nil), ("Cy", 25), ("Dee", 41), ("Eve", 25)] as [(String, Int?)] {
                let person = Person()
                person.name = name
                person.age = age
                realm.add(person)
            }
        }
        return realm
    }

    @Test func resultsAreLazyAndLive() throws {
        let realm = try memoryRealm()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.isEmpty && dogs.first == nil)
        let named = dogs.where { $0.name == "Rex" }
        try realm.write {
            let dog = Dog()
            dog.name = "Rex"
            realm.add(dog)
        }
        #expect(dogs.count == 1 && named.count == 1, "results made before the write see it")
        try realm.write { dogs[0].name = "Max" }
        #expect(named.isEmpty)
        #expect(dogs.first?.name == "Max")
    }

    @Test func iterationIndexAndFirstFollowKeyOrder() throws {
        let realm = try peopleRealm()
        let people = realm.objects(Person.self)
        #expect(people.count == 5)
        #expect(people.map(\.name) == ["Ada", "Bob", "Cy", "Dee", "Eve"])
        #expect(people[3].name == "Dee")
        #expect(people.first?.name == "Ada" && people.last?.name == "Eve")
    }

    @Test func equalityAndComparisons() throws {
        let people = try peopleRealm().objects(Person.self)
        #expect(people.where { $0.age == 25 }.map(\.name) == ["Cy", "Eve"])
        #expect(people.where { $0.age == nil }.map(\.name) == ["Bob"])
        #expect(people.where { $0.age != 25 }.map(\.name) == ["Ada", "Bob", "Dee"])
        #expect(people.where { $0.age > 29 }.map(\.name) == ["Ada", "Dee"])
        #expect(people.where { $0.age >= 30 }.map(\.name) == ["Ada", "Dee"])
        #expect(people.where { $0.age < 30 }.map(\.name) == ["Cy", "Eve"], "null never compares")
        #expect(people.where { $0.age <= 25 }.count == 2)
        #expect(people.where { $0.name.in(["Eve", "Ada", "Zed"]) }.map(\.name) == ["Ada", "Eve"])
    }

    @Test func logicalOperatorsAndStrings() throws {
        let people = try peopleRealm().objects(Person.self)
        #expect(people.where { $0.age == 25 && $0.name.starts(with: "E") }.map(\.name) == ["Eve"])
        #expect(people.where { $0.age > 40 || $0.name == "Bob" }.map(\.name) == ["Bob", "Dee"])
        #expect(people.where { !($0.age == 25) }.map(\.name) == ["Ada", "Bob", "Dee"])
        #expect(people.where { $0.name.contains("e", options: .caseInsensitive) }.map(\.name) == ["Dee", "Eve"])
        #expect(people.where { $0.name.ends(with: "y") }.map(\.name) == ["Cy"])
        #expect(people.where { $0.age == 25 }.where { $0.name == "Cy" }.count == 1)
    }

    @Test func boolPropertyAsACondition() throws {
        let realm = try memoryRealm()
        try realm.write {
            for (id, done) in [(1, true), (2, false), (3, true)] {
                let task = TaskItem()
                task._id = id
                task.isComplete = done
                realm.add(task)
            }
        }
        let tasks = realm.objects(TaskItem.self)
        #expect(tasks.where { $0.isComplete }.map(\._id) == [1, 3])
        #expect(tasks.where { !$0.isComplete }.map(\._id) == [2])
        #expect(tasks.where { $0.priority == 3 && $0.isComplete }.count == 2)
    }

    @Test func linkEqualityWithAManagedObject() throws {
        let realm = try memoryRealm()
        let ada = Person()
        ada.name = "Ada"
        try realm.write {
            realm.add(ada)
            for name in ["Rex", "Stray"] {
                let dog = Dog()
                dog.name = name
                if name == "Rex" { dog.owner = ada }
                realm.add(dog)
            }
        }
        #expect(realm.objects(Dog.self).where { $0.owner == ada }.map(\.name) == ["Rex"])
        #expect(realm.objects(Dog.self).where { $0.owner == nil }.map(\.name) == ["Stray"])
    }

    @Test func swiftClosureFilter() throws {
        let people = try peopleRealm().objects(Person.self)
        let short = people.filter { $0.name.count == 2 }
        #expect(short.map(\.name) == ["Cy"])
        #expect(people.where { $0.age == 25 }.filter { $0.name != "Cy" }.map(\.name) == ["Eve"])
    }

    @Test func sorting() throws {
        let people = try peopleRealm().objects(Person.self)
        #expect(people.sorted(byKeyPath: "age").map(\.name) == ["Bob", "Cy", "Eve", "Ada", "Dee"])
        #expect(people.sorted(byKeyPath: "age", ascending: false).map(\.name) == ["Dee", "Ada", "Cy", "Eve", "Bob"])
        #expect(people.sorted(by: \.name, ascending: false).map(\.name) == ["Eve", "Dee", "Cy", "Bob", "Ada"])
        let byAgeThenName = people.sorted(by: [
            Realm.SortDescriptor(keyPath: "age", ascending: false),
            Realm.SortDescriptor(keyPath: "name", ascending: false),
        ])
        #expect(byAgeThenName.map(\.name) == ["Dee", "Ada", "Eve", "Cy", "Bob"])
        #expect(people.where { $0.age != nil }.sorted(byKeyPath: "age")[0].name == "Cy")
    }

    @Test func invalidQueriesGiveEmptyResultsAndAnError() throws {
        let realm = try peopleRealm()
        let people = realm.objects(Person.self)
        let unsorted = people.sorted(byKeyPath: "height")
        #expect(unsorted.isEmpty)
        #expect(realm.lastReadError?.location == "Person.height")
        #expect(realm.lastReadError?.message == "cannot sort by 'height': class 'Person' has no such property")
        #expect(throws: PorterError.self) { try unsorted.snapshot() }
        #expect(people.sorted(byKeyPath: "dogs").isEmpty)
        #expect(realm.lastReadError?.message.contains("only single-value properties") == true)
        #expect(try people.where { $0.age == 25 }.snapshot().count == 2)
    }

    @Test func primaryKeyLookup() throws {
        let realm = try memoryRealm()
        let task = TaskItem()
        task._id = 42
        task.title = "Answer"
        try realm.write { realm.add(task) }
        #expect(realm.object(ofType: TaskItem.self, forPrimaryKey: 42)?.title == "Answer")
        #expect(realm.object(ofType: TaskItem.self, forPrimaryKey: 7) == nil)
        #expect(
            realm.object(ofType: TaskItem.self, forPrimaryKey: "42") == nil, "a key of the wrong type finds nothing")
    }

    @Test func deletingResultsAndObjects() throws {
        let realm = try peopleRealm()
        let young = realm.objects(Person.self).where { $0.age < 30 }
        try realm.write { realm.delete(young) }
        #expect(young.isEmpty)
        #expect(realm.objects(Person.self).map(\.name) == ["Ada", "Bob", "Dee"])
        let ada = realm.objects(Person.self)[0]
        try realm.write { realm.delete(ada) }
        #expect(ada.isInvalidated)
        #expect(realm.objects(Person.self).count == 2)
        let error = expectPorterError(.usage) { try realm.write { realm.delete(Person()) } }
        #expect(error?.message == "can only delete an object from the realm it belongs to")
        try realm.write { realm.deleteAll() }
        #expect(realm.objects(Person.self).isEmpty)
    }
}
