import Foundation
import PorterTestSupport
import PorterRealmFile
import Testing

@testable import Porter

// The typed API on Realm Core files read natively (RealmFileReader): every object of every class
// of every file in Fixtures/realm/written compared property by property with PorterRealmFile's
// own reading of the same file; queries, sorting and aggregates against the file's values; the
// file changed on disk seen after `refresh()`; opening reads no object.

private let written = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/realm/written")

/// Opens a fixture of `written` read-only with the model classes `types`.
private func openFixture(_ name: String, _ types: [ObjectBase.Type], version: UInt64 = 0) throws -> Realm {
    try Realm(
        configuration: .init(
            fileURL: written.appendingPathComponent(name), readOnly: true, schemaVersion: version, objectTypes: types))
}

@Suite struct RealmFileNativeTests {
    @Test func flatPrimaryKeyInt() throws {
        let realm = try openFixture("flat-pk-int.realm", [RFItem.self], version: 3)
        try checkEveryObject(realm, "flat-pk-int.realm")
        try checkQueries(realm, RFItem.self)
    }

    @Test func decimals() throws {
        let realm = try openFixture("decimals.realm", [RFDec.self])
        try checkEveryObject(realm, "decimals.realm")
        try checkQueries(realm, RFDec.self)
    }

    @Test func flatWithoutPrimaryKey() throws {
        let realm = try openFixture("flat-no-pk.realm", [RFPlain.self, RFEmpty.self])
        try checkEveryObject(realm, "flat-no-pk.realm")
        try checkQueries(realm, RFPlain.self)
        try checkQueries(realm, RFEmpty.self)
    }

    @Test func emptyFile() throws {
        let realm = try openFixture("empty.realm", [RFSeq.self], version: 42)
        #expect(realm.objects(RFSeq.self).isEmpty)
        #expect(realm.isEmpty)
    }

    @Test func indexedMixed() throws {
        let realm = try openFixture("indexed-mixed.realm", [RFX.self])
        try checkEveryObject(realm, "indexed-mixed.realm")
        try checkQueries(realm, RFX.self)
    }

    @Test func linksEmbeddedObjectsAndLinkingObjects() throws {
        let realm = try openFixture("links.realm", [RFP.self, RFD.self, RFE.self, RFF.self])
        try checkEveryObject(realm, "links.realm")
        try checkQueries(realm, RFP.self)
        try checkQueries(realm, RFD.self)
        // Linking objects against a scan of the file's `D.owner` links.
        let file = try RealmFile(path: written.appendingPathComponent("links.realm").path)
        let dTable = try #require(file.table(named: "D"))
        var owners: [Int64: [Int64]] = [:]
        try file.forEachValue(in: dTable, property: "owner") { key, value in
            if case .link(_, let target) = value { owners[target, default: []].append(key) }
        }
        for p in realm.objects(RFP.self) {
            let key = try #require(p._managed?.key.rawValue)
            #expect(p.owners.map { $0._managed!.key.rawValue } == owners[key] ?? [], "P(\(p.id)).owners")
            #expect(realm.objects(RFD.self).where { $0.owner.id == p.id }.count == (owners[key] ?? []).count)
        }
        #expect(
            realm.objects(RFP.self).where { $0.e.x > 0 }.count
                == realm.objects(RFP.self).filter { ($0.e?.x ?? 0) > 0 }.count)
    }

    @Test func manyObjectsInnerNodesAndSparseKeys() throws {
        let realm = try openFixture(
            "many-objects.realm", [RFBig.self, RFHub.self, RFSeq.self, RFSparse.self, RFSpoke.self])
        try checkEveryObject(realm, "many-objects.realm")
        for type in [RFBig.self, RFHub.self, RFSeq.self, RFSparse.self, RFSpoke.self] as [Object.Type] {
            try checkQueries(realm, type)
        }
        // Ids -600…899.
        #expect(realm.object(ofType: RFBig.self, forPrimaryKey: -600)?.id == -600)
        #expect(realm.object(ofType: RFBig.self, forPrimaryKey: 899)?.id == 899)
        #expect(realm.object(ofType: RFBig.self, forPrimaryKey: 900) == nil)
        let spokes = realm.objects(RFHub.self).map { $0.spokes.count }.reduce(0, +)
        #expect(spokes == realm.objects(RFSpoke.self).where { $0.hub != nil }.count)
    }

    @Test func mixedLinks() throws {
        let realm = try openFixture("mixed-links.realm", [RFA.self, RFB.self, RFMixedC.self, RFEm.self])
        try checkEveryObject(realm, "mixed-links.realm")
        try checkQueries(realm, RFA.self)
        try checkQueries(realm, RFMixedC.self)
    }

    @Test func primaryKeysObjectIdUUIDAndIndexedString() throws {
        let k = try openFixture("pk-objectid.realm", [RFK.self])
        try checkEveryObject(k, "pk-objectid.realm")
        try checkQueries(k, RFK.self)
        for object in k.objects(RFK.self) {
            #expect(k.object(ofType: RFK.self, forPrimaryKey: object._id)?.n == object.n)
        }
        let u = try openFixture("pk-uuid.realm", [RFU.self])
        try checkEveryObject(u, "pk-uuid.realm")
        try checkQueries(u, RFU.self)
        let s = try openFixture("pk-string-indexed.realm", [RFS.self])
        try checkEveryObject(s, "pk-string-indexed.realm")
        try checkQueries(s, RFS.self)
    }

    @Test func stringsAndBlobs() throws {
        let realm = try openFixture("strings-and-blobs.realm", [RFT.self])
        try checkEveryObject(realm, "strings-and-blobs.realm")
        try checkQueries(realm, RFT.self)
    }

    @Test func everyCollectionType() throws {
        let realm = try openFixture("collections.realm", [RFCollections.self])
        try checkEveryObject(realm, "collections.realm")
        try checkQueries(realm, RFCollections.self)
    }

    @Test func encryptedFileWithItsKeyAndAWrongKey() throws {
        let url = written.appendingPathComponent("links-encrypted.realm")
        let types: [ObjectBase.Type] = [RFP.self, RFD.self, RFE.self, RFF.self]
        // The key of the writer's golden files: bytes 0…63 (RealmFileWriterGoldenTests).
        let key = Data((0..<64).map { UInt8($0) })
        let realm = try Realm(
            configuration: .init(fileURL: url, encryptionKey: key, readOnly: true, objectTypes: types))
        let plain = try openFixture("links.realm", types)
        #expect(realm.objects(RFP.self).map(\.name) == plain.objects(RFP.self).map(\.name))
        #expect(realm.objects(RFD.self).map { $0.pl.map(\.id) } == plain.objects(RFD.self).map { $0.pl.map(\.id) })
        var wrong = key
        wrong[5] ^= 0xFF
        #expect(throws: PorterError.self) {
            try Realm(configuration: .init(fileURL: url, encryptionKey: wrong, readOnly: true, objectTypes: types))
        }
    }

    @Test func openingReadsNoObject() throws {
        let realm = try openFixture(
            "many-objects.realm", [RFBig.self, RFHub.self, RFSeq.self, RFSparse.self, RFSpoke.self])
        let reader = try #require(realm.reader as? RealmFileReader)
        #expect(reader.objectsDecoded == 0)
        #expect(realm.objects(RFBig.self).count == 1500)
        #expect(reader.objectsDecoded == 0)
        let first = try #require(realm.objects(RFBig.self).first)
        #expect(first.s.isEmpty == false)
        #expect(reader.objectsDecoded >= 1 && reader.objectsDecoded <= 256)
    }

    @Test func aFileChangedOnDiskIsSeenAfterRefresh() throws {
        let dir = try TemporaryFolder()
        let path = dir.file("changing.realm").path
        let schema = try Schema(version: 0, objectTypes: [RFSeq.self])
        try RealmFileWriter(schema: schema, schemaVersion: 0).write(to: path, source: Seqs(values: [1, 2, 3]))
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: [RFSeq.self]))
        let all = realm.objects(RFSeq.self)
        let first = try #require(all.first)
        #expect(all.map(\.v) == [1, 2, 3])
        var changes: [RealmCollectionChange<Results<RFSeq>>] = []
        let token = all.observe { changes.append($0) }
        defer { token.invalidate() }
        #expect(realm.refresh() == false)
        try RealmFileWriter(schema: schema, schemaVersion: 0).write(to: path, source: Seqs(values: [10, 2, 3, 4]))
        #expect(realm.refresh())
        #expect(all.map(\.v) == [10, 2, 3, 4])
        #expect(first.v == 10)
        #expect(all.sum(ofProperty: "v") as Int == 19)
        let updates = changes.compactMap { change -> [Int]? in
            if case .update(_, _, let insertions, _) = change { return insertions }
            return nil
        }
        #expect(updates == [[3]])
        #expect(realm.refresh() == false)
        // Nothing written beside the file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["changing.realm"])
    }

    @Test func writesAndAPorterOnlyOpenAreRefused() throws {
        let url = written.appendingPathComponent("flat-pk-int.realm")
        #expect {
            try Realm(configuration: .init(fileURL: url, schemaVersion: 3, objectTypes: [RFItem.self]))
        } throws: { error in
            let text = "\(error)"
            return text.contains("readOnly: true") && text.contains("porter import") && text.contains(url.path)
        }
        let realm = try openFixture("flat-pk-int.realm", [RFItem.self], version: 3)
        #expect { try realm.write { realm.add(RFItem()) } } throws: { error in
            "\(error)".contains("Can't perform transactions on read-only Realms.")
        }
        #expect {
            try openFixture("flat-pk-int.realm", [RFItem.self], version: 2)
        } throws: { error in
            "\(error)".contains("Provided schema version 2 is less than last set version 3.")
        }
        // A model class the file lacks reads as empty; one it has must match.
        let u = try openFixture("pk-uuid.realm", [RFU.self, RFDec.self])
        #expect(u.objects(RFDec.self).isEmpty && u.objects(RFU.self).count == 5)
        #expect {
            try openFixture("pk-uuid.realm", [RFUWithIntN.self])
        } throws: { error in
            "\(error)".contains("Migration is required due to the following errors:") && "\(error)".contains("U.n")
        }
    }
}

/// `U` with its `n` declared optional: the file's is required.
final class RFUWithIntN: Object {
    override class func _realmObjectName() -> String? { "U" }
    @Persisted(primaryKey: true) var _id: UUID?
    @Persisted var n: Int?
}

/// Objects of `Seq` with the given values (keys 0, 1, 2 …).
private struct Seqs: RealmWriteSource {
    let values: [Int64]
    func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        guard className == "Seq" else { return }
        for (key, value) in values.enumerated() { try body(Int64(key), [.int(value)]) }
    }
}

// MARK: - Comparing with PorterRealmFile's reading

/// Every object of every class of the file (embedded ones too), property by property, read
/// through the typed API and through ``RealmFile`` directly; the classes' objects in the same order.
private func checkEveryObject(_ realm: Realm, _ name: String) throws {
    let file = try RealmFile(path: written.appendingPathComponent(name).path)
    for table in file.tables {
        guard let type = realm.typesByName[table.name] else {
            Issue.record("\(name): no model class for \(table.name)")
            continue
        }
        var keys: [Int64] = []
        try file.forEachObject(in: table) { object in
            keys.append(object.key)
            let typed = realm.managedObject(type, ObjectLink(table.name, ObjectKey(object.key)))
            for (property, value) in zip(table.properties, object.values) {
                let actual = canonical(typed.value(forKey: property.name))
                #expect(actual == canonical(value), "\(name): \(table.name)(\(object.key)).\(property.name)")
            }
        }
        #expect(try realm.reader.allKeys(table.name).map(\.rawValue) == keys, "\(name): \(table.name) keys")
    }
}

/// The typed API's results, equality queries, sorting and aggregates on every single-value
/// property of `T` against the values PorterRealmFile reads for that property.
private func checkQueries<T: Object>(_ realm: Realm, _ type: T.Type) throws {
    let file = try #require((realm.reader as? RealmFileReader)?.file)
    let name = T.className()
    guard let table = file.table(named: name) else {
        #expect(realm.objects(T.self).isEmpty)
        return
    }
    let all = realm.objects(T.self)
    #expect(all.count == (try file.objectCount(in: table)), "\(name).count")
    #expect(all.map { $0._managed!.key.rawValue } == (try file.objectKeys(in: table)), "\(name) order")
    // Mixed values compare across numeric types in queries (1 == 1.0): left to the typed tests.
    for property in table.properties
    where property.collection == .none && property.type != .object && property.type != .mixed {
        var values: [(key: Int64, value: RealmValue)] = []
        try file.forEachValue(in: table, property: property.name) { values.append(($0, $1)) }
        let place = "\(name).\(property.name)"
        // Equality with up to three distinct values (and null), each as a query argument.
        var tried = Set<String>()
        for (_, value) in values where tried.count < 3 && tried.insert(canonical(value)).inserted {
            let expected = values.filter { canonical($0.value) == canonical(value) }.map(\.key)
            if value == .null {
                let found = all.filter("\(property.name) == nil").map { $0._managed!.key.rawValue }
                #expect(found == expected, "\(place) == nil")
            } else if let argument = queryArgument(value) {
                let found = all.filter("\(property.name) == %@", argument).map { $0._managed!.key.rawValue }
                #expect(found == expected, "\(place) == \(argument)")
            }
        }
        // Sorting and aggregates on numbers: nulls first, then ascending.
        let numbers = values.map { number($0.value) }
        guard numbers.allSatisfy({ $0 != nil }) else { continue }
        let sorted = all.sorted(byKeyPath: property.name).map { number(typedValue($0, property.name)) }
        let expected = numbers.sorted { ($0!.map { $0 } ?? -.infinity) < ($1!.map { $0 } ?? -.infinity) }
        #expect(sorted.map { $0 ?? nil } == expected.map { $0 ?? nil }, "\(place) sorted")
        if property.type == .int && !property.isOptional && !values.isEmpty {
            let ints = values.compactMap { if case .int(let i) = $0.value { return Int(i) } else { return nil } }
            #expect(all.sum(ofProperty: property.name) as Int == ints.reduce(0, +), "\(place) sum")
            #expect(all.min(ofProperty: property.name) as Int? == ints.min(), "\(place) min")
            #expect(all.max(ofProperty: property.name) as Int? == ints.max(), "\(place) max")
            let middle = ints.sorted()[ints.count / 2]
            #expect(
                all.filter("\(property.name) > %@", middle).count == ints.filter { $0 > middle }.count,
                "\(place) > \(middle)")
        }
    }
}

private func typedValue(_ object: ObjectBase, _ name: String) -> RealmValue {
    switch object.value(forKey: name).flatMap(unwrapped) {
    case let i as Int: return .int(Int64(i))
    case let d as Double: return .double(d)
    case let f as Float: return .float(f)
    case nil: return .null
    default: return .string("?")
    }
}

/// A number for sorting: nil when not a number; `.some(nil)` for null.
private func number(_ value: RealmValue) -> Double?? {
    switch value {
    case .null: return .some(nil)
    case .int(let i): return Double(i)
    case .double(let d): return d.isNaN ? nil : d
    case .float(let f): return f.isNaN ? nil : Double(f)
    default: return nil
    }
}

/// A query argument for a stored value, where the query language takes one.
private func queryArgument(_ value: RealmValue) -> Any? {
    switch value {
    case .int(let i): return Int(i)
    case .bool(let b): return b
    case .string(let s): return s
    case .double(let d): return d.isNaN ? nil : d
    case .objectId(let o): return o
    case .uuid(let u): return u
    default: return nil
    }
}

private func unwrapped(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    return mirror.children.first.map { unwrapped($0.value) } ?? nil
}

private func dateText(_ date: Date) -> String { String(format: "t:%.6f", date.timeIntervalSince1970) }

/// A comparable text for a value read through the typed API.
private func canonical(_ any: Any?) -> String {
    guard let any, let value = unwrapped(any) else { return "null" }
    switch value {
    case let mixed as AnyRealmValue:
        switch mixed {
        case .none: return "null"
        case .int(let i): return "i:\(i)"
        case .bool(let b): return "b:\(b)"
        case .float(let f): return "f:\(f)"
        case .double(let d): return "d:\(d)"
        case .string(let s): return "s:\(s)"
        case .data(let d): return "x:\(d.base64EncodedString())"
        case .date(let d): return dateText(d)
        case .objectId(let o): return "oid:\(o.stringValue)"
        case .decimal128(let d): return "m:\(d)"
        case .uuid(let u): return "u:\(u.uuidString)"
        case .object(let o): return canonical(o)
        case .list(let list): return canonical(list)
        case .dictionary(let map): return canonical(map)
        }
    case let object as ObjectBase:
        guard let managed = object._managed else { return "unmanaged" }
        return "o:\(managed.className)#\(managed.key.rawValue)"
    case let b as Bool: return "b:\(b)"
    case let i as Int: return "i:\(i)"
    case let f as Float: return "f:\(f)"
    case let d as Double: return "d:\(d)"
    case let s as String: return "s:\(s)"
    case let d as Data: return "x:\(d.base64EncodedString())"
    case let d as Date: return dateText(d)
    case let d as Decimal128: return "m:\(d)"
    case let o as ObjectId: return "oid:\(o.stringValue)"
    case let u as UUID: return "u:\(u.uuidString)"
    case let sequence as any Sequence:
        let typeName = "\(type(of: value))"
        let elements = sequence.map { $0 as Any }
        if typeName.hasPrefix("Map<") {
            let entries = elements.map { entry -> String in
                let children = Array(Mirror(reflecting: entry).children)
                guard children.count == 2 else { return "?" }
                return "\(children[0].value)=\(canonical(children[1].value))"
            }
            return "{" + entries.sorted().joined(separator: ",") + "}"
        }
        let texts = elements.map { canonical($0) }
        return typeName.hasPrefix("MutableSet<")
            ? "<" + texts.sorted().joined(separator: ",") + ">"
            : "[" + texts.joined(separator: ",") + "]"
    default:
        return "unknown \(type(of: value))"
    }
}

/// A comparable text for a value read by PorterRealmFile.
private func canonical(_ value: RealmValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return "b:\(b)"
    case .int(let i): return "i:\(i)"
    case .float(let f): return "f:\(f)"
    case .double(let d): return "d:\(d)"
    case .string(let s): return "s:\(s)"
    case .binary(let d): return "x:\(d.base64EncodedString())"
    case .timestamp(let seconds, let nanoseconds):
        return dateText(Timestamp(seconds: seconds, nanoseconds: nanoseconds).date)
    case .decimal128(let d): return "m:\(d)"
    case .objectId(let o): return "oid:\(o.stringValue)"
    case .uuid(let u): return "u:\(u.uuidString)"
    case .link(let className, let key), .embedded(let className, let key, _): return "o:\(className)#\(key)"
    case .list(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
    case .set(let elements): return "<" + elements.map(canonical).sorted().joined(separator: ",") + ">"
    case .dictionary(let entries):
        return "{" + entries.map { "\($0.key)=\(canonical($0.value))" }.sorted().joined(separator: ",") + "}"
    }
}
