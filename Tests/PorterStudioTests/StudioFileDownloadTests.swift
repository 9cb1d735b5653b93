import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterRealm
import PorterRealmFile
import PorterStore
import PorterTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import PorterStudio

/// Downloads in the whole-file formats: `sqlite` (as `porter export --format sqlite`, of the class
/// or of a query result) and `realm` (a Realm file of the class), written to a temporary folder
/// that is gone once the download is answered.
@Suite struct StudioFileDownloadTests {
    typealias S = StudioServerTests

    static func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }

    /// A server whose downloads are written under `folder`'s `tmp` (so leftovers can be counted).
    static func server(_ file: StudioFile, _ folder: TemporaryFolder) throws -> StudioServer {
        let app = StudioServer(file: file, writable: false, token: "t0k")
        let tmp = folder.path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        app.store.temporaryDirectory = tmp
        return app
    }

    static func leftovers(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path("tmp"))
    }

    /// Every row of every table, in row order, as text (to compare two SQLite files).
    static func dump(_ path: String) throws -> [String: [String]] {
        let file = try PlainSQLiteFile(readingAt: path)
        var out: [String: [String]] = [:]
        for table in try file.tableNames() {
            out[table] = try file.rows("SELECT * FROM \"\(table)\" ORDER BY rowid").map { "\($0)" }
        }
        return out
    }

    /// The downloaded bytes, saved to `path`.
    static func download(_ client: String, _ uri: String, to path: String) async throws -> (Int, HTTPURLResponse) {
        let (status, response, data) = try await S.fetch(client, uri)
        try data.write(to: URL(fileURLWithPath: path))
        return (status, response)
    }

    @Test func sqliteDownloadsAreWhatPorterExportWrites() async throws {
        let folder = try TemporaryFolder("studio-download")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let db = try Database.open(at: path, readOnly: true)
        // As `porter export --format sqlite --class Person [--query Q --sort -age]` writes them.
        let bson = try InterchangeFormats.outputFormat(named: "bson")
        let whole = Exporter(database: db, format: bson, options: ExportOptions(classes: ["Person"]))
        _ = try whole.export(toSQLite: folder.path("expected.sqlite"))
        let selected = Exporter(database: db, format: bson, options: ExportOptions(classes: ["Person"]))
        selected.selection = ExportSelection(className: "Person", query: "age > 30", sort: "-age")
        try selected.checkSelection()
        _ = try selected.export(toSQLite: folder.path("expected-query.sqlite"))
        let app = try Self.server(.porter(db), folder)
        try await S.serving(app) { client in
            let (status, response) = try await Self.download(
                client, "/api/classes/Person/export?format=sqlite&token=t0k", to: folder.path("got.sqlite"))
            #expect(status == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Disposition")?.contains("Person.sqlite") == true)
            let (queried, _) = try await Self.download(
                client,
                "/api/classes/Person/export?format=sqlite&query=\(Self.encoded("age > 30"))&sort=age&descending=true"
                    + "&token=t0k", to: folder.path("got-query.sqlite"))
            #expect(queried == 200)
        }
        let got = try Self.dump(folder.path("got.sqlite"))
        #expect(got == (try Self.dump(folder.path("expected.sqlite"))))
        let names = try PlainSQLiteFile(readingAt: folder.path("got.sqlite")).rows(
            "SELECT name, age FROM Person ORDER BY name")
        #expect(names == [[.text("Ann"), .integer(41)], [.text("Bob"), .integer(29)], [.text("Cid"), .integer(35)]])
        let query = try Self.dump(folder.path("got-query.sqlite"))
        #expect(query == (try Self.dump(folder.path("expected-query.sqlite"))))
        #expect(query["Person"]?.count == 2)
        #expect(try Self.leftovers(folder).isEmpty)
    }

    @Test func realmDownloadsHoldTheClassAndWhatItLinksTo() async throws {
        let folder = try TemporaryFolder("studio-download")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let db = try Database.open(at: path, readOnly: true)
        try RealmFileOutput.write(db, to: folder.path("people.realm"))
        let sources: [(String, StudioFile)] = [
            ("porter", .porter(db)), ("realm", .realm(try RealmFile(path: folder.path("people.realm")))),
        ]
        for (name, file) in sources {
            let app = try Self.server(file, folder)
            try await S.serving(app) { client in
                let (status, response) = try await Self.download(
                    client, "/api/classes/Person/export?format=realm&token=t0k", to: folder.path("\(name)-P.realm"))
                #expect(status == 200)
                #expect(response.value(forHTTPHeaderField: "Content-Disposition")?.contains("Person.realm") == true)
                let (dogs, _) = try await Self.download(
                    client, "/api/classes/Dog/export?format=realm&token=t0k", to: folder.path("\(name)-D.realm"))
                #expect(dogs == 200)
            }
            // Person holds a mixed property (it may link anywhere): every class, every object.
            let people = try RealmFile(path: folder.path("\(name)-P.realm"))
            #expect(people.fileFormat == 24)
            #expect(people.schemaVersion == 4)
            #expect(Set(people.tables.map(\.name)) == ["Person", "Dog", "Address"])
            #expect(
                try StudioRealmWriteTests.ages(folder.path("\(name)-P.realm")) == ["Ann": 41, "Bob": 29, "Cid": 35])
            #expect(try people.table(named: "Dog").map { try people.objectCount(in: $0) } == 2)
            // Dog links nowhere: the file holds Dog alone (its linking objects' origin left out).
            let dogs = try RealmFile(path: folder.path("\(name)-D.realm"))
            #expect(dogs.tables.map(\.name) == ["Dog"])
            let table = try #require(dogs.table(named: "Dog"))
            var names: [String] = []
            try dogs.forEachObject(in: table) { if case .string(let s) = $0.values[0] { names.append(s) } }
            #expect(names.sorted() == ["Fido", "Rex"])
            #expect(try Self.leftovers(folder).isEmpty)
        }
    }

    @Test func theClassClosureFollowsLinksAndEmbeddedObjects() throws {
        let schema = try Schema(
            jsonString: """
                {"classes": [
                  {"name": "A", "properties": {"b": "B?", "back": {"type": "linkingObjects", "objectType": "C", "property": "a"}}},
                  {"name": "B", "properties": {"e": "E?", "bs": "B[]"}},
                  {"name": "C", "properties": {"a": "A?"}},
                  {"name": "E", "embedded": true, "properties": {"x": "int"}}
                ]}
                """)
        let a = StudioFileDownload.realmSchema(of: "A", in: schema)
        #expect(a.classes.map(\.name) == ["A", "B", "E"])
        #expect(a["A"]?.properties.map(\.name) == ["b"])
        let c = StudioFileDownload.realmSchema(of: "C", in: schema)
        #expect(c.classes.map(\.name) == ["A", "B", "C", "E"])
        #expect(c["A"]?.properties.map(\.name) == ["b", "back"])
    }

    @Test(arguments: [
        (
            "/api/classes/Person/export?format=realm&query=age%20%3E%201",
            "a query result cannot be downloaded as a Realm file (porter export --format realm writes whole classes): clear the query or choose another format"
        ),
        (
            "/api/classes/Person/export?format=sqlite&query=age%20%3E",
            "query: "
        ),
        (
            "/api/classes/Address/export?format=sqlite",
            "'Address' is an embedded class: its objects are exported inside their parents' documents"
        ),
        (
            "/api/classes/Nope/export?format=realm",
            "no class named 'Nope'"
        ),
        (
            "/api/classes/Person/export?format=xml",
            "unknown export format 'xml' (known: bson, json, ejson, ejson-canonical, csv, sqlite, realm)"
        ),
    ])
    func badDownloadsAnswer400(uri: String, expected: String) async throws {
        let folder = try TemporaryFolder("studio-download")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let app = try Self.server(.porter(try Database.open(at: path, readOnly: true)), folder)
        try await S.serving(app) { client in
            let (status, body) = try await S.call(client, uri)
            #expect(status == 400)
            let message = body["error"]?.stringValue ?? ""
            #expect(message.hasPrefix(expected), "\(message)")
            #expect(!message.contains("\n"))
        }
        #expect(try Self.leftovers(folder).isEmpty)
    }

    @Test func anEncryptedFileIsNotWrittenDecrypted() async throws {
        let folder = try TemporaryFolder("studio-download")
        let key = (0..<64).map { UInt8($0 * 5 % 256) }
        let db = try Database.open(at: S.makeDatabase(at: folder.path("people.porter")), readOnly: true)
        try RealmFileOutput.write(db, to: folder.path("secret.realm"), encryptionKey: key)
        let app = try Self.server(.realm(try RealmFile(path: folder.path("secret.realm"), encryptionKey: key)), folder)
        try await S.serving(app) { client in
            for format in ["sqlite", "realm"] {
                let (status, body) = try await S.call(client, "/api/classes/Dog/export?format=\(format)")
                #expect(status == 400)
                #expect(
                    body["error"]?.stringValue
                        == "an encrypted Realm file is not downloaded as \(format): it would be written decrypted to a "
                        + "temporary file first; use porter export --format \(format)")
            }
            // The streamed formats never touch the disk.
            #expect(try await S.fetch(client, "/api/classes/Dog/export?format=json&token=t0k").0 == 200)
        }
        #expect(try Self.leftovers(folder).isEmpty)
    }

    @Test func aTemporaryFolderThatCannotBeMadeIsA500() async throws {
        let folder = try TemporaryFolder("studio-download")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let app = StudioServer(
            file: .porter(try Database.open(at: path, readOnly: true)), writable: false, token: "t0k")
        app.store.temporaryDirectory = folder.path("missing")
        try await S.serving(app) { client in
            let (status, body) = try await S.call(client, "/api/classes/Person/export?format=sqlite")
            #expect(status == 500)
            #expect(
                body["error"]?.stringValue?.hasPrefix("cannot create a temporary folder in \(folder.path("missing"))")
                    == true)
        }
    }
}
