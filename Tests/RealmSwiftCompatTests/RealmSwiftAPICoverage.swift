import Foundation
import RealmSwift
import Testing

// Names each implemented public declaration of realm-swift 10.54's RealmSwift/Realm.swift,
// RealmConfiguration.swift, ObjectId.swift, Map.swift (equality, merge), SectionedResults.swift,
// Geospatial.swift, ThreadSafeReference.swift and SortDescriptor.swift in a compiling use (run
// too, so each use is checked). The Typed models guide's "Not part of Porter" lists the declarations left out.

@Suite struct RealmSwiftAPICoverage {
    @Test func realmSwift() async throws {
        // RealmConfiguration.swift
        var config = Realm.Configuration(
            fileURL: nil, inMemoryIdentifier: "coverage-\(UUID().uuidString)",
            encryptionKey: nil, readOnly: false, schemaVersion: 1, migrationBlock: nil,
            deleteRealmIfMigrationNeeded: false, shouldCompactOnLaunch: nil,
            objectTypes: [Friend.self, TaskList.self, ChecklistItem.self, Zeroed.self])
        config.schemaVersion = 1
        _ = (
            config.fileURL, config.inMemoryIdentifier, config.encryptionKey, config.readOnly, config.objectTypes,
            config.migrationBlock, config.deleteRealmIfMigrationNeeded, config.shouldCompactOnLaunch,
            config.seedFilePath
        )
        _ = Realm.Configuration.defaultConfiguration
        // Realm.swift: opening
        let realm = try await Realm(configuration: config)
        let actorRealm = try await CoverageActor().count(config.inMemoryIdentifier!)
        #expect(actorRealm == 0)
        #expect(!Realm.fileExists(for: config))
        _ = (realm.schema, realm.configuration, realm.isEmpty)
        // Writes
        let id: Realm.AsyncTransactionId = realm.writeAsync(
            { realm.add(Friend(value: ["name": "a"])) },
            onComplete: nil)
        _ = id
        let begun = realm.beginAsyncWrite { realm.add(Friend(value: ["name": "b"])) }
        realm.commitAsyncWrite(allowGrouping: false) { _ in }
        _ = (begun, realm.isPerformingAsynchronousWriteOperations)
        try realm.cancelAsyncWrite(realm.beginAsyncWrite {})
        try await realm.asyncWrite { realm.add(Friend(value: ["name": "c"]), update: .error) }
        _ = await realm.asyncRefresh()
        try realm.write(withoutNotifying: []) {
            realm.add([Friend(value: ["name": "d"])], update: Realm.UpdatePolicy.modified)
            _ = realm.create(Friend.self, value: ["name": "e"], update: .all)
        }
        realm.beginWrite()
        #expect(realm.isInWriteTransaction)
        realm.cancelWrite()
        realm.beginWrite()
        try realm.commitWrite(withoutNotifying: [])
        // Reading, observing, deleting
        let friends: Results<Friend> = realm.objects(Friend.self)
        let first = realm.object(ofType: Friend.self, forPrimaryKey: friends[0]._id)
        #expect(first != nil)
        var seen: [Realm.Notification] = []
        let block: Realm.NotificationBlock = { notification, _ in seen.append(notification) }
        let token = realm.observe(block)
        try realm.write {
            realm.delete(friends[0])
            realm.delete(Array(friends.prefix(1)))
            realm.delete(friends.where { $0.name == "zzz" })
        }
        #expect(seen == [.didChange])
        token.invalidate()
        _ = realm.refresh()
        realm.invalidate()
        // Two instances for one configuration on one thread are the same realm (Realm caches it).
        let again = try await Realm(configuration: config)
        #expect(realm == again)
        try realm.write { realm.deleteAll() }
        #expect(try Realm.deleteFiles(for: config) == false)
        // ObjectId.swift
        _ = (
            ObjectId(), ObjectId.generate(), try ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e0f"),
            ObjectId("5f1b2c3d4e5f6a7b8c9d0e0f"), ObjectId(timestamp: Date(), machineId: 1, processId: 2)
        )
        _ = try JSONDecoder().decode([ObjectId].self, from: JSONEncoder().encode([ObjectId()]))
        #expect(ObjectId() <= ObjectId.generate() && ObjectId.generate() >= ObjectId() && !(ObjectId() > ObjectId()))
        // Map.swift: equality and merge
        let map: Map<String, Int> = ["a": 1]
        map.merge(["a": 2, "b": 3]) { old, _ in old }
        #expect(map == Map(["a": 1, "b": 3]))
        // SectionedResults.swift
        try realm.write { realm.add(Friend(value: ["name": "f", "group": "g"])) }
        let sections: SectionedResults<String, Friend> = realm.objects(Friend.self).sectioned(
            by: \.group,
            ascending: true)
        let section: ResultsSection<String, Friend> = sections[0]
        _ = (
            sections.allKeys, sections.realm, sections.isFrozen, sections.freeze(), sections.thaw(),
            section.key, section.id, section[0], sections[IndexPath(item: 0, section: 0)]
        )
        _ = realm.objects(Friend.self).sectioned(by: \.name, sortDescriptors: [SortDescriptor(keyPath: "name")])
        // Geospatial.swift
        let point = GeoPoint(latitude: 1, longitude: 2)!
        _ = (
            point.latitude, point.longitude, GeoBox(bottomLeft: point, topRight: point),
            GeoCircle(center: point, radiusInRadians: 0.1), GeoCircle(center: point, radius: .miles(3)!),
            GeoPolygon(outerRing: [point, point, point, point], holes: []), Distance.degrees(1)!.asKilometers
        )
        // ThreadSafeReference.swift
        let reference = ThreadSafeReference(to: realm.objects(Friend.self)[0])
        #expect(realm.resolve(reference)?.name == "f")
    }

    /// RealmProperty.swift, Optional.swift, LinkingObjects.swift (`init(fromType:property:)`),
    /// Realm.swift's frozen realms and the actor-isolated `observe` of Object.swift,
    /// RealmCollection.swift and Map.swift.
    @Test func legacyPropertiesFrozenRealmsAndActorObservation() async throws {
        let property = RealmProperty<Int?>()
        property.value = 1
        let anyValue = RealmProperty<AnyRealmValue>()
        anyValue.value = .int(2)
        let optional = RealmOptional<Double>(3)
        optional.value = nil
        _ = (property == RealmProperty<Int?>(), optional == RealmOptional<Double>(), property.description)
        _ = try JSONDecoder().decode(RealmOptional<Int>.self, from: JSONEncoder().encode(RealmOptional<Int>(4)))
        _ = try JSONDecoder().decode(RealmProperty<Int?>.self, from: JSONEncoder().encode(property))
        func acceptsPropertyType<T: RealmPropertyType>(_: T.Type) {}
        func acceptsOptionalType<T: RealmOptionalType>(_: T.Type) {}
        acceptsPropertyType(Int?.self)
        acceptsOptionalType(Bool.self)
        let linking = LinkingObjects(fromType: Friend.self, property: "friend")
        #expect(linking.isEmpty)

        let config = Realm.Configuration(
            inMemoryIdentifier: "coverage-frozen-\(UUID().uuidString)", objectTypes: [Friend.self])
        let realm = try await Realm(configuration: config)
        try await realm.asyncWrite {
            realm.add(Friend(value: ["name": "a", "scores": [1], "phoneNumbers": ["k": "v"]]))
        }
        let frozen: Realm = realm.freeze()
        _ = (frozen.isFrozen, frozen.thaw(), realm.isFrozen)
        let friend = try #require(realm.objects(Friend.self).first)
        let frozenFriend: Friend = realm.freeze(friend)
        _ = (realm.thaw(frozenFriend), frozenFriend.isFrozen)
        let frozenResults: Results<Friend> = realm.freeze(realm.objects(Friend.self))
        _ = frozenResults.thaw()
        let scores: List<Int> = friend.scores.freeze()
        _ = (scores.isFrozen, scores.thaw())
        let phones: Map<String, String> = friend.phoneNumbers.freeze()
        _ = (phones.isFrozen, phones.thaw())

        let observer = try await DogObserver(inMemoryIdentifier: "coverage-actor-\(UUID().uuidString)")
        let tokens = [
            await realm.objects(Friend.self).observe(keyPaths: ["name"], on: observer) { _, _ in },
            await friend.scores.observe(on: observer) { _, _ in },
            await friend.phoneNumbers.observe(on: observer) { _, _ in },
            await friend.observe(keyPaths: [\Friend.name], on: observer) { _, _ in },
        ]
        tokens.forEach { $0.invalidate() }

        // AnyRealmValue.swift, List.swift (RangeReplaceableCollection members), ObjectSchema.swift, Property.swift
        #expect(AnyRealmValue.fromArray([.int(1)]).listValue?.count == 1)
        #expect(AnyRealmValue.fromDictionary(["a": .int(1)]).dictionaryValue?["a"] == .int(1))
        let list = List<Int>([1, 2, 3, 4])
        list.replaceSubrange(1..<3, with: [7])
        list.removeSubrange(0..<1)
        #expect(Array(list) == [7, 4])
        let schema = try #require(realm.schema["Friend"])
        #expect(!schema.isAsymmetric && schema.properties.map(\.columnName) == schema.properties.map(\.name))
    }
}

actor CoverageActor {
    func count(_ identifier: String) async throws -> Int {
        let types: [ObjectBase.Type] = [Friend.self, TaskList.self, ChecklistItem.self, Zeroed.self]
        let realm = try await Realm(
            configuration: .init(
                inMemoryIdentifier: identifier, schemaVersion: 1,
                objectTypes: types),
            actor: self)
        return realm.objects(ChecklistItem.self).count
    }
}
