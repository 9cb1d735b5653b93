import Foundation
import Porter

/// Realm files through the typed API (read natively, read-only), run inside a child process:
/// a Realm file of the flat `BenchItem` objects written by Porter's Realm writer, read every
/// property through managed typed objects and through PorterRealmFile directly.
enum TypedRealmFileOperations {
    /// Runs `op` when it is one of these operations; false when it is not.
    static func run(_ op: String, _ args: [String]) throws -> Bool {
        func arg(_ i: Int) throws -> String {
            guard i < args.count else { throw BenchError("child \(op): missing argument \(i + 1)") }
            return args[i]
        }
        switch op {
        case "realmfile-write":
            guard let count = Int(try arg(0)) else { throw BenchError("realmfile-write N PATH") }
            try write(count: count, path: try arg(1))
        case "typed-realmfile-read": try typedRead(path: try arg(0))
        case "typed-realmfile-open": try typedOpen(path: try arg(0))
        case "realmfile-read": try directRead(path: try arg(0))
        case "realmfile-dynamic-read": try dynamicRead(path: try arg(0))
        default: return false
        }
        return true
    }

    /// `BenchItem` objects as the writer takes them (values in schema order).
    struct Items: RealmWriteSource {
        let count: Int
        let properties: [String]

        func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
            guard className == BenchItem.className() else { return }
            var rng = SeededGenerator(seed: 7)
            for i in 0..<count {
                let seconds = 1_600_000_000 + Int64(i)
                let byName: [String: RealmValue] = [
                    "_id": .objectId(ObjectId.generate(at: Date(timeIntervalSince1970: Double(seconds)))),
                    "name": .string("item \(i)"), "count": .int(Int64(rng.next() % 1000)),
                    "price": .double(Double(rng.next() % 10_000) / 100), "ratio": .float(Float(i % 100) / 4),
                    "active": .bool(i % 2 == 0), "created": .timestamp(seconds: seconds, nanoseconds: 0),
                    "note": i % 3 == 0 ? .null : .string("note"),
                ]
                try body(Int64(i), properties.map { byName[$0] ?? .null })
            }
        }
    }

    /// Writes `count` objects to a Realm file with Porter's writer; prints `count bytes`.
    static func write(count: Int, path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let schema = try Schema(version: 0, objectTypes: [BenchItem.self])
        guard let cls = schema[BenchItem.className()] else { throw BenchError("no BenchItem class") }
        try RealmFileWriter(schema: schema, schemaVersion: 0).write(
            to: path, source: Items(count: count, properties: cls.persistedProperties.map(\.name)))
        print("\(count) \(diskSize(path))")
    }

    private static func open(_ path: String) throws -> Realm {
        try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: [BenchItem.self]))
    }

    /// Reads every property of every object through managed typed objects; prints `count checksum`.
    static func typedRead(path: String) throws {
        let realm = try open(path)
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

    /// Opens the file, counts the objects and reads the first and the last (the peak resident
    /// memory of this child is what opening costs: it must not grow with the file).
    static func typedOpen(path: String) throws {
        let realm = try open(path)
        let all = realm.objects(BenchItem.self)
        let count = all.count
        let names = (all.first?.name.utf8.count ?? 0) + (all.last?.name.utf8.count ?? 0)
        if let error = realm.lastReadError { throw error }
        print("\(count) \(names)")
    }

    /// Reads every value of every object with PorterRealmFile directly; prints `count checksum`.
    static func directRead(path: String) throws {
        let file = try RealmFile(path: path)
        guard let table = file.table(named: BenchItem.className()) else { throw BenchError("no BenchItem table") }
        var count = 0
        var checksum = 0
        try file.forEachObject(in: table) { object in
            for value in object.values {
                switch value {
                case .string(let s): checksum &+= s.utf8.count
                case .int(let i): checksum &+= Int(truncatingIfNeeded: i)
                case .double(let d): checksum &+= Int(d)
                case .float(let f): checksum &+= Int(f)
                case .bool(let b): checksum &+= b ? 1 : 0
                case .timestamp(let seconds, _): checksum &+= Int(seconds)
                case .objectId(let o): checksum &+= Int(o.timestamp.timeIntervalSince1970)
                default: break
                }
            }
            count += 1
        }
        print("\(count) \(checksum & 0xFFFF)")
    }

    /// Reads every object of every class as dynamic objects, every property by name (the
    /// embeddable reader's API); prints `objects bytes`.
    static func dynamicRead(path: String) throws {
        let file = try RealmFile(path: path)
        var objects = 0, missing = 0
        for table in file.tables {
            let names = table.properties.map(\.name)
            try file.forEachDynamicObject(ofClass: table.name) { object in
                for name in names where object[name] == nil { missing += 1 }
                objects += 1
            }
        }
        guard missing == 0, objects > 0 else { throw BenchError("dynamic read: \(missing) values missing") }
        print("\(objects) \(diskSize(path))")
    }

}
