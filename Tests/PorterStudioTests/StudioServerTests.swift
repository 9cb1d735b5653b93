import Foundation
import Porter
import PorterModel
import PorterRealmFile
import PorterStore
import PorterTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import PorterStudio

/// Every route of `porter studio`'s API, served on 127.0.0.1 and called over HTTP.
@Suite struct StudioServerTests {
    static let schemaJSON = """
        {"schemaVersion": 4, "classes": [
          {"name": "Person", "primaryKey": "name", "properties": {
            "name": "string", "age": "int", "born": "date?", "balance": "decimal128?", "photo": "data?",
            "extra": "mixed", "dog": "Dog?", "tags": "string[]", "scores": "int{}", "address": "Address?",
            "friends": "Person[]"}},
          {"name": "Dog", "properties": {"name": "string",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dog"}}},
          {"name": "Address", "embedded": true, "properties": {"city": "string", "zip": "string?"}}
        ]}
        """
    static let realmDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/realm")

    /// A database of three people, two dogs and embedded addresses.
    static func makeDatabase(_ folder: TemporaryFolder) throws -> String {
        try makeDatabase(at: folder.path("people.porter"))
    }

    /// The database of ``makeDatabase(_:)`` at `path`.
    @discardableResult
    static func makeDatabase(at path: String) throws -> String {
        let db = try Database.create(at: path, schema: try Schema(jsonString: schemaJSON))
        try db.write {
            let rex = try db.create("Dog", ["name": .string("Rex")])
            _ = try db.create("Dog", ["name": .string("Fido")])
            _ = try db.create(
                "Person",
                [
                    "name": .string("Ann"), "age": .int(41),
                    "born": .date(Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789)),
                    "balance": .decimal128(try Decimal128(string: "1234.5600")),
                    "photo": .data(Data([0xde, 0xad, 0xbe, 0xef])), "extra": .int(7),
                    "dog": .link(ObjectLink("Dog", rex)), "tags": .list([.string("a"), .string("b")]),
                    "scores": .map(["x": .int(1)]), "address": .object(["city": .string("Oslo")]),
                ])
            _ = try db.create(
                "Person", ["name": .string("Bob"), "age": .int(29), "dog": .link(ObjectLink("Dog", rex))])
            _ = try db.create("Person", ["name": .string("Cid"), "age": .int(35), "extra": .string("hi")])
        }
        return path
    }

    static func server(_ path: String, writable: Bool = false) throws -> StudioServer {
        StudioServer(file: .porter(try Database.open(at: path, readOnly: !writable)), writable: writable, token: "t0k")
    }

    /// Serves `server` on a free port of 127.0.0.1 while `body` runs (given the base URL).
    static func serving(_ server: StudioServer, _ body: (String) async throws -> Void) async throws {
        let (urls, continuation) = AsyncStream<String>.makeStream()
        let task = Task(executorPreference: StudioTestExecutor.shared) {
            try await server.run(port: 0, signals: false) { continuation.yield($0) }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else { throw StudioRequestError("the server did not start") }
        do {
            try await body(url.components(separatedBy: "/?token=")[0])
        } catch {
            task.cancel()
            _ = await task.result
            throw error
        }
        task.cancel()
        _ = await task.result
    }

    /// A request's status, response and body.
    static func fetch(
        _ base: String, _ uri: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:]
    ) async throws -> (Int, HTTPURLResponse, Data) {
        var request = URLRequest(url: URL(string: base + uri)!)
        // Not URLSession's 60 s: the whole suite in parallel on two cores can keep the server's
        // tasks waiting that long; a hung server still fails the test, later.
        request.timeoutInterval = 600
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        return (http.statusCode, http, data)
    }

    /// GETs (or POSTs) `uri` with the token and gives status and parsed JSON.
    static func call(
        _ base: String, _ uri: String, method: String = "GET", body: String? = nil, token: String? = "t0k"
    ) async throws -> (Int, JSONValue) {
        let separator = uri.contains("?") ? "&" : "?"
        let full = token.map { uri + separator + "token=" + $0 } ?? uri
        let (status, _, data) = try await fetch(base, full, method: method, body: body)
        return (status, try JSONValue.parse(String(decoding: data, as: UTF8.self)))
    }

    @Test func infoListsClassesWithCountsAndProperties() async throws {
        let folder = try TemporaryFolder("studio")
        let app = try Self.server(try Self.makeDatabase(folder))
        try await Self.serving(app) { client in
            let (status, info) = try await Self.call(client, "/api/info")
            #expect(status == 200)
            #expect(info["kind"]?.stringValue == "porter")
            #expect(info["schemaVersion"]?.int64Value == 4)
            #expect(info["writable"]?.boolValue == false)
            let list = info["classes"]?.arrayValue ?? []
            let classes = Dictionary(uniqueKeysWithValues: list.map { ($0["name"]?.stringValue ?? "", $0) })
            #expect(Set(classes.keys) == ["Person", "Dog", "Address"])
            #expect(classes["Person"]?["count"]?.int64Value == 3)
            #expect(classes["Dog"]?["count"]?.int64Value == 2)
            #expect(classes["Address"]?["embedded"]?.boolValue == true)
            #expect(classes["Dog"]?["embedded"]?.boolValue == false)
            #expect(classes["Person"]?["primaryKey"]?.stringValue == "name")
            let tags = classes["Person"]?["properties"]?.arrayValue?.first { $0["name"]?.stringValue == "tags" }
            #expect(tags?["type"]?.stringValue == "array<string>")
            #expect(tags?["sortable"]?.boolValue == false)
        }
    }

    @Test func tokenIsRequired() async throws {
        let folder = try TemporaryFolder("studio")
        let app = try Self.server(try Self.makeDatabase(folder))
        try await Self.serving(app) { client in
            let (missing, body) = try await Self.call(client, "/api/info", token: nil)
            #expect(missing == 401)
            #expect(body["error"]?.stringValue?.contains("token") == true)
            let (wrong, _) = try await Self.call(client, "/api/classes/Person/objects", token: "nope")
            #expect(wrong == 401)
            let (export, _) = try await Self.call(client, "/api/classes/Person/export?format=csv", token: nil)
            #expect(export == 401)
            // The header works as well as the query parameter.
            let (header, _, _) = try await Self.fetch(client, "/api/info", headers: ["X-Porter-Token": "t0k"])
            #expect(header == 200)
            // The page itself carries no data and needs no token.
            let (page, _, html) = try await Self.fetch(client, "/")
            #expect(page == 200)
            #expect(String(decoding: html, as: UTF8.self).contains("studio.js"))
            let script = try await Self.fetch(client, "/assets/studio.js").0
            #expect(script == 200)
            let secret = try await Self.fetch(client, "/assets/secret.txt").0
            #expect(secret == 404)
        }
    }

    @Test func objectsShowValuesAsRealmDoes() async throws {
        let folder = try TemporaryFolder("studio")
        let app = try Self.server(try Self.makeDatabase(folder))
        try await Self.serving(app) { client in
            let (status, page) = try await Self.call(client, "/api/classes/Person/objects?limit=2")
            #expect(status == 200)
            #expect(page["total"]?.int64Value == 3)
            let objects = page["objects"]?.arrayValue ?? []
            #expect(objects.count == 2)
            let ann = objects[0]["values"]
            #expect(ann?["name"]?["text"]?.stringValue == "Ann")
            #expect(ann?["born"]?["text"]?.stringValue == "2023-11-14T22:13:20.123456789Z")
            #expect(ann?["balance"]?["text"]?.stringValue == "1234.5600")
            #expect(ann?["photo"]?["size"]?.int64Value == 4)
            #expect(ann?["photo"]?["hex"]?.stringValue == "deadbeef")
            #expect(ann?["extra"]?["type"]?.stringValue == "int")
            #expect(ann?["extra"]?["mixed"]?.boolValue == true)
            #expect(ann?["dog"]?["type"]?.stringValue == "link")
            #expect(ann?["dog"]?["class"]?.stringValue == "Dog")
            #expect(ann?["tags"]?["count"]?.int64Value == 2)
            #expect(ann?["tags"]?["items"]?[1]?["text"]?.stringValue == "b")
            #expect(ann?["scores"]?["items"]?[0]?["key"]?.stringValue == "x")
            #expect(ann?["address"]?["type"]?.stringValue == "object")
            #expect(ann?["address"]?["fields"]?["city"]?["text"]?.stringValue == "Oslo")
            #expect(ann?["address"]?["fields"]?["zip"] == .null)
            #expect(objects[1]["values"]?["born"] == .null)
            let (_, second) = try await Self.call(client, "/api/classes/Person/objects?offset=2&limit=2")
            #expect(second["objects"]?.arrayValue?.count == 1)
            let (_, past) = try await Self.call(client, "/api/classes/Person/objects?offset=10")
            #expect(past["objects"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func sortingByAScalarColumn() async throws {
        let folder = try TemporaryFolder("studio")
        let app = try Self.server(try Self.makeDatabase(folder))
        try await Self.serving(app) { client in
            func names(_ uri: String) async throws -> [String?] {
                let (_, page) = try await Self.call(client, uri)
                return page["objects"]?.arrayValue?.map { $0["values"]?["name"]?["text"]?.stringValue } ?? []
            }
            let ascending = try await names("/api/classes/Person/objects?sort=age")
            #expect(ascending == ["Bob", "Cid", "Ann"])
            let descending = try await names("/api/classes/Person/objects?sort=age&descending=true")
            #expect(descending == ["Ann", "Cid", "Bob"])
            let second = try await names("/api/classes/Person/objects?sort=age&offset=1&limit=1")
            #expect(second == ["Cid"])
        }
    }

    @Test func oneObjectWithItsLinkingObjects() async throws {
        let folder = try TemporaryFolder("studio")
        let app = try Self.server(try Self.makeDatabase(folder))
        try await Self.serving(app) { client in
            let (_, dogs) = try await Self.call(client, "/api/classes/Dog/objects")
            let rexKey = dogs["objects"]?[0]?["key"]?.int64Value ?? -1
            let (status, rex) = try await Self.call(client, "/api/classes/Dog/objects/\(rexKey)")
            #expect(status == 200)
            #expect(rex["values"]?["name"]?["text"]?.stringValue == "Rex")
            let linking = rex["linkingObjects"]?.arrayValue ?? []
            #expect(linking.count == 2)
            #expect(linking.allSatisfy { $0["class"]?.stringValue == "Person" && $0["property"]?.stringValue == "dog" })
            let (missing, body) = try await Self.call(client, "/api/classes/Dog/objects/999")
            #expect(missing == 404)
            #expect(body["error"]?.stringValue == "no object Dog(999)")
        }
    }

    @Test func queriesCountAndReportPositions() async throws {
        let folder = try TemporaryFolder("studio")
        let app = try Self.server(try Self.makeDatabase(folder))
        try await Self.serving(app) { client in
            let query = "age > 30 AND name BEGINSWITH 'A'".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let (status, page) = try await Self.call(client, "/api/classes/Person/objects?query=\(query)")
            #expect(status == 200)
            #expect(page["total"]?.int64Value == 1)
            #expect(page["objects"]?[0]?["values"]?["name"]?["text"]?.stringValue == "Ann")
            let linked = "dog.name == 'Rex'".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let (_, viaLink) = try await Self.call(client, "/api/classes/Person/objects?query=\(linked)&sort=age")
            #expect(viaLink["total"]?.int64Value == 2)
            let bad = "age >> 3".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let (badStatus, error) = try await Self.call(client, "/api/classes/Person/objects?query=\(bad)")
            #expect(badStatus == 400)
            let message = error["error"]?.stringValue ?? ""
            #expect(message.contains("position 6"), "\(message)")
            #expect(!message.contains("\n"))
            let unknown = "height > 3".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let (unknownStatus, _) = try await Self.call(client, "/api/classes/Person/objects?query=\(unknown)")
            #expect(unknownStatus == 400)
        }
    }

    @Test(arguments: [
        ("/api/classes/Cat/objects", "no class named 'Cat'"),
        ("/api/classes/Person/objects?offset=-1", "offset must be 0 or more"),
        ("/api/classes/Person/objects?offset=abc", "offset must be an integer"),
        ("/api/classes/Person/objects?limit=0", "limit must be between 1 and 500"),
        ("/api/classes/Person/objects?limit=501", "limit must be between 1 and 500"),
        ("/api/classes/Person/objects?sort=tags", "is not a scalar property"),
        ("/api/classes/Person/objects?sort=height", "has no property 'height'"),
        ("/api/classes/Person/objects/abc", "is not an integer"),
        ("/api/classes/Cat/objects/1", "no class named 'Cat'"),
        ("/api/classes/Person/export?format=xml", "unknown export format 'xml'"),
        ("/api/classes/Address/export?format=csv", "is an embedded class"),
        ("/api/classes/Cat/export?format=csv", "no class named 'Cat'"),
        ("/api/write", ""),
    ])
    func badRequestsAnswer400WithOneLine(uri: String, expected: String) async throws {
        let folder = try TemporaryFolder("studio")
        let app = try Self.server(try Self.makeDatabase(folder))
        try await Self.serving(app) { client in
            let (status, body) = try await Self.call(client, uri)
            if expected.isEmpty {
                // The write state of a read-only studio: not an error.
                #expect(status == 200)
                #expect(body["writable"]?.boolValue == false)
                return
            }
            #expect(status == 400)
            let message = body["error"]?.stringValue ?? ""
            #expect(message.contains(expected), "\(message)")
            #expect(!message.contains("\n"))
        }
    }

    @Test(arguments: ["csv", "json", "ejson", "ejson-canonical", "bson"])
    func exportStreamsWhatPorterExportWrites(format: String) async throws {
        let folder = try TemporaryFolder("studio")
        let path = try Self.makeDatabase(folder)
        let app = try Self.server(path)
        // The same exporter, to a file, as `porter export --format F --class Person --out -` writes.
        let db = try Database.open(at: path, readOnly: true)
        let expectedFormat: DocumentOutputFormat =
            format == "csv" ? CSVFormat() : InterchangeFormats.output.first { $0.name == format }!
        let expectedPath = folder.path("expected")
        let output = try ByteOutput.creatingFile(at: expectedPath)
        _ = try Exporter(database: db, format: expectedFormat, options: ExportOptions(classes: ["Person"]))
            .export(className: "Person", to: output)
        try output.close()
        let expected = try Data(contentsOf: URL(fileURLWithPath: expectedPath))
        try await Self.serving(app) { client in
            let (status, response, data) = try await Self.fetch(
                client, "/api/classes/Person/export?format=\(format)&token=t0k")
            #expect(status == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Disposition")?.contains("Person.") == true)
            #expect(data == expected)
            #expect(!expected.isEmpty)
        }
    }

    @Test func fileRouteTellsChanges() async throws {
        let folder = try TemporaryFolder("studio")
        let path = try Self.makeDatabase(folder)
        let app = try Self.server(path)
        try await Self.serving(app) { client in
            let (_, before) = try await Self.call(client, "/api/file")
            // Another process commits.
            let other = try Database.open(at: path)
            try other.write { _ = try other.create("Dog", ["name": .string("Max")]) }
            let (_, after) = try await Self.call(client, "/api/file")
            #expect(before != after)
            #expect(before["mtime"] != nil && before["size"] != nil)
            // The page reloads and sees the new dog.
            let (_, info) = try await Self.call(client, "/api/info")
            let dog = info["classes"]?.arrayValue?.first { $0["name"]?.stringValue == "Dog" }
            #expect(dog?["count"]?.int64Value == 3)
        }
    }

    @Test func realmFilesAreReadNatively() async throws {
        let path = Self.realmDir.appendingPathComponent("every-type.realm").path
        let server = StudioServer(file: .realm(try RealmFile(path: path)), writable: false, token: "t0k")
        let app = server
        try await Self.serving(app) { client in
            let (_, info) = try await Self.call(client, "/api/info")
            #expect(info["kind"]?.stringValue == "realm")
            #expect(info["fileFormat"]?.int64Value == 24)
            let first = "Every"
            #expect(info["classes"]?.arrayValue?.contains { $0["name"]?.stringValue == first } == true)
            let (status, page) = try await Self.call(client, "/api/classes/\(first)/objects?limit=5&sort=_id")
            #expect(status == 200)
            #expect((page["objects"]?.arrayValue?.count ?? 0) > 0)
            let key = page["objects"]?[0]?["key"]?.int64Value ?? -1
            let (objectStatus, _) = try await Self.call(client, "/api/classes/\(first)/objects/\(key)")
            #expect(objectStatus == 200)
            // Queries on Realm files run the shared evaluator over the file: the count the file gives.
            let file = try RealmFile(path: path)
            let table = try #require(file.table(named: first))
            let column = try #require(table.properties.firstIndex { $0.name == "int" })
            var expected: Int64 = 0
            try file.forEachObject(in: table) { object in
                if case .int(let value) = object.values[column], value > 0 { expected += 1 }
            }
            let (queryStatus, matches) = try await Self.call(
                client, "/api/classes/\(first)/objects?query=int%20%3E%200")
            #expect(queryStatus == 200)
            #expect(matches["total"]?.int64Value == expected)
            let (unknownStatus, unknown) = try await Self.call(
                client, "/api/classes/\(first)/objects?query=intt%20%3E%200")
            #expect(unknownStatus == 400)
            #expect(unknown["error"]?.stringValue?.contains("unknown property") == true, "\(unknown)")
            let (exported, _, json) = try await Self.fetch(client, "/api/classes/\(first)/export?format=json&token=t0k")
            #expect(exported == 200)
            #expect(!json.isEmpty)
        }
    }

    @Test func writesNeedWriteModeAndATransaction() async throws {
        let folder = try TemporaryFolder("studio")
        let path = try Self.makeDatabase(folder)
        let readOnly = try Self.server(path)
        try await Self.serving(readOnly) { client in
            let (status, body) = try await Self.call(client, "/api/write/begin", method: "POST", body: "{}")
            #expect(status == 400)
            #expect(body["error"]?.stringValue?.contains("--write") == true)
        }
        let app = try Self.server(path, writable: true)
        try await Self.serving(app) { client in
            let (_, people) = try await Self.call(client, "/api/classes/Person/objects?sort=age")
            let bob = people["objects"]?[0]?["key"]?.int64Value ?? -1
            let set = "/api/classes/Person/objects/\(bob)/set"
            // Outside a transaction: refused.
            let (outside, message) = try await Self.call(
                client, set, method: "POST", body: #"{"property": "age", "value": "30"}"#)
            #expect(outside == 400)
            #expect(message["error"]?.stringValue?.contains("Begin") == true)
            let (begun, state) = try await Self.call(client, "/api/write/begin", method: "POST", body: "{}")
            #expect(begun == 200 && state["inTransaction"]?.boolValue == true)
            let (edited, bobNow) = try await Self.call(
                client, set, method: "POST", body: #"{"property": "age", "value": "30"}"#)
            #expect(edited == 200)
            #expect(bobNow["values"]?["age"]?["text"]?.stringValue == "30")
            // The engine's rules: a primary key cannot change, a value must fit the type.
            let (pk, pkError) = try await Self.call(
                client, set, method: "POST", body: #"{"property": "name", "value": "Rob"}"#)
            #expect(pk == 400)
            #expect(pkError["error"]?.stringValue?.isEmpty == false)
            let (typed, typedError) = try await Self.call(
                client, set, method: "POST", body: #"{"property": "age", "value": "old"}"#)
            #expect(typed == 400)
            #expect(typedError["error"]?.stringValue == "Person.age: 'old' is not an integer")
            let (created, dan) = try await Self.call(
                client, "/api/classes/Person/create", method: "POST", body: #"{"values": {"name": "Dan", "age": "5"}}"#)
            #expect(created == 200)
            let (duplicate, _) = try await Self.call(
                client, "/api/classes/Person/create", method: "POST", body: #"{"values": {"name": "Dan"}}"#)
            #expect(duplicate == 400)
            let danKey = dan["key"]?.int64Value ?? -1
            let (deleted, _) = try await Self.call(
                client, "/api/classes/Person/objects/\(danKey)/delete", method: "POST", body: "{}")
            #expect(deleted == 200)
            let (committed, _) = try await Self.call(client, "/api/write/commit", method: "POST", body: "{}")
            #expect(committed == 200)
            // Cancel undoes everything since Begin.
            _ = try await Self.call(client, "/api/write/begin", method: "POST", body: "{}")
            _ = try await Self.call(client, set, method: "POST", body: #"{"property": "age", "value": "99"}"#)
            let (cancelled, _) = try await Self.call(client, "/api/write/cancel", method: "POST", body: "{}")
            #expect(cancelled == 200)
            let (noTx, _) = try await Self.call(client, "/api/write/commit", method: "POST", body: "{}")
            #expect(noTx == 400)
            let (badBody, _) = try await Self.call(client, "/api/write/begin", method: "POST", body: "{}")
            #expect(badBody == 200)
            let (notJSON, notJSONError) = try await Self.call(client, set, method: "POST", body: "{age")
            #expect(notJSON == 400)
            #expect(notJSONError["error"]?.stringValue?.hasPrefix("the body is not JSON") == true)
            _ = try await Self.call(client, "/api/write/cancel", method: "POST", body: "{}")
        }
        let db = try Database.open(at: path, readOnly: true)
        let ages = try db.read { try db.propertyValues("Person", "age") }.map(\.value)
        #expect(ages == [.int(41), .int(30), .int(35)])
    }

    /// 1,000,000 objects page from the end, sorted, in bounded memory.
    @Test func pagingAMillionObjectClassInBoundedMemory() async throws {
        let folder = try TemporaryFolder("studio")
        let path = folder.path("big.porter")
        let schema = try Schema(
            jsonString: #"{"classes": [{"name": "Big", "properties": {"n": "int", "s": "string?"}}]}"#)
        let db = try Database.create(at: path, schema: schema)
        let total = 1_000_000
        // The importer's fast path: statements prepared once, one transaction.
        try db.write {
            let inserter = try BulkInserter(database: db, className: "Big")
            var fields: [Value?] = [nil, .null]
            for i in 0..<total {
                fields[0] = .int(Int64(i))
                _ = try inserter.insert(fields: fields)
            }
        }
        let app = try Self.server(path)
        try await Self.serving(app) { client in
            let before = Self.residentBytes()
            let (_, last) = try await Self.call(client, "/api/classes/Big/objects?offset=\(total - 1)&limit=50")
            #expect(last["objects"]?.arrayValue?.count == 1)
            #expect(last["objects"]?[0]?["values"]?["n"]?["text"]?.stringValue == "\(total - 1)")
            let (status, page) = try await Self.call(
                client, "/api/classes/Big/objects?offset=\(total - 500)&limit=500&sort=n&descending=true")
            #expect(status == 200)
            #expect(page["total"]?.int64Value == Int64(total))
            #expect(page["objects"]?.arrayValue?.count == 500)
            #expect(page["objects"]?[499]?["values"]?["n"]?["text"]?.stringValue == "0")
            let (_, next) = try await Self.call(client, "/api/classes/Big/objects?offset=100000&limit=1")
            #expect(next["objects"]?[0]?["values"]?["n"]?["text"]?.stringValue == "100000")
            let grown = Self.residentBytes() - before
            // Keys and one column, never the objects: far below the class's size in objects.
            #expect(grown < 96 << 20, "resident memory grew by \(grown >> 20) MiB")
        }
    }

    /// Resident memory of this process (Linux), 0 elsewhere.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}

/// The executor the servers of these tests run on: a thread of their own. The whole test run
/// shares the cooperative pool (two threads on two cores) with hundreds of blocking tests, and a
/// server's request waited behind them past the client's timeout.
final class StudioTestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = StudioTestExecutor()
    private let queue = DispatchQueue(label: "porter-studio-tests")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
