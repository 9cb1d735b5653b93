import Foundation
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterStore
import PorterTestSupport

/// The `schema` member of fixture files (the schema a fixture was written with): read by the
/// streaming reader in any position, ignored by an import at the same version, and peeked by
/// ``FixtureHeader`` without reading the documents.
@Suite struct FixtureSchemaMemberTests {
    static let schemaJSON = """
        {"schemaVersion": 2, "classes": [
          {"name": "Person", "primaryKey": "_id", "properties": {"_id": "string", "pet": "Pet?"}},
          {"name": "Pet", "properties": {"name": "string"}}
        ]}
        """
    static let people = #""Person": [{"_id": "a", "pet": 1}], "Pet": [{"_key": 1, "name": "Rex"}]"#

    static func database() throws -> Database { try memoryDatabase(try schema(schemaJSON)) }

    static func header(_ text: String, below version: UInt64 = 2, className: String? = nil) throws -> FixtureHeader? {
        let context = DecoderContext(schema: try schema(schemaJSON), className: className)
        return try FixtureHeader.read(
            ByteInput(data: Data(text.utf8), name: "input.json"), context: context, schemaNeededBelow: version)
    }

    @Test(arguments: [
        #"{"schemaVersion": 2, "schema": \#(schemaJSON), \#(people)}"#,
        #"{"schema": \#(schemaJSON), "schemaVersion": 2, \#(people)}"#,
        #"{\#(people), "schema": \#(schemaJSON)}"#,
        #"{"schema": {"classes": []}, \#(people), "schemaVersion": 2}"#,
    ])
    func aSchemaMemberAnywhereIsIgnoredAtTheSameVersion(_ text: String) throws {
        let db = try Self.database()
        #expect(importLines(db, text).isEmpty)
        #expect(try counts(db) == ["Person": 1, "Pet": 1])
    }

    static let rejected: [RejectedInput] = [
        RejectedInput(
            #"{"schemaVersion": 1, "schema": {"schemaVersion": 2, "classes": []}, "Person": []}"#,
            "input.json: the fixture's schemaVersion is 1 but its 'schema' member declares schemaVersion 2 (line 1)"),
        RejectedInput(
            "{\n\"schema\": {\"schemaVersion\": 2, \"classes\": []},\n\"schemaVersion\": 1}",
            "input.json: the fixture's schemaVersion is 1 but its 'schema' member declares schemaVersion 2 (line 3)"),
        RejectedInput(
            #"{"schema": {"schemaVersion": 9, "classes": []}, "Person": []}"#,
            "input.json: fixture schemaVersion 9 is newer than the database's schema version 2"),
        RejectedInput(
            "{\"schemaVersion\": 2,\n\n\"schema\": {\"classes\": 5}}",
            "input.json: invalid fixture schema at classes: \"classes\" must be an array, got a number (line 3)"),
        RejectedInput(
            #"{"schemaVersion": 2, "schema": {"classes": [], "extra": true}}"#,
            "input.json: invalid fixture schema: unknown key \"extra\" (expected \"schemaVersion\", \"classes\") (line 1)"
        ),
        RejectedInput(
            #"{"schema": {"classes": []}, "schema": {"classes": []}}"#,
            "input.json: fixture key 'schema' appears more than once (line 1)"),
        RejectedInput(
            #"{"schemaVersion": 2, "schema": {"classes": ["#,
            "input.json: unexpected end of input inside the fixture's 'schema' member (line 1)"),
        RejectedInput(
            #"{"schemaVersion": 2, "schema": 5}"#,
            "input.json: fixture key 'schema' must hold the schema the fixture was written with (an object, as in a schema file) (line 1)"
        ),
    ]

    @Test(arguments: rejected)
    func malformedSchemaMembersAreRejectedWithTheirLine(_ input: RejectedInput) throws {
        let db = try Self.database()
        #expect(importLines(db, input.data, name: input.name) == input.lines)
        #expect(try counts(db) == ["Person": 0, "Pet": 0])
    }

    @Test func theHeaderStopsOnceItKnowsEnough() throws {
        // Nothing after the first document is read: the broken tail goes unnoticed.
        let current = try #require(
            try Self.header(#"{"schemaVersion": 2, "Person": [{"_id": "a"}, {"_id": "b"}], oops"#))
        #expect(current.schemaVersion == 2 && current.schema == nil)
        let early = try #require(
            try Self.header(#"{"schemaVersion": 1, "schema": {"classes": []}, "Person": [{"_id": "a"}], oops"#))
        #expect(early.schemaVersion == 1 && early.schema?.classes.isEmpty == true)
    }

    @Test func theHeaderReadsOnToASchemaAtTheEnd() throws {
        let v1 = Self.schemaJSON.replacingOccurrences(of: #""schemaVersion": 2"#, with: #""schemaVersion": 1"#)
        let header = try #require(try Self.header(#"{"schemaVersion": 1, \#(Self.people), "schema": \#(v1)}"#))
        #expect(header.schemaVersion == 1)
        #expect(header.schema?.classes.map(\.name) == ["Person", "Pet"])
        let bare = try #require(try Self.header(#"{"schemaVersion": 1, \#(Self.people)}"#))
        #expect(bare.schemaVersion == 1 && bare.schema == nil)
        #expect(throws: DocumentInputError.self) {
            try Self.header(#"{"schemaVersion": 1, "Person": [{"_id": "a"}], oops"#)
        }
    }

    @Test func documentFilesHaveNoHeader() throws {
        #expect(try Self.header(#"{"_id": "a"}"# + "\n" + #"{"_id": "b"}"#, className: "Person") == nil)
        #expect(try Self.header(#"[{"_id": "a"}]"#, className: "Person") == nil)
        #expect(try Self.header(#"{"schema": {"classes": []}}"#, className: "Person") == nil)
    }

    @Test func porterImportAcceptsAFixtureCarryingWhatPorterSchemaPrints() throws {
        let dir = try TemporaryFolder()
        let db = dir.path("app.realm")
        try Data(Self.schemaJSON.utf8).write(to: URL(fileURLWithPath: dir.path("schema.json")))
        let created = try CLITests.porter(["create", db, "--schema", dir.path("schema.json")])
        #expect(created.status == 0)
        let printed = try CLITests.porter(["schema", db])
        #expect(printed.status == 0)
        let fixture = dir.path("fixture.json")
        try Data(#"{"schemaVersion": 2, "schema": \#(printed.stdout), \#(Self.people)}"#.utf8).write(
            to: URL(fileURLWithPath: fixture))
        let imported = try CLITests.porter(["import", db, fixture])
        #expect(imported.status == 0, "\(imported.stderr)")
        let reopened = try Database.open(at: db, readOnly: true)
        #expect(try counts(reopened) == ["Person": 1, "Pet": 1])
    }
}
