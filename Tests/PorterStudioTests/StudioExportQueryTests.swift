import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterRealm
import PorterRealmFile
import PorterStore
import PorterTestSupport
import Testing

@testable import PorterStudio

/// The export of the current query result: the objects the query keeps, in the table's order,
/// the same bytes as `porter export --class C --query Q --sort S --out -`.
@Suite struct StudioExportQueryTests {
    typealias S = StudioServerTests

    static func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }

    /// What `porter export` writes for `selection` (the command's CSV follows links with a selection).
    static func expected(_ exporter: Exporter, format: String, selection: ExportSelection, to path: String) throws
        -> Data
    {
        exporter.selection = selection
        try exporter.checkSelection()
        let output = try ByteOutput.creatingFile(at: path)
        _ = try exporter.export(className: selection.className, to: output)
        try output.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func format(_ name: String) -> DocumentOutputFormat {
        name == "csv" ? CSVFormat(followsLinks: true) : InterchangeFormats.output.first { $0.name == name }!
    }

    @Test(arguments: ["csv", "json", "ejson", "ejson-canonical", "bson"])
    func theQueryResultIsExportedInTheTablesOrder(format: String) async throws {
        let folder = try TemporaryFolder("studio-export")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let db = try Database.open(at: path, readOnly: true)
        let selection = ExportSelection(className: "Person", query: "age > 30", sort: "-age")
        let expected = try Self.expected(
            Exporter(database: db, format: Self.format(format), options: ExportOptions(classes: ["Person"])),
            format: format, selection: selection, to: folder.path("expected"))
        let whole = try Self.expected(
            Exporter(database: db, format: Self.format(format), options: ExportOptions(classes: ["Person"])),
            format: format, selection: ExportSelection(className: "Person"), to: folder.path("whole"))
        #expect(expected != whole)
        let app = StudioServer(file: .porter(db), writable: false, token: "t0k")
        try await S.serving(app) { client in
            let uri =
                "/api/classes/Person/export?format=\(format)&query=\(Self.encoded("age > 30"))"
                + "&sort=age&descending=true&token=t0k"
            let (status, response, data) = try await S.fetch(client, uri)
            #expect(status == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Disposition")?.contains("Person.") == true)
            #expect(data == expected)
        }
        if format == "csv" {
            let rows = String(decoding: expected, as: UTF8.self).split(whereSeparator: \.isNewline)
            try #require(rows.count == 3)
            #expect(rows[1].hasPrefix("Ann,") && rows[2].hasPrefix("Cid,"), "\(rows)")
        }
    }

    @Test func aRealmFilesQueryResultIsExported() async throws {
        let folder = try TemporaryFolder("studio-export")
        let db = try Database.open(at: S.makeDatabase(at: folder.path("people.porter")))
        let path = folder.path("people.realm")
        try RealmFileOutput.write(db, to: path)
        let file = try RealmFile(path: path)
        let expected = try Self.expected(
            Exporter(realmFile: file, format: Self.format("json"), options: ExportOptions(classes: ["Person"])),
            format: "json", selection: ExportSelection(className: "Person", query: "dog.name == 'Rex'"),
            to: folder.path("expected"))
        let app = StudioServer(file: .realm(file), writable: false, token: "t0k")
        try await S.serving(app) { client in
            let (status, _, data) = try await S.fetch(
                client, "/api/classes/Person/export?format=json&query=\(Self.encoded("dog.name == 'Rex'"))&token=t0k")
            #expect(status == 200)
            #expect(data == expected)
            #expect(String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).count == 2)
        }
    }

    @Test(arguments: [
        ("age >> 3", "query: "), ("height > 3", "query: "), ("age == 3 AND", "query: "),
    ])
    func aMalformedQueryIsA400WithOneLine(query: String, prefix: String) async throws {
        let folder = try TemporaryFolder("studio-export")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let app = try S.server(path)
        try await S.serving(app) { client in
            let (status, body) = try await S.call(
                client, "/api/classes/Person/export?format=csv&query=\(Self.encoded(query))")
            #expect(status == 400)
            let message = body["error"]?.stringValue ?? ""
            #expect(message.hasPrefix(prefix), "\(message)")
            #expect(!message.contains("--query"))
            #expect(!message.contains("\n"))
        }
    }

    @Test func aBadSortOrAnEmptyQueryAnswerAsTheTableDoes() async throws {
        let folder = try TemporaryFolder("studio-export")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let app = try S.server(path)
        try await S.serving(app) { client in
            let (status, body) = try await S.call(client, "/api/classes/Person/export?format=csv&sort=height")
            #expect(status == 400)
            #expect(body["error"]?.stringValue?.hasPrefix("sort: ") == true, "\(body)")
            // A blank query box exports the whole class.
            let (blank, _, data) = try await S.fetch(
                client, "/api/classes/Person/export?format=csv&query=%20&token=t0k")
            #expect(blank == 200)
            #expect(String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).count == 4)
        }
    }
}
