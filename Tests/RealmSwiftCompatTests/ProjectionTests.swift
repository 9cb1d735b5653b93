import Foundation
import Testing
import RealmSwift

// Realm's "Define and Use Class Projections" example.
class Contact: Object {
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var address: Address?
    @Persisted var friends: List<Contact>
    @Persisted var reviews: List<String>
}

class ContactProjection: Projection<Contact> {
    @Projected(\Contact.firstName) var firstName
    @Projected(\Contact.address?.city) var homeCity
    @Projected(\Contact.friends.projectTo.firstName) var firstFriendsName: ProjectedCollection<String>
}

@Suite struct ProjectionTests {
    func realmWithContacts() throws -> Realm {
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "projection-\(UUID())",
                objectTypes: [Contact.self, Address.self]))
        try realm.write {
            let jason = Contact(value: ["firstName": "Jason", "lastName": "Bourne", "address": ["city": "Paris"]])
            jason.friends.append(objectsIn: [
                Contact(value: ["firstName": "Marie"]), Contact(value: ["firstName": "Nicky"]),
            ])
            realm.add(jason)
        }
        return realm
    }

    @Test func projectionsReadThroughKeyPaths() throws {
        let realm = try realmWithContacts()
        let contacts = realm.objects(ContactProjection.self)
        #expect(contacts.count == 3)
        let jason = try #require(contacts.first { $0.firstName == "Jason" })
        #expect(jason.homeCity == "Paris")
        #expect(Array(jason.firstFriendsName) == ["Marie", "Nicky"])
        let direct = ContactProjection(projecting: jason.rootObject)
        #expect(direct.firstName == "Jason" && direct == jason)
    }

    @Test func writesThroughProjectedProperties() throws {
        let realm = try realmWithContacts()
        let jason = try #require(realm.objects(ContactProjection.self).first { $0.firstName == "Jason" })
        try realm.write { jason.firstName = "David" }
        #expect(jason.rootObject.firstName == "David")
        #expect(realm.objects(Contact.self).filter("firstName == 'David'").count == 1)
    }

    @Test func projectionNotifications() throws {
        let realm = try realmWithContacts()
        let jason = try #require(realm.objects(ContactProjection.self).first { $0.firstName == "Jason" })
        var seen: [String] = []
        let token = jason.observe { change in
            if case .change(let projection, let properties) = change {
                seen.append("\(projection.firstName): \(properties.map(\.name))")
            }
        }
        try realm.write { jason.rootObject.lastName = "Webb" }  // not projected: no notification
        try realm.write { jason.firstName = "David" }
        #expect(seen == ["David: [\"firstName\"]"])
        var counts: [Int] = []
        let resultsToken = realm.objects(ContactProjection.self).observe { change in
            if case .update(let results, _, _, _) = change { counts.append(results.count) }
        }
        try realm.write { realm.add(Contact(value: ["firstName": "Pam"])) }
        #expect(counts == [4])
        _ = (token, resultsToken)
    }
}
