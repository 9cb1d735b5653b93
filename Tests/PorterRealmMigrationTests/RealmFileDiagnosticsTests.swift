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
            // Samples name objects by key: the file's own keys now, where the copy renumbered the
            // objects of classes with a primary key (and embedded ones). Everything else is identical.
            #expect(
                Self.keysHidden(direct.text(oldName: "a", newName: "b"))
                    == Self.keysHidden(copied.text(oldName: "a", newName: "b")), "\(label)")
            #expect(
                Self.keysHidden(direct.jsonValue(oldName: "a", newName: "b").serialized(pretty: true))
                    == Self.keysHidden(copied.jsonValue(oldName: "a", newName: "b").serialized(pretty: true)),
                "\(label)")
            compared += 1
        }
        #expect(compared > 20)
    }
}
