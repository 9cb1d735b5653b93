import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// The examples of the Realm Swift docs ("Define a Realm Object Schema", "Model Relationships",
/// "Embedded Objects", "Supported Types"), each through a database file where it matters.
@Suite struct DocsExampleTests {
    @Test func dogWithPrimaryKeyAndOptionalBreed() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("dogs.realm")
        let id: ObjectId
        do {
            let realm = try fileRealm(url)
            let dog = Dog()
            dog.name = "Rex"
            id = dog._id
            #expect(dog.breed == nil)
            try realm.write { realm.add(dog) }
            let twin = Dog()
            twin._id = id
            twin.name = "Twin"
            let error = expectPorterError(.duplicatePrimaryKey) { try realm.write { realm.add(twin) } }
            #expect(error?.location == "Dog._id")
            #expect(twin.realm == nil)
            try realm.write { realm.add(twin, update: .modified) }
            #expect(realm.objects(Dog.self).count == 1)
        }
        let realm = try fileRealm(url)
        let dog = try #require(realm.object(ofType: Dog.self, forPrimaryKey: id))
        #expect(dog.name == "Twin" && dog.breed == nil)
        try realm.write { dog.breed = "Beagle" }
        #expect(realm.objects(Dog.self).first?.breed == "Beagle")
        #expect(realm.object(ofType: Dog.self, forPrimaryKey: ObjectId.generate()) == nil)
    }

    @Test func personWithToManyDogs() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("people.realm")
        do {
            let realm = try fileRealm(url)
            let person = Person()
            person.name = "Ada"
            for name in ["Rex", "Bella", "Fido"] {
                let dog = Dog()
                dog.name = name
                person.dogs.append(dog)
            }
            try realm.write { realm.add(person) }
            try realm.write {
                person.dogs.move(from: 2, to: 0)
                person.dogs.remove(at: 2)
            }
            #expect(person.dogs.map(\.name) == ["Fido", "Rex"])
        }
        let realm = try fileRealm(url)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.dogs.map(\.name) == ["Fido", "Rex"])
        #expect(realm.objects(Dog.self).count == 3, "removing a link from a list keeps the dog")
    }

    @Test func dogWithToOneFavoriteToy() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("toys.realm")
        let types: [ObjectBase.Type] = [ToyDog.self, DogToy.self]
        do {
            let realm = try Realm(configuration: .init(fileURL: url, objectTypes: types))
            let dog = ToyDog()
            dog.name = "Rex"
            let toy = DogToy()
            toy.name = "Ball"
            dog.favoriteToy = toy
            try realm.write { realm.add(dog) }
            #expect(toy.realm != nil)
        }
        let realm = try Realm(configuration: .init(fileURL: url, objectTypes: types))
        let dog = try #require(realm.objects(ToyDog.self).first)
        #expect(dog.favoriteToy?.name == "Ball" && dog.favoriteToy?.squeaky == true)
        try realm.write {
            if let toy = dog.favoriteToy { realm.delete(toy) }
        }
        #expect(dog.favoriteToy == nil, "deleting the target clears the link")
    }

    @Test func userAndTaskInverseRelationshipIsLive() throws {
        let realm = try memoryRealm()
        let ada = User()
        ada._id = "ada"
        ada.name = "Ada"
        let grace = User()
        grace._id = "grace"
        grace.name = "Grace"
        try realm.write {
            realm.add([ada, grace])
            for id in 1...3 {
                let task = TaskItem()
                task._id = id
                task.title = "Task \(id)"
                task.assignee = ada
                realm.add(task)
            }
        }
        let tasks = ada.tasks
        #expect(tasks.count == 3 && grace.tasks.isEmpty)
        try realm.write { realm.objects(TaskItem.self)[0].assignee = grace }
        #expect(tasks.count == 2, "the same LinkingObjects value sees the change")
        #expect(grace.tasks.map(\._id) == [1])
        #expect(ada.tasks.map(\.title) == ["Task 2", "Task 3"])
        #expect(User().tasks.isEmpty, "an unmanaged object has no linking objects")
    }

    @Test func embeddedAddressIsDeletedWithItsContact() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("contacts.realm")
        let types: [ObjectBase.Type] = [Contact.self, Business.self, Address.self, Country.self]
        do {
            let realm = try Realm(configuration: .init(fileURL: url, objectTypes: types))
            let contact = Contact()
            contact.name = "Nick"
            let address = Address()
            address.street = "123 Fake St"
            address.city = "Springfield"
            contact.address = address
            try realm.write { realm.add(contact) }
            #expect(address.realm != nil)
        }
        let realm = try Realm(configuration: .init(fileURL: url, objectTypes: types))
        let contact = try #require(realm.objects(Contact.self).first)
        #expect(contact.address?.city == "Springfield")
        try realm.write { contact.address?.city = "Shelbyville" }
        #expect(contact.address?.city == "Shelbyville")
        try realm.write {
            let replacement = Address()
            replacement.street = "742 Evergreen"
            replacement.city = "Springfield"
            contact.address = replacement
        }
        #expect(try realm.database.count("Address") == 1, "the replaced address is deleted")
        try realm.write { realm.delete(contact) }
        #expect(try realm.database.count("Address") == 0, "deleting the contact deletes its address")
    }

    @Test func embeddedListAndMapElementsAreDeletedWhenRemoved() throws {
        let realm = try memoryRealm([Business.self, Address.self, Country.self])
        let shop = Business()
        for street in ["A", "B", "C"] {
            let address = Address()
            address.street = street
            shop.addresses.append(address)
        }
        let branch = Address()
        branch.street = "Branch"
        shop.branches["north"] = branch
        try realm.write { realm.add(shop) }
        #expect(try realm.database.count("Address") == 4)
        try realm.write { shop.addresses.remove(at: 1) }
        #expect(shop.addresses.map(\.street) == ["A", "C"])
        #expect(try realm.database.count("Address") == 3)
        try realm.write { shop.addresses.move(from: 1, to: 0) }
        #expect(shop.addresses.map(\.street) == ["C", "A"], "moving keeps embedded elements")
        #expect(try realm.database.count("Address") == 3)
        try realm.write { shop.branches["north"] = nil }
        #expect(try realm.database.count("Address") == 2)
        try realm.write { shop.addresses.removeAll() }
        #expect(try realm.database.count("Address") == 0)
    }

    @Test func enumPropertyIsStoredAsItsRawValue() throws {
        let realm = try memoryRealm()
        let dog = Dog()
        #expect(dog.status == .active)
        dog.status = .retired
        try realm.write { realm.add(dog) }
        #expect(try realm.database.value("Dog", ObjectKey(1), "status") == .string("retired"))
        #expect(realm.objects(Dog.self).where { $0.status == .retired }.count == 1)
        #expect(realm.objects(Dog.self).where { $0.status == .active }.isEmpty)
    }

    @Test func ignoredPropertyIsNeverStored() throws {
        let realm = try memoryRealm()
        let dog = Dog()
        dog.isSelected = true
        try realm.write { realm.add(dog) }
        #expect(realm.schema["Dog"]?.property(named: "isSelected") == nil)
        #expect(dog.isSelected, "an ignored property stays on the instance")
        #expect(realm.objects(Dog.self)[0].isSelected == false, "another instance has its own value")
    }

    @Test func indexedPropertyIsIndexedAndQueryable() throws {
        let realm = try memoryRealm()
        #expect(realm.schema["Dog"]?.property(named: "name")?.isIndexed == true)
        #expect(realm.schema["Dog"]?.property(named: "breed")?.isIndexed == false)
        try realm.write {
            for name in ["Rex", "Bella", "Rex"] {
                let dog = Dog()
                dog.name = name
                realm.add(dog)
            }
        }
        #expect(realm.objects(Dog.self).where { $0.name == "Rex" }.count == 2)
    }
}
