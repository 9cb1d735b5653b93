import Foundation
import RealmSwift
import Testing
import PorterTestSupport

// An app's real Realm files opened with its model classes, read-only, as Realm Swift code opens
// them (`Realm.Configuration(fileURL:readOnly:objectTypes:)`), checked against realm-core's own
// dump of each file (`NAME.expected.json`).

class Many: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var label: String
    @Persisted var values: List<Int>
    @Persisted var links: List<Many>
}

/// `Target` with its `n` declared as a string: the file stores an int.
class TargetWithStringN: Object {
    override class func _realmObjectName() -> String? { "Target" }
    @Persisted(primaryKey: true) var name: String
    @Persisted var n: String?
}

/// `Target` without its `n`.
class TargetWithoutN: Object {
    override class func _realmObjectName() -> String? { "Target" }
    @Persisted(primaryKey: true) var name: String
}

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/realm")
private let everyTypes: [ObjectBase.Type] = [Every.self, Target.self, NoPk.self, Emb.self, Inner.self]
/// The key of `every-type-encrypted.realm`: bytes 100…163.
private let fixtureKey = Data((100...163).map { UInt8($0) })

/// A copy of a fixture in a fresh folder, so a test can see every file a realm leaves there.
private func copiedFixture(_ name: String) throws -> (folder: TemporaryFolder, file: URL) {
    let tmp = try TemporaryFolder("realmfile")
    let folder = tmp.url
    let file = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: file)
    return (tmp, file)
}

private func expected(_ name: String) throws -> [String: Any] {
    let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
    return try JSONSerialization.jsonObject(with: data) as! [String: Any]
}

@Suite struct RealmFileTests {
    @Test func everyClassAndEveryPropertyTypeMatchesRealmCoresDump() throws {
        let url = fixtures.appendingPathComponent("every-type.realm")
        let realm = try Realm(
            configuration: .init(
                fileURL: url, readOnly: true, schemaVersion: 7,
                objectTypes: everyTypes))
        try checkEveryType(realm)
    }

    @Test func encryptedFileWithItsKey() throws {
        let url = fixtures.appendingPathComponent("every-type-encrypted.realm")
        let realm = try Realm(
            configuration: .init(
                fileURL: url, encryptionKey: fixtureKey, readOnly: true,
                schemaVersion: 7, objectTypes: everyTypes))
        try checkEveryType(realm)
    }

    @Test func encryptedFileWithAWrongOrShortKeyIsRefused() throws {
        let url = fixtures.appendingPathComponent("every-type-encrypted.realm")
        var wrong = fixtureKey
        wrong[0] ^= 1
        #expect(throws: (any Error).self) {
            try Realm(
                configuration: .init(
                    fileURL: url, encryptionKey: wrong, readOnly: true, schemaVersion: 7,
                    objectTypes: everyTypes))
        }
        let short = Data(repeating: 1, count: 32)
        #expect {
            try Realm(
                configuration: .init(
                    fileURL: url, encryptionKey: short, readOnly: true, schemaVersion: 7,
                    objectTypes: everyTypes))
        } throws: { error in
            "\(error)".contains("Encryption key must be 64 bytes long, got 32")
        }
    }

    @Test func queriesSortingAggregatesLinksAndLinkingObjects() throws {
        let url = fixtures.appendingPathComponent("every-type.realm")
        let realm = try Realm(
            configuration: .init(
                fileURL: url, readOnly: true, schemaVersion: 7,
                objectTypes: everyTypes))
        let every = realm.objects(Every.self)
        #expect(every.sorted(byKeyPath: "_id").map(\._id) == [-5, 1, 1000].sorted())
        #expect(every.where { $0.double == 1.0 }.map(\._id) == [1000])
        #expect(every.filter("_id > %@", 0).count == 2)
        #expect(every.max(ofProperty: "_id") as Int? == 1000)
        #expect(every.min(ofProperty: "_id") as Int? == -5)
        let withTarget = every.where { $0.target.name == "t1" }
        #expect(withTarget.count == 1)
        let one = try #require(realm.object(ofType: Every.self, forPrimaryKey: 1))
        #expect(one.targets.map(\.name) == ["t1", "t2", "t1"])
        #expect(one.emb?.label == "root")
        #expect(one.emb?.inner?.s == "deep")
        #expect(one.embMap["m"]??.inners.first?.v == 5)
        #expect(every.where { $0.emb.label == "root" }.map(\._id) == [1])
        let t1 = try #require(realm.object(ofType: Target.self, forPrimaryKey: "t1"))
        #expect(t1.pointedFrom.map(\._id) == [1])
        #expect(realm.objects(NoPk.self).sorted(byKeyPath: "n", ascending: false).map(\.label) == [nil, "first"])
    }

    @Test func aSubsetOfTheFilesClasses() throws {
        let url = fixtures.appendingPathComponent("every-type.realm")
        let realm = try Realm(
            configuration: .init(
                fileURL: url, readOnly: true, schemaVersion: 7,
                objectTypes: [NoPk.self]))
        #expect(realm.objects(NoPk.self).map(\.label) == ["first", nil])
    }

    @Test func innerNodesOfALargerFile() throws {
        let url = fixtures.appendingPathComponent("inner-nodes.realm")
        let realm = try Realm(configuration: .init(fileURL: url, readOnly: true, objectTypes: [Many.self]))
        let dump = try expected("inner-nodes.expected.json")["objects"] as! [String: [[String: Any]]]
        let all = realm.objects(Many.self)
        #expect(all.count == dump["Many"]!.count)
        for json in dump["Many"]! {
            let id = ejsonInt(json["id"])!
            let many = try #require(realm.object(ofType: Many.self, forPrimaryKey: id))
            #expect(many.label == json["label"] as? String)
            #expect(Array(many.values) == (json["values"] as! [Any]).map { ejsonInt($0)! })
            #expect(many.links.map(\.id) == (json["links"] as! [Any]).map { ejsonInt($0)! })
        }
        #expect(all.where { $0.values.count > 2000 }.count == 1)
        #expect(all.where { $0.label == "label-999" }.first?.id == 999)
    }

    @Test func aModelThatDiffersFromTheFileNeedsAMigration() throws {
        let url = fixtures.appendingPathComponent("every-type.realm")
        #expect {
            try Realm(
                configuration: .init(
                    fileURL: url, readOnly: true, schemaVersion: 7,
                    objectTypes: [TargetWithStringN.self]))
        } throws: { error in
            let text = "\(error)"
            return text.contains("Migration is required due to the following errors:")
                && text.contains("Target.n")
        }
        #expect {
            try Realm(
                configuration: .init(
                    fileURL: url, readOnly: true, schemaVersion: 7,
                    objectTypes: [TargetWithoutN.self]))
        } throws: { error in
            "\(error)".contains("Migration is required") && "\(error)".contains("Target.n")
        }
    }

    @Test func anOlderModelVersionIsRefused() throws {
        let url = fixtures.appendingPathComponent("every-type.realm")
        #expect {
            try Realm(
                configuration: .init(
                    fileURL: url, readOnly: true,
                    objectTypes: everyTypes))
        } throws: { error in
            "\(error)".contains("Provided schema version 0 is less than last set version 7.")
        }
    }

    @Test func withoutReadOnlyTheFileIsRefusedAndLeftAlone() throws {
        let (folder, file) = try copiedFixture("every-type.realm")
        let before = try Data(contentsOf: file)
        #expect {
            try Realm(
                configuration: .init(
                    fileURL: file, schemaVersion: 7,
                    objectTypes: everyTypes))
        } throws: { error in
            let text = "\(error)"
            return text.contains("readOnly: true") && text.contains("porter import") && text.contains(file.path)
        }
        #expect(try Data(contentsOf: file) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["every-type.realm"])
    }

    @Test func readingWritesNothingAndWritesAreRefused() throws {
        let (folder, file) = try copiedFixture("every-type.realm")
        let before = try Data(contentsOf: file)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        let realm = try Realm(
            configuration: .init(
                fileURL: file, readOnly: true, schemaVersion: 7,
                objectTypes: everyTypes))
        #expect(realm.objects(Every.self).count == 3)
        #expect { try realm.write { realm.add(Target(value: ["name": "t3"])) } } throws: { error in
            "\(error)".contains("Can't perform transactions on read-only Realms.")
        }
        #expect(realm.objects(Target.self).count == 2)
        #expect(try Data(contentsOf: file) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == modified)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["every-type.realm"])
    }

    /// Every object of every class of `every-type.realm` against realm-core's dump.
    private func checkEveryType(_ realm: Realm) throws {
        let dump = try expected("every-type.expected.json")["objects"] as! [String: [[String: Any]]]
        #expect(realm.objects(Every.self).count == dump["Every"]!.count)
        #expect(realm.objects(Target.self).count == dump["Target"]!.count)
        #expect(realm.objects(NoPk.self).count == dump["NoPk"]!.count)
        let plains = dump["NoPk"]!
        let comparer = EJSONComparer(noPk: plains)
        for json in dump["Target"]! {
            let target = try #require(realm.object(ofType: Target.self, forPrimaryKey: json["name"] as! String))
            comparer.check(target, json, "Target")
        }
        for (index, json) in plains.enumerated() {
            comparer.check(realm.objects(NoPk.self)[index], json.filter { $0.key != "_key" }, "NoPk")
        }
        for json in dump["Every"]! {
            let id = ejsonInt(json["_id"])!
            let every = try #require(realm.object(ofType: Every.self, forPrimaryKey: id))
            comparer.check(every, json, "Every(\(id))")
        }
    }
}

private func ejsonInt(_ json: Any?) -> Int? {
    if let d = json as? [String: Any], let s = d["$numberLong"] as? String ?? d["$numberInt"] as? String {
        return Int(s)
    }
    return json as? Int
}

/// Compares values read through the typed API with realm-core's Extended JSON dump of them.
private struct EJSONComparer {
    /// The NoPk objects of the dump, by `_key` (links to them are dumped as their key).
    let noPk: [[String: Any]]

    func check(_ object: ObjectBase, _ json: [String: Any], _ location: String) {
        for (key, expected) in json where key != "_key" {
            let actual = object.value(forKey: key)
            #expect(
                matches(actual, expected, property: key),
                "\(location).\(key): \(String(describing: actual)) vs \(expected)")
        }
    }

    private func elements(_ sequence: some Sequence) -> [Any] { sequence.map { $0 } }

    func matches(_ actual: Any?, _ expected: Any, property: String) -> Bool {
        let actual = actual.flatMap { unwrap($0) }
        if expected is NSNull {
            guard let actual else { return true }
            if let any = actual as? AnyRealmValue, case .none = any { return true }
            return false
        }
        guard let actual else { return false }
        if let any = actual as? AnyRealmValue { return matchesMixed(any, expected) }
        if let object = actual as? ObjectBase { return matchesObject(object, expected) }
        if let array = expected as? [Any] {
            guard let sequence = actual as? any Sequence else { return false }
            let values = elements(sequence)
            guard values.count == array.count else { return false }
            if property.hasSuffix("Set") {
                return array.allSatisfy { e in values.contains { matches($0, e, property: "") } }
            }
            return zip(values, array).allSatisfy { matches($0, $1, property: "") }
        }
        if let dict = expected as? [String: Any], !dict.keys.contains(where: { $0.hasPrefix("$") }) {
            // A map: its entries in any order.
            guard let sequence = actual as? any Sequence else { return false }
            var entries: [String: Any?] = [:]
            for entry in elements(sequence) {
                let children = Array(Mirror(reflecting: entry).children)
                guard children.count == 2, let key = children[0].value as? String else { return false }
                entries[key] = unwrap(children[1].value)
            }
            guard entries.count == dict.count else { return false }
            return dict.allSatisfy { key, value in entries[key].map { matches($0, value, property: "") } ?? false }
        }
        return matchesScalar(actual, expected)
    }

    private func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrap($0.value) } ?? nil
    }

    private func matchesObject(_ object: ObjectBase, _ expected: Any) -> Bool {
        switch object {
        case let target as Target: return expected as? String == target.name
        case let plain as NoPk:
            guard let key = ejsonInt(expected), key >= 0, key < noPk.count else { return false }
            return matches(plain.n, noPk[key]["n"]!, property: "")
                && matches(
                    plain.label, noPk[key]["label"]!,
                    property: "")
        default:
            guard let dict = expected as? [String: Any] else { return false }
            return dict.allSatisfy { key, value in matches(object.value(forKey: key), value, property: key) }
        }
    }

    private func matchesMixed(_ value: AnyRealmValue, _ expected: Any) -> Bool {
        switch value {
        case .none: return expected is NSNull
        case .int(let i): return matchesScalar(i, expected)
        case .bool(let b): return matchesScalar(b, expected)
        case .float(let f): return matchesScalar(f, expected)
        case .double(let d): return matchesScalar(d, expected)
        case .string(let s): return matchesScalar(s, expected)
        case .data(let d): return matchesScalar(d, expected)
        case .date(let d): return matchesScalar(d, expected)
        case .objectId(let o): return matchesScalar(o, expected)
        case .decimal128(let d): return matchesScalar(d, expected)
        case .uuid(let u): return matchesScalar(u, expected)
        case .object(let object):
            guard let ref = expected as? [String: Any], let className = ref["$ref"] as? String else { return false }
            return type(of: object).className() == className && matchesObject(object, ref["$id"]!)
        case .list(let list): return matches(Array(list), expected, property: "")
        case .dictionary(let map): return matches(map, expected, property: "")
        }
    }

    private func matchesScalar(_ actual: Any, _ expected: Any) -> Bool {
        let dict = expected as? [String: Any]
        switch actual {
        case let b as Bool: return expected as? Bool == b
        case let s as String: return expected as? String == s
        case let i as Int: return ejsonInt(expected) == i
        case let f as Float: return sameDouble(Double(f), dict?["$numberDouble"] as? String, float: true)
        case let d as Double: return sameDouble(d, dict?["$numberDouble"] as? String, float: false)
        case let d as Decimal128:
            guard let text = dict?["$numberDecimal"] as? String,
                let e = try? Decimal128(string: text)
            else { return false }
            return d == e || (d.isNaN && e.isNaN)
        case let o as ObjectId: return (dict?["$oid"] as? String) == o.stringValue
        case let u as UUID:
            guard let binary = dict?["$binary"] as? [String: Any], binary["subType"] as? String == "04",
                let data = Data(base64Encoded: binary["base64"] as! String)
            else { return false }
            return withUnsafeBytes(of: u.uuid) { Data($0) } == data
        case let d as Data:
            guard let binary = dict?["$binary"] as? [String: Any],
                let data = Data(base64Encoded: binary["base64"] as! String)
            else { return false }
            return d == data
        case let date as Date:
            guard let ms = ejsonInt((dict?["$date"] as? [String: Any]).map { $0 as Any }) else { return false }
            let nanos = Double(ejsonInt(dict?["$nanos"]) ?? (dict?["$nanos"] as? Int) ?? 0)
            let seconds = Double(ms) / 1000 + nanos / 1e9
            return abs(date.timeIntervalSince1970 - seconds) <= max(1e-6, abs(seconds) * 1e-15)
        default: return false
        }
    }

    private func sameDouble(_ actual: Double, _ text: String?, float: Bool) -> Bool {
        guard let text else { return false }
        let expected: Double
        switch text {
        case "NaN": return actual.isNaN
        case "Infinity": expected = .infinity
        case "-Infinity": expected = -.infinity
        default: expected = Double(text) ?? .nan
        }
        let rounded = float ? Double(Float(expected)) : expected
        return actual == rounded && actual.sign == rounded.sign
    }
}
