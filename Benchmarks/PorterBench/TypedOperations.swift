import Foundation
import Porter

/// A typed model with the flat shape's 8 scalar properties.
final class BenchItem: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var count = 0
    @Persisted var price = 0.0
    @Persisted var ratio: Float = 0
    @Persisted var active = false
    @Persisted var created = Date(timeIntervalSince1970: 0)
    @Persisted var note: String?
}

/// A small linked model for the fixture-load measurement.
final class BenchOwner: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var name = ""
    @Persisted var pets: List<BenchPet>
}

final class BenchPet: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var owner: BenchOwner?
}

/// Typed-model and fixture operations, run inside a child process.
enum TypedOperations {
    /// Adds `count` objects through managed typed objects in one write; prints `count bytes`.
    static func write(count: Int, path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), objectTypes: [BenchItem.self]))
        var rng = SeededGenerator(seed: 7)
        try realm.write {
            for i in 0..<count {
                let item = BenchItem()
                item.name = "item \(i)"
                item.count = Int(rng.next() % 1000)
                item.price = Double(rng.next() % 10_000) / 100
                item.ratio = Float(i % 100) / 4
                item.active = i % 2 == 0
                item.created = Date(timeIntervalSince1970: 1_600_000_000 + Double(i))
                item.note = i % 3 == 0 ? nil : "note"
                realm.add(item)
            }
        }
        print("\(count) \(diskSize(path))")
    }

    /// Reads every property of every object through managed typed objects; prints `count bytes`.
    static func read(path: String) throws {
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), objectTypes: [BenchItem.self]))
        var count = 0
        var checksum = 0
        for item in realm.objects(BenchItem.self) {
            checksum &+= item.name.utf8.count &+ item.count &+ Int(item.price) &+ Int(item.ratio)
            checksum &+=
                (item.active ? 1 : 0) &+ Int(item.created.timeIntervalSince1970) &+ (item.note?.utf8.count ?? 0)
            checksum &+= Int(item._id.timestamp.timeIntervalSince1970)
            count += 1
        }
        if let error = realm.lastReadError { throw error }
        print("\(count) \(checksum & 0xFFFF)")
    }

    /// A query with a sort through the typed API (`count > 500`, by `price`), then `count` and
    /// `first`, as Realm's `Results` are used; prints `count price-of-first`.
    static func sortedQuery(path: String) throws {
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), objectTypes: [BenchItem.self]))
        let results = realm.objects(BenchItem.self).where { $0.count > 500 }.sorted(byKeyPath: "price")
        let count = results.count
        let first = results.first?.price ?? -1
        if let error = realm.lastReadError { throw error }
        print("\(count) \(Int(first * 100))")
    }

    /// A 1,000-object fixture (100 owners, 900 pets linking to them).
    static func fixtureData() -> Data {
        var owners: [String] = []
        var pets: [String] = []
        for o in 0..<100 {
            owners.append(
                #"{"_id": \#(o), "name": "owner \#(o)", "pets": [\#((0..<9).map { String(o * 9 + $0) }.joined(separator: ", "))]}"#
            )
        }
        for p in 0..<900 { pets.append(#"{"_id": \#(p), "name": "pet \#(p)", "age": \#(p % 15), "owner": \#(p / 9)}"#) }
        return Data(
            #"{"schemaVersion": 0, "BenchOwner": [\#(owners.joined(separator: ",\n"))], "BenchPet": [\#(pets.joined(separator: ",\n"))]}"#
                .utf8)
    }

    /// Loads the fixture into a fresh in-memory realm `rounds` times; prints `objects bytes
    /// seconds`, the seconds being the loads' own (the process's start not counted).
    static func fixtureLoad(rounds: Int) throws {
        let data = fixtureData()
        let clock = ContinuousClock()
        let start = clock.now
        for round in 0..<rounds {
            let realm = try Realm(
                configuration: .init(
                    inMemoryIdentifier: "bench-\(round)", objectTypes: [BenchOwner.self, BenchPet.self]))
            try realm.importFixtures(data: data)
            guard realm.objects(BenchPet.self).count == 900 else { throw BenchError("fixture load lost objects") }
        }
        let elapsed = start.duration(to: clock.now).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        print("\(rounds * 1000) \(rounds * data.count) \(seconds)")
    }
}
