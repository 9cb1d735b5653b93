import Foundation
import PorterModel
import PorterRealmFile
import PorterTestSupport
import Testing

/// `porter import DB app.realm` reads the file's objects as `Value`s by their keys; it must give
/// what importing the file's export gives (the documents it read before: links by primary key or
/// `_key`, embedded objects nested), into the file's own schema and into schemas that differ
/// (a property retyped or removed), where the document rules convert or refuse.
@Suite struct RealmImportByKeyTests {
    static let files = [
        "every-type.realm", "inner-nodes.realm", "column-migration/column-migration.realm", "written/links.realm",
        "written/mixed-links.realm", "written/collections.realm", "written/flat-no-pk.realm",
    ]

    /// The file's schema, then each stored property retyped to double and to string, and removed.
    static func schemas(_ schema: Schema) -> [(String, Schema)] {
        var out = [("the file's schema", schema)]
        for (c, cls) in schema.classes.enumerated() {
            for (i, property) in cls.properties.enumerated()
            where !property.isComputed && property.type != .object && cls.primaryKey != property.name {
                func variant(_ label: String, _ edit: (inout ObjectSchema) -> Void) {
                    var classes = schema.classes
                    edit(&classes[c])
                    out.append(
                        ("\(cls.name).\(property.name) \(label)", Schema(version: schema.version, classes: classes)))
                }
                for type in [PropertyType.double, .string] where type != property.type {
                    variant("to \(type)") { $0.properties[i].type = type }
                }
                variant("removed") { $0.properties.remove(at: i) }
            }
        }
        return out
    }

    /// Each error line without its place (a Realm file names `Class#N`, a dump its class file).
    static func messages(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").dropFirst().map { line in
            let text = String(line)
            guard let range = text.range(of: #"#\d+(:[^ ]*)?: "#, options: .regularExpression) else { return text }
            return String(text[range.lowerBound...].drop { $0 != ":" })
        }.sorted()
    }

    @Test(arguments: files)
    func aRealmFileImportsAsItsExportDoes(_ name: String) throws {
        let realm = TestFiles.root.appendingPathComponent("Fixtures/realm/\(name)").path
        let tmp = try TemporaryFolder("import-by-key")
        let dump = tmp.path("dump")
        #expect(CapturedOutput.run(["export", realm, "--out", dump, "--format", "bson"]).status == 0)
        for (n, (label, schema)) in Self.schemas(try RealmFile(path: realm).schema).enumerated() {
            let schemaFile = tmp.path("schema-\(n).json")
            try Data(schema.jsonString().utf8).write(to: URL(fileURLWithPath: schemaFile))
            let byKey = tmp.path("key-\(n).porter"), byDocument = tmp.path("doc-\(n).porter")
            for db in [byKey, byDocument] {
                #expect(CapturedOutput.run(["create", db, "--schema", schemaFile]).status == 0)
            }
            let imported = CapturedOutput.run(["import", byKey, realm])
            let reference = CapturedOutput.run(["import", byDocument, dump])
            #expect(imported.status == reference.status, "\(name), \(label): \(imported.output.stderr)")
            guard imported.status == 0, reference.status == 0 else {
                #expect(
                    Self.messages(imported.output.stderr) == Self.messages(reference.output.stderr), "\(name), \(label)"
                )
                continue
            }
            for (db, out) in [(byKey, "key-\(n)"), (byDocument, "doc-\(n)")] {
                #expect(CapturedOutput.run(["export", db, "--out", tmp.path(out), "--format", "bson"]).status == 0)
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: tmp.path("key-\(n)")).sorted()
            #expect(files == (try FileManager.default.contentsOfDirectory(atPath: tmp.path("doc-\(n)")).sorted()))
            for file in files {
                let a = try Data(contentsOf: URL(fileURLWithPath: tmp.path("key-\(n)/\(file)")))
                let b = try Data(contentsOf: URL(fileURLWithPath: tmp.path("doc-\(n)/\(file)")))
                #expect(a == b, "\(name), \(label): \(file)")
            }
        }
    }
}
