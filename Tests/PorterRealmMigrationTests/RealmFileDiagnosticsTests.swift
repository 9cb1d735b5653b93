import Foundation
import PorterDiff
import PorterModel
import PorterRealm
import PorterRealmFile
import PorterStore
import PorterTestSupport
import Testing

/// `porter diff app.realm` reads the data facts from the Realm file itself (``RealmFileInspector``):
/// its report must be the one a Porter database holding the file's objects gives (the copy diff
/// made before), for every kind of change the diagnostics look at.
@Suite struct RealmFileDiagnosticsTests {
    /// Realm-core-made fixtures: every type (`mixed` links, nested collections), 700 objects with
    /// inner nodes, links, lists of links, embedded objects.
    static let fixtures = [
        MigrationFixture.Base.columnMigration.realm, MigrationFixture.Base.everyType.realm,
        MigrationFixture.directory.deletingLastPathComponent().appendingPathComponent("inner-nodes.realm").path,
    ]

    /// New schemas, one change each: every class removed or made embedded, every property removed,
    /// retyped (to string, int and double), made required, made the primary key.
    static func changedSchemas(_ old: Schema) -> [(String, Schema)] {
        var out: [(String, Schema)] = []
        func edited(_ label: String, _ edit: (inout Schema) -> Void) {
            var schema = old
            edit(&schema)
            out.append((label, schema))
        }
        for cls in old.classes {
            edited("remove \(cls.name)") { $0.remove(className: cls.name) }
            if !cls.isEmbedded {
                edited("embed \(cls.name)") { s in
                    var c = cls
                    c.isEmbedded = true
                    c.primaryKey = nil
                    s.upsert(c)
                }
            }
            for (i, property) in cls.properties.enumerated() where !property.isComputed {
                func change(_ label: String, _ edit: (inout Property) -> Void) {
                    edited("\(cls.name).\(property.name) \(label)") { s in
                        var c = cls
                        edit(&c.properties[i])
                        s.upsert(c)
                    }
                }
                edited("\(cls.name).\(property.name) removed") { s in
                    var c = cls
                    c.properties.remove(at: i)
                    if c.primaryKey == property.name { c.primaryKey = nil }
                    s.upsert(c)
                }
                guard property.type != .object else { continue }
                for type in [PropertyType.string, .int, .double] where type != property.type {
                    change("to \(type)") { $0.type = type }
                }
                if property.isOptional { change("required") { $0.isOptional = false } }
                if !property.isCollection, cls.primaryKey != property.name, !cls.isEmbedded {
                    edited("\(cls.name).\(property.name) primary key") { s in
                        var c = cls
                        c.primaryKey = property.name
                        s.upsert(c)
                    }
                }
            }
        }
        return out
    }

    /// `Class(12)` written `Class(#)`: the object keys samples name.
    static func keysHidden(_ text: String) -> String {
        text.replacingOccurrences(of: #"\((\d+)\)"#, with: "(#)", options: .regularExpression)
    }

    /// A text report without its samples (a line's examples after its first `: `). Which values a
    /// sample of a collection shows first differs: the file's element order here, the copy's
    /// tables' order there; ``everySampleIsOneTheCopyFinds`` compares all of them.
    static func samplesHidden(_ text: String) -> String {
        text.replacingOccurrences(of: #"(?m)^(\s+\d+ [^:\n]*): .*$"#, with: "$1: …", options: .regularExpression)
    }

    /// A JSON report with each `sample` list replaced by its length.
    static func samplesHidden(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let members):
            return .object(
                members.map { member in
                    if member.key == "sample", case .array(let items) = member.value {
                        return JSONMember(member.key, .number(String(items.count)))
                    }
                    return JSONMember(member.key, samplesHidden(member.value))
                })
        case .array(let items): return .array(items.map(samplesHidden))
        default: return json
        }
    }

    @Test(arguments: fixtures)
    func diagnosticsMatchACopyInADatabase(_ path: String) throws {
        let file = try RealmFile(path: path)
        let old = file.schema
        let scratch = try RealmScratchDatabase(file, schema: old, inMemory: true)
        let db = try #require(scratch.database)
        let inspector = RealmFileInspector(file)
        var compared = 0
        for (label, new) in Self.changedSchemas(old) {
            guard var direct = try? DiffReport(old: old, new: new), direct.hasChanges else { continue }
            var copied = direct
            try direct.addDiagnostics(from: inspector)
            try db.read { try copied.addDiagnostics(from: db) }
            // Counts, verdicts and the number of samples are identical; the samples themselves are
            // compared below (they name the file's own keys, where the copy renumbered objects).
            #expect(
                Self.samplesHidden(direct.text(oldName: "a", newName: "b"))
                    == Self.samplesHidden(copied.text(oldName: "a", newName: "b")), "\(label)")
            #expect(
                Self.samplesHidden(direct.jsonValue(oldName: "a", newName: "b"))
                    == Self.samplesHidden(copied.jsonValue(oldName: "a", newName: "b")), "\(label)")
            compared += 1
        }
        #expect(compared > 10)
    }

    /// With no limit on samples, the file's unconvertible values are the copy's, value for value
    /// (keys hidden), and its duplicates are the copy's exactly, for every stored property retyped
    /// to string, int and double under every rule.
    @Test(arguments: fixtures)
    func everySampleIsOneTheCopyFinds(_ path: String) throws {
        let file = try RealmFile(path: path)
        let scratch = try RealmScratchDatabase(file, schema: file.schema, inMemory: true)
        let db = try #require(scratch.database)
        let inspector = RealmFileInspector(file)
        var compared = 0
        for cls in file.schema.classes {
            for property in cls.properties where !property.isComputed && property.type != .object {
                for type in [PropertyType.string, .int, .double] where type != property.type {
                    var target = property
                    target.type = type
                    for rule in ConversionRule.allCases {
                        let a = try inspector.unconvertibleValues(
                            cls.name, property, to: target, rule: rule, sampleLimit: .max)
                        let b = try db.read {
                            try db.unconvertibleValues(cls.name, property, to: target, rule: rule, sampleLimit: .max)
                        }
                        let label = "\(cls.name).\(property.name) to \(type) (\(rule))"
                        #expect(a.count == b.count, "\(label)")
                        #expect(
                            a.sample.map(Self.keysHidden).sorted() == b.sample.map(Self.keysHidden).sorted(), "\(label)"
                        )
                        compared += a.count
                    }
                }
                if !property.isCollection {
                    let a = try inspector.duplicateValues(cls.name, property, sampleLimit: .max)
                    let b = try db.read { try db.duplicateValues(cls.name, property, sampleLimit: .max) }
                    #expect(a == b, "\(cls.name).\(property.name) duplicates")
                }
            }
        }
        #expect(compared > 0)
    }

    /// The objects a sample names are the file's own: `Person(K)` is the object with key K in the
    /// file, whose value the sample quotes (a copy renumbered objects with a primary key).
    @Test func samplesNameTheFilesOwnObjectKeys() throws {
        let file = try RealmFile(path: MigrationFixture.Base.columnMigration.realm)
        let old = file.schema
        var person = try #require(old["Person"])
        let i = try #require(person.properties.firstIndex { $0.name == "name" })
        person.properties[i].type = .int
        var new = old
        new.upsert(person)
        var report = try DiffReport(old: old, new: new)
        try report.addDiagnostics(from: RealmFileInspector(file))
        let table = try #require(file.table(named: "Person"))
        var names: [Int64: String] = [:]
        try file.forEachValue(in: table, property: "name") { key, value in
            if case .string(let name) = value { names[key] = name }
        }
        let text = report.text(oldName: "a", newName: "b")
        let pattern = try NSRegularExpression(pattern: #"Person\((\d+)\): (.*)"#)
        var checked = 0
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let key = try #require(Int64(String(text[Range(match.range(at: 1), in: text)!])))
            let message = String(text[Range(match.range(at: 2), in: text)!])
            let name = try #require(names[key], "Person(\(key)) is not an object of the file")
            #expect(message.contains(name), "Person(\(key)) holds '\(name)', the sample says: \(message)")
            checked += 1
        }
        #expect(checked > 0, "no sample in:\n\(text)")
    }
}
