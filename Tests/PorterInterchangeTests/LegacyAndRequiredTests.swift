import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore

/// Legacy Extended JSON as pymongo (`json_util.LEGACY_JSON_OPTIONS`) and libbson's legacy
/// `bson_as_json` write it, and required values on import.
@Suite struct LegacyAndRequiredTests {
    static let schemaJSON = """
        {"schemaVersion": 1, "classes": [
          {"name": "Movie", "primaryKey": "_id", "properties": {"_id": "objectId", "title": "string",
            "plot": "string", "released": "date", "runtime": "int", "rating": {"type": "double", "default": 5},
            "poster": "data?", "key": "uuid?", "views": "int?", "extra": "mixed", "cast": "Cast[]"}},
          {"name": "Cast", "embedded": true, "properties": {"name": "string", "age": "int?"}}
        ]}
        """

    static func database(_ label: String = #function) throws -> Database {
        try memoryDatabase(try schema(schemaJSON), label)
    }

    @Test func pymongoLegacyJSONIsRead() throws {
        let db = try Self.database()
        // json_util.dumps(doc, json_options=LEGACY_JSON_OPTIONS): $date as milliseconds, int64 as
        // a bare number, binary with $type, UUIDs as {"$uuid": uuid.hex}.
        let line =
            #"{"_id": {"$oid": "573a1390f29313caabcd4135"}, "title": "Blacksmith Scene", "plot": "Three men hammer.", "released": {"$date": 1356351330500}, "runtime": 1, "poster": {"$binary": "AQID", "$type": "00"}, "key": {"$uuid": "3b241101e2bb42558caf4136c566a962"}, "views": 9007199254740993, "cast": [{"name": "Charles Kayser"}]}"#
        #expect(importLines(db, line, name: "Movie.json") == [])
        let key = try #require(
            try db.key("Movie", primaryKey: .objectId(try ObjectId(hex: "573a1390f29313caabcd4135"))))
        let movie = try #require(try db.object("Movie", key))
        #expect(movie["released"] == .date(try Timestamp(milliseconds: 1_356_351_330_500)))
        #expect(movie["poster"] == .data(Data([1, 2, 3])))
        #expect(movie["key"] == .uuid(try #require(UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962"))))
        #expect(movie["views"] == .int(9_007_199_254_740_993))
        // Negative milliseconds are dates before 1970.
        #expect(
            importLines(
                db, #"{"title": "Old", "plot": "", "released": {"$date": -86400000}, "runtime": 0}"#, name: "Movie.json"
            ) == [])
    }

    @Test func libbsonLegacyJSONIsRead() throws {
        let db = try Self.database()
        // bson_as_json (legacy): spaces around colons, "$date" : <ms>, "$binary"/"$type".
        let line =
            #"{ "_id" : { "$oid" : "573a1390f29313caabcd4136" }, "title" : "A", "plot" : "B", "released" : { "$date" : 0 }, "runtime" : 2, "poster" : { "$binary" : "AA==", "$type" : "00" } }"#
        #expect(importLines(db, line, name: "Movie.json") == [])
        #expect(try db.count("Movie") == 1)
    }

    @Test func legacyFormsThatCannotBeStoredAreRefusedClearly() throws {
        let db = try Self.database()
        #expect(
            importLines(
                db,
                #"{"title": {"$regex": "^A", "$options": "i"}, "plot": "", "released": {"$date": 0}, "runtime": 1}"#,
                name: "Movie.json")
                == ["Movie.json:1:title: expected a string but got a BSON regular expression"])
        #expect(
            importLines(
                db, #"{"title": "x", "plot": "", "released": {"$date": 1.5}, "runtime": 1}"#, name: "Movie.json")
                == [
                    "Movie.json:1:released: invalid Extended JSON $date: a double 1.5 is not a whole number of milliseconds"
                ])
        #expect(
            importLines(
                db,
                #"{"title": "x", "plot": "", "released": {"$date": 0}, "runtime": 1, "key": {"$uuid": "3b241101e2bb42558caf4136c566a96"}}"#,
                name: "Movie.json"
            ).first?
            .hasPrefix("Movie.json:1:key: invalid Extended JSON $uuid") == true)
        #expect(try db.count("Movie") == 0)
    }

    @Test func missingRequiredFieldsAreErrorsWithTheirLocation() throws {
        let db = try Self.database()
        let text = """
            {"title": "A", "plot": "p", "released": {"$date": 0}, "runtime": 1, "cast": [{"age": 3}]}
            {"title": "B"}
            {"title": "C", "plot": null, "released": {"$date": 0}, "runtime": 1}
            """
        #expect(
            importLines(db, text, name: "Movie.json") == [
                "Movie.json:1:cast.0.name: missing required field 'name' (Cast.name has no default; pass --fill-missing to use \"\")",
                "Movie.json:2:plot: missing required field 'plot' (Movie.plot has no default; pass --fill-missing to use \"\")",
                "Movie.json:2:released: missing required field 'released' (Movie.released has no default; pass --fill-missing to use 1970-01-01T00:00:00Z)",
                "Movie.json:2:runtime: missing required field 'runtime' (Movie.runtime has no default; pass --fill-missing to use 0)",
                "Movie.json:3:plot: required property cannot be null",
            ])
        #expect(try db.count("Movie") == 0)
    }

    @Test func fillMissingGivesZeroValuesAndCountsThemPerField() throws {
        let db = try Self.database()
        let text = """
            {"title": "A"}
            {"title": "B", "plot": "p"}
            """
        let importer = Importer(
            database: db, formats: InterchangeFormats.input, options: ImportOptions(fillMissing: true))
        let report = try importer.run(data: Data(text.utf8), name: "Movie.json")
        #expect(
            report.warnings == [
                "warning: --fill-missing gave missing required fields their zero value: Movie.plot 1, Movie.released 2, Movie.runtime 2"
            ])
        #expect(try db.count("Movie") == 2)
        // A declared default (rating) is not a missing value, and an explicit null stays an error.
        let nullLines = importLines(
            db, #"{"title": "C", "plot": null}"#, name: "Movie.json", options: ImportOptions(fillMissing: true))
        #expect(nullLines == ["Movie.json:1:plot: required property cannot be null"])
        #expect(try db.count("Movie") == 2)
    }
}
