import Foundation
import RealmSwift
import Testing

// The rest of realm-swift 10.54's public declarations, one file of RealmSwift/ at a time, each
// named in a compiling use that runs: Aliases, AnyRealmValue, CustomPersistable, Decimal128,
// EmbeddedObject, Error, LinkingObjects, List, Map, Migration, MutableSet, Object, ObjectSchema,
// PersistedProperty, Projection, Property, Query, RealmCollection, Results, Schema,
// SectionedResults, SortDescriptor and ThreadSafeReference.

/// A `CustomPersistable` as Realm's documentation declares one.
struct CoverageTag: CustomPersistable {
    typealias PersistedType = String
    var text: String
    init(persistedValue: String) { text = persistedValue }
    var persistableValue: String { text }
}

/// A `FailableCustomPersistable` that refuses an empty string.
struct CoverageCode: FailableCustomPersistable {
    typealias PersistedType = String
    var code: String
    init?(persistedValue: String) {
        guard !persistedValue.isEmpty else { return nil }
        code = persistedValue
    }
    var persistableValue: String { code }
}

/// A projection of `Person` (Projection.swift).
class CoveragePersonView: Projection<Person> {
    @Projected(\Person.name) var displayName
    @Projected(\Person.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
}

extension RealmSwiftAPICoverage {
    @Test func objectsCollectionsSchemaAndQueries() throws {
        let realm = try testRealm()
        // Aliases.swift, Error.swift
        let kind: PropertyType = .int
        let noError: Realm.Error? = nil
        #expect(kind == .int && noError == nil)
        // Object.swift, EmbeddedObject.swift
        let person = Person(value: [
            "name": "Ann", "age": 30, "tags": ["a"], "favoriteParksByCity": ["Oslo": "Frogner"],
        ])
        person.address = Address(value: ["city": "Oslo"])
        let dog = Dog(value: ["name": "Rex", "age": 3])
        try realm.write {
            realm.add(person)
            person.dogs.append(dog)
        }
        #expect(LegacyKeyed.primaryKey() == "code" && LegacyKeyed.indexedProperties() == ["title"])
        #expect(LegacyKeyed.ignoredProperties() == ["scratch"] && Address.ignoredProperties().isEmpty)
        #expect(!Person.isEmbedded() && Address.isEmbedded())
        #expect(!person.isInvalidated && person.objectSchema.className == "Person")
        let address = try #require(person.address)
        #expect(!address.isInvalidated && address.objectSchema.className == "Address")
        #expect(address["city"] as? String == "Oslo" && person["name"] as? String == "Ann")
        #expect(person.isSameObject(as: realm.objects(Person.self).first))
        #expect(address.isSameObject(as: person.address))
        var changes: [PropertyChange] = []
        let token: NotificationToken = dog.observe { (change: ObjectChange<Dog>) in
            if case .change(_, let properties) = change { changes = properties }
        }
        try realm.write { dog.age = 4 }
        realm.refresh()
        token.invalidate()
        _ = changes.map { ($0.name, $0.oldValue, $0.newValue) }
        // Schema.swift, ObjectSchema.swift, Property.swift
        let schema: Schema = realm.schema
        let personSchema: ObjectSchema = try #require(schema["Person"])
        #expect(schema.objectSchema.contains { $0.className == "Address" && $0.isEmbedded })
        #expect(personSchema.primaryKeyProperty?.name == "_id")
        let dogs: Property = try #require(personSchema["dogs"])
        #expect(dogs.type == .object && dogs.isArray && !dogs.isSet && !dogs.isMap && dogs.objectClassName == "Dog")
        let tags = try #require(personSchema["tags"]), parks = try #require(personSchema["favoriteParksByCity"])
        let breed = try #require(schema["Dog"]?["breed"])
        #expect(tags.isSet && parks.isMap && !dogs.isIndexed && breed.isOptional)
        // AnyRealmValue.swift
        let id = ObjectId.generate(), uuid = UUID(), now = Date()
        #expect(AnyRealmValue.int(1).intValue == 1 && AnyRealmValue.bool(true).boolValue == true)
        #expect(AnyRealmValue.float(1.5).floatValue == 1.5 && AnyRealmValue.double(2.5).doubleValue == 2.5)
        #expect(AnyRealmValue.string("s").stringValue == "s" && AnyRealmValue.data(Data([1])).dataValue == Data([1]))
        #expect(AnyRealmValue.date(now).dateValue == now && AnyRealmValue.objectId(id).objectIdValue == id)
        #expect(AnyRealmValue.decimal128(1).decimal128Value == 1 && AnyRealmValue.uuid(uuid).uuidValue == uuid)
        #expect(AnyRealmValue.object(dog).dynamicObject?["name"] as? String == "Rex")
        #expect(Set<AnyRealmValue>([.int(1), .int(1), .none]).count == 2)
        // CustomPersistable.swift
        #expect(Set([CoverageTag(persistedValue: "x"), CoverageTag(persistedValue: "x")]).count == 1)
        #expect(CoverageCode(persistedValue: "") == nil && Set([CoverageCode(persistedValue: "c")!]).count == 1)
        // Decimal128.swift
        let decimal: Decimal128 = 12.5
        #expect(Decimal128.min < 0 && Decimal128.max > 0 && (-decimal).magnitude == decimal)
        #expect(decimal.distance(to: 20) == 7.5 && decimal.advanced(by: 1) == 13.5)
        #expect(!decimal.isSignaling && !decimal.isSignalingNaN && Decimal128(exactly: 3) == 3)
        #expect(!person.dogs.isInvalidated && !person.tags.isInvalidated && !person.favoriteParksByCity.isInvalidated)
        #expect(!dog.owners.isInvalidated)
        // LinkingObjects.swift, Results.swift, RealmCollection.swift
        #expect(
            realm.objects(Dog.self).distinct(by: ["name"]).count == 1 && realm.objects(Dog.self).last?.name == "Rex")
        let owners: LinkingObjects<Person> = dog.owners
        #expect(owners[0].name == "Ann" && Array(owners.makeIterator().map(\.name)) == ["Ann"])
        let allPeople: Results<Person> = realm.objects(Person.self)
        var peopleIterator = allPeople.makeIterator()
        #expect(allPeople[0].name == "Ann" && peopleIterator.next()?.age == 30)
        // List.swift
        let list = List<Int>()
        list.append(objectsIn: [1, 2, 3])
        list.insert(0, at: 0)
        list.replace(index: 1, object: 9)
        list.move(from: 0, to: 3)
        list.swapAt(0, 1)
        list.remove(at: 0)
        list.removeFirst()
        list.removeLast()
        #expect(Array(list) == [3])
        list.removeAll()
        var listIterator = list.makeIterator()
        #expect(list.isEmpty && listIterator.next() == nil)
        list.append(5)
        #expect(list[0] == 5)
        // MutableSet.swift
        let set = MutableSet<String>()
        set.insert("a")
        set.insert(objectsIn: ["b", "c"])
        set.remove("c")
        #expect(set.contains("a") && set[0] != "" && set.index(of: "z") == nil)
        let other = MutableSet<String>()
        other.insert(objectsIn: ["a", "b", "d"])
        #expect(set.isSubset(of: other) && set.intersects(other))
        set.formUnion(other)
        set.subtract(other)
        #expect(set.isEmpty)
        set.insert(objectsIn: ["a", "e"])
        set.formIntersection(other)
        #expect(Array(IteratorSequence(set.makeIterator())) == ["a"])
        set.removeAll()
        // Map.swift
        let map = Map<String, Int>()
        map.updateValue(1, forKey: "a")
        map.setValue(2, forKey: "b")
        map["c"] = 3
        map.removeObject(for: "c")
        #expect(!map.isInvalidated && map.keys.sorted() == ["a", "b"] && map.values.sorted() == [1, 2])
        var mapIterator = map.makeIterator()
        #expect(map.contains(key: "a") && map.asKeyValueSequence().count == 2 && mapIterator.next()?.key == "a")
        map.removeAll()
        #expect(map.count == 0)
        // Projection.swift, RealmCollection.swift (projected collections)
        let views: Results<CoveragePersonView> = realm.objects(CoveragePersonView.self)
        let view = views[0]
        #expect(view.displayName == "Ann" && view.rootObject.name == "Ann" && !view.isInvalidated)
        let names: ProjectedCollection<String> = view.dogNames
        #expect(names[names.startIndex] == "Rex" && names.endIndex == 1)
        #expect(names.index(after: 0) == 1 && Set([view]).count == 1)
        #expect(CoveragePersonView.className() == "Person")
        // Query.swift
        let options: StringOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(options.rawValue != 0)
        let people = realm.objects(Person.self)
        let matches: [(String, Results<Person>)] = [
            ("starts", people.where { $0.name.starts(with: "a", options: .caseInsensitive) }),
            ("ends", people.where { $0.name.ends(with: "N", options: [.caseInsensitive]) }),
            ("like", people.where { $0.name.like("A*") }),
            ("equals", people.where { $0.name.equals("ann", options: .caseInsensitive) }),
            ("notEquals", people.where { $0.name.notEquals("bob") }),
            ("contains", people.where { $0.tags.contains("a") }),
            ("containsAny", people.where { $0.tags.containsAny(in: ["a", "z"]) }),
            ("min max", people.where { $0.dogs.age.min >= 0 && $0.dogs.age.max < 10 }),
            ("avg sum", people.where { $0.dogs.age.avg > 0 && $0.dogs.age.sum > 0 }),
            ("keys", people.where { $0.favoriteParksByCity.keys.contains("Oslo") }),
            ("values", people.where { $0.favoriteParksByCity.values.contains("Frogner") }),
            ("subscript", people.where { $0.favoriteParksByCity["Oslo"] == "Frogner" }),
            ("element", people.where { $0.dogs.name == "Rex" }),
            (
                "all of them",
                people.where {
                    $0.name.starts(with: "a", options: .caseInsensitive)
                        && $0.name.ends(with: "N", options: [.caseInsensitive]) && $0.name.like("A*")
                        && $0.name.equals("ann", options: .caseInsensitive) && $0.name.notEquals("bob")
                        && $0.tags.contains("a") && $0.tags.containsAny(in: ["a", "z"]) && $0.dogs.age.min >= 0
                        && $0.dogs.age.max < 10 && $0.dogs.age.avg > 0 && $0.dogs.age.sum > 0
                        && $0.favoriteParksByCity.keys.contains("Oslo")
                        && $0.favoriteParksByCity.values.contains("Frogner")
                        && $0.favoriteParksByCity["Oslo"] == "Frogner" && $0.dogs.name == "Rex"
                }
            ),
        ]
        for (name, results) in matches { #expect(results.count == 1, "\(name)") }
        #expect(realm.objects(Person.self).where { $0.favoriteParksByCity.keys == "Bergen" }.isEmpty)
        #expect(realm.objects(Person.self).where { $0.favoriteParksByCity["Bergen"] == "Frogner" }.isEmpty)
        #expect(realm.objects(Person.self).where { $0.favoriteParksByCity.values.starts(with: "Fr") }.count == 1)
        // SectionedResults.swift
        let sections = realm.objects(Person.self).sectioned(by: \.name, ascending: true)
        #expect(sections.startIndex == 0 && sections.endIndex == 1 && !sections.isInvalidated)
        let section = sections[0]
        var sectionIterator = section.makeIterator(), sectionsIterator = sections.makeIterator()
        #expect(section[0].name == "Ann" && sectionIterator.next()?.name == "Ann")
        #expect(sectionsIterator.next()?.key == "Ann")
        // SortDescriptor.swift
        let byName: RealmSwift.SortDescriptor = "name"
        #expect(byName.reversed().ascending == false)
        // ThreadSafeReference.swift
        let reference: ThreadSafeReference<Person> = ThreadSafeReference(to: person)
        #expect(realm.resolve(reference)?.name == "Ann")
    }
}

/// `@ThreadSafe` (ThreadSafeReference.swift) as a property wrapper.
final class CoverageHolder {
    @ThreadSafe var person: Person?
}
