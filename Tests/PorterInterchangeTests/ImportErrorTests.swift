import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore

/// One rejected input: the file name it is read as, its bytes, and the exact error lines.
struct RejectedInput: Sendable, CustomTestStringConvertible {
    var name: String
    var data: Data
    var lines: [String]
    var testDescription: String { lines.first ?? name }

    init(_ text: String, _ lines: String...) {
        name = "input.json"
        data = Data(text.utf8)
        self.lines = lines
    }

    init(name: String, _ text: String, _ lines: String...) {
        self.name = name
        data = Data(text.utf8)
        self.lines = lines
    }

    init(name: String, bytes: [UInt8], _ lines: String...) {
        self.name = name
        data = Data(bytes)
        self.lines = lines
    }
}

/// Every import error path: the failing input, the exact `FILE:DOC#:field.path: message` line,
/// and proof that nothing was written.
@Suite struct ImportErrorTests {
    static let schemaJSON = """
        {"schemaVersion": 1, "classes": [
          {"name": "Person", "primaryKey": "_id", "properties": {"_id": "string", "age": {"type": "int", "default": 0}, "score": "double?",
            "tags": "string<>", "meta": "int{}", "home": "Address?", "friends": "Person[]", "best": "Person?", "pet": "Pet?",
            "x": "mixed", "oid": "objectId?", "born": "date?", "uuid": "uuid?", "data": "data?", "dec": "decimal128?",
            "f": "float?", "b": "bool?", "addresses": "Address[]"}},
          {"name": "Address", "embedded": true, "properties": {"street": "string", "zip": "int?"}},
          {"name": "Pet", "properties": {"name": "string"}}
        ]}
        """

    /// A database holding Person `p0`, so duplicates and "nothing written" can be checked.
    static func database() throws -> Database {
        let db = try memoryDatabase(try schema(schemaJSON))
        try db.write { try db.create("Person", ["_id": .string("p0"), "age": .int(1)]) }
        return db
    }

    static let deep =
        #"{"_id":"a","x":"# + String(repeating: "[", count: 150) + String(repeating: "]", count: 150) + "}"

    static let jsonCases: [RejectedInput] = [
        RejectedInput(#"{"_id":"a","age":"ten"}"#, "input.json:1:age: expected an integer but got a string 'ten'"),
        RejectedInput(#"{"_id":"a","age":null}"#, "input.json:1:age: required property cannot be null"),
        RejectedInput(
            #"{"_id":"a","nope":1}"#,
            "input.json:1:nope: unknown field (class 'Person' has no property 'nope'; use --ignore-unknown to skip it)"),
        RejectedInput(
            #"{"_id":"a","meta":{"$x":1}}"#, "input.json:1:meta.$x: invalid map key '$x': keys must not start with '$'"),
        RejectedInput(
            #"{"_id":"a","meta":{"a.b":1}}"#, "input.json:1:meta.a.b: invalid map key 'a.b': keys must not contain '.'"),
        RejectedInput(
            #"{"_id":"a","meta":{"$x":1}}"#, "input.json:1:meta.$x: invalid map key '$x': keys must not start with '$'"),
        RejectedInput(
            #"{"_id":"a","home":{"_id":1,"street":"s"}}"#,
            "input.json:1:home._id: embedded objects have no _id ('Address' is an embedded class without a primary key)"
        ),
        RejectedInput(
            #"{"_id":"a","best":"zz"}"#,
            "input.json:1:best: link to a missing object: no Person with primary key 'zz' in this import or in the database"
        ),
        RejectedInput(
            #"{"_id":"a","pet":7}"#,
            "input.json:1:pet: link to a missing object: no Pet with _key 7 in this import or in the database"),
        RejectedInput(
            #"{"_id":"p0","age":2}"#,
            "input.json:1:_id: duplicate primary key value 'p0': an object with it already exists"),
        RejectedInput(
            #"{"_id":"a"} {"_id":"b","age":1,}"#,
            "input.json:2: invalid JSON: unexpected character (at byte offset 19 of the document) (document starting on line 1)"
        ),
        RejectedInput(
            "{\"_id\":\"a\"", "input.json:1: unexpected end of input inside the document that starts on line 1"),
        RejectedInput(#"{"_id":"a","tags":["x","x"]}"#, "input.json:1:tags: duplicate set element 'x'"),
        RejectedInput(
            #"{"_id":"a","age":1.5}"#,
            "input.json:1:age: expected an integer but got a double 1.5 that is not an integer in the 64-bit range"),
        RejectedInput(
            #"{"_id":"a","age":99999999999999999999}"#,
            "input.json:1:age: expected an integer but got a double 1e+20 that is not an integer in the 64-bit range"),
        RejectedInput(
            #"{"_id":"a","age":-9223372036854775809}"#,
            "input.json:1:age: expected an integer but got a double -9.223372036854776e+18 that is not an integer in the 64-bit range"
        ),
        RejectedInput(
            #"{"_id":"a","oid":"xyz"}"#,
            "input.json:1:oid: invalid ObjectId 'xyz': expected 24 hexadecimal digits, got 3 characters"),
        RejectedInput(
            #"{"_id":"a","born":"2020-13-01"}"#,
            "input.json:1:born: invalid ISO 8601 date '2020-13-01': expected -MM month 01-12"),
        RejectedInput(
            #"{"_id":"a","uuid":"nope"}"#,
            "input.json:1:uuid: invalid UUID 'nope': expected 8-4-4-4-12 hexadecimal digits"),
        RejectedInput(
            #"{"_id":"a","data":"!!"}"#,
            "input.json:1:data: expected base64 data but got a string that is not valid base64 ('!!')"),
        RejectedInput(#"{"_id":"a","f":1e300}"#, "input.json:1:f: double 1e+300 is outside the range of a float"),
        RejectedInput(#"{"_id":"a","b":1}"#, "input.json:1:b: expected a boolean but got an int64 1"),
        RejectedInput(
            #"{"_id":"a","x":{"a":{"$b":1}}}"#,
            "input.json:1:x.a.$b: invalid map key '$b': keys must not start with '$'"),
        RejectedInput(
            #"{"_id":"a","x":[1,{"a.b":1}]}"#, "input.json:1:x.1.a.b: invalid map key 'a.b': keys must not contain '.'"),
        RejectedInput(
            #"{"_id":"a","x":[[{"a.b":1}]]}"#,
            "input.json:1:x.0.0.a.b: invalid map key 'a.b': keys must not contain '.'"),
        RejectedInput(
            #"{"_id":"a","x":{"k":1,"k":2}}"#,
            "input.json:1: duplicate field name 'x.k': a key may appear only once in an object (document starting on line 1)"
        ),
        RejectedInput(#"{"_id":"a","x":[{"$ref":"Nope","$id":1}]}"#, "input.json:1:x.0: DBRef to unknown class 'Nope'"),
        RejectedInput(
            #"{"_id":"a","x":{"$numberLong":"1.0"}}"#,
            "input.json:1:x: invalid Extended JSON $numberLong: expected a string holding a 64-bit integer, got a string '1.0'"
        ),
        RejectedInput(
            #"{"_id":"a","x":{"$oid":"56e1fc72e0c917e9c4714161","unrelated":true}}"#,
            "input.json:1:x: invalid Extended JSON $oid: unexpected field 'unrelated'"),
        RejectedInput(
            #"{"_id":"a","x":{"$regularExpression":{"pattern":"a","options":""}}}"#,
            "input.json:1:x: a BSON regular expression cannot be stored in a mixed property"),
        RejectedInput(
            #"{"_id":"a","x":{"$binary":{"base64":"AAE=","subType":"80"}}}"#,
            "input.json:1:x: binary subtype 0x80 cannot be stored (Porter keeps data as subtype 0x00 and UUIDs as subtype 0x04)"
        ),
        RejectedInput(#"{"_id":"a","x":{"$ref":"Nope","$id":1}}"#, "input.json:1:x: DBRef to unknown class 'Nope'"),
        RejectedInput(
            #"{"_id":"a","x":{"$ref":"Address","$id":1}}"#,
            "input.json:1:x: DBRef to embedded class 'Address': a mixed value can only link to top-level objects"),
        RejectedInput(
            #"{"_id":"a","home":"street"}"#, "input.json:1:home: expected an embedded Address document but got a string"
        ),
        RejectedInput(
            #"{"_id":"a","friends":"p0"}"#, "input.json:1:friends: expected an array (list of Person) but got a string"),
        RejectedInput(
            #"{"_id":"a","friends":[{"_id":"p0"}]}"#,
            "input.json:1:friends.0: expected the primary key of a Person (string) but got a document: links are written as the target's primary key"
        ),
        RejectedInput(
            #"{"_id":"a","addresses":[{"street":"s"},{"street":5}]}"#,
            "input.json:1:addresses.1.street: expected a string but got an int64 5"),
        RejectedInput(
            #"{"_id":"a","friends":[null]}"#,
            "input.json:1:friends.0: null is not allowed in a list of required Person values"),
        RejectedInput(
            #"{"_id":"a","age":1,"age":2}"#,
            "input.json:1: duplicate field name 'age': a key may appear only once in an object (document starting on line 1)"
        ),
        RejectedInput(
            #"{"_id":"a","home":{"street":"s","street":"t"}}"#,
            "input.json:1: duplicate field name 'home.street': a key may appear only once in an object (document starting on line 1)"
        ),
        RejectedInput(
            deep, "input.json:1: documents and arrays are nested deeper than 100 levels (document starting on line 1)"),
        RejectedInput(
            #"{"_id":"\ud800"}"#,
            "input.json:1: invalid \\u escape: unpaired UTF-16 surrogate (document starting on line 1)"),
        RejectedInput(
            #"{"_id":"a","meta":{"k\u0000":1}}"#,
            "input.json:1: field names must not contain NUL (\\u0000) (document starting on line 1)"),
        RejectedInput(#"{"age":1}"#, "input.json:1:_id: missing primary key field '_id'"),
        RejectedInput(
            #"{"schemaVersion":1,"Nope":[{}]}"#, "input.json:Nope#1: no class named 'Nope' in the database's schema"),
        RejectedInput(
            #"{"schemaVersion":1,"Address":[{"street":"s"}]}"#,
            "input.json:Address#1: 'Address' is an embedded class: its objects are imported inside their parents' documents"
        ),
        RejectedInput(
            #"{"schemaVersion":9,"Person":[]}"#,
            "input.json: fixture schemaVersion 9 is newer than the database's schema version 1"),
        RejectedInput(
            #"{"schemaVersion":1,"Person":{}}"#,
            "input.json: fixture key 'Person' must hold an array of Person documents (line 1)"),
        RejectedInput(
            "hello",
            "input.json: expected JSON documents (an object per line, an array of objects, or a fixture object) but found 'h' (line 1)"
        ),
        RejectedInput("[1]", "input.json: array elements must be documents ('{') but found '1' (line 1)"),
        RejectedInput(
            "[{\"_id\":\"a\",\"age\":1}]\n x",
            "input.json: unexpected 'x' after the end of the top-level value (line 2)"),
        RejectedInput("{\"_id\":\"a\",\"age\":1}\n[]", "input.json: expected a document ('{') but found '[' (line 2)"),
        RejectedInput(
            #"{"schemaVersion":1,"Pet":[{"_key":1,"name":"a"},{"_key":1,"name":"b"}],"Person":[{"_id":"z","pet":1}]}"#,
            "input.json:Pet#2:_key: duplicate _key 1: another Pet document of this import already uses it"),
        RejectedInput(
            #"{"schemaVersion":1,"Pet":[{"_key":[1],"name":"a"}]}"#,
            "input.json:Pet#1:_key: _key must be an integer or a string label, not an array"),
        RejectedInput(
            name: "data.json", #"{"_id":"a","age":1}"#,
            "data.json: cannot tell which class these documents belong to: name the file after the class (Person.json) or pass --class"
        ),
        RejectedInput(
            name: "input.json",
            bytes: Array(#"{"_id":"a","age":1,"#.utf8) + [0x22, 0xC3, 0x28, 0x22] + Array(#":1}"#.utf8),
            "input.json:1: invalid JSON: invalid utf-8 string (at byte offset 21 of the document) (document starting on line 1)"
        ),
    ]

    @Test(arguments: jsonCases)
    func rejectedWithExactLineAndNothingWritten(_ input: RejectedInput) throws {
        let db = try Self.database()
        let before = try counts(db)
        let className = input.name == "input.json" || input.name == "input.bson" ? "Person" : nil
        let lines = importLines(db, input.data, name: input.name, className: className)
        #expect(lines == input.lines)
        #expect(try counts(db) == before)
        let p0 = try #require(try db.key("Person", primaryKey: .string("p0")))
        #expect(try db.object("Person", p0)?["age"] == .int(1))
    }

    @Test func everyErrorOfEveryDocumentIsReportedInOrder() throws {
        let db = try Self.database()
        let text = """
            {"_id":"a","age":"x","b":2}
            {"_id":"b","age":1}
            {"_id":"c","best":"nobody"}
            """
        #expect(
            importLines(db, text, className: "Person") == [
                "input.json:1:age: expected an integer but got a string 'x'",
                "input.json:1:b: expected a boolean but got an int64 2",
                "input.json:3:best: link to a missing object: no Person with primary key 'nobody' in this import or in the database",
            ])
        #expect(try db.count("Person") == 1)
    }

    @Test func maxErrorsStopsReading() throws {
        let db = try Self.database()
        let text = (1...50).map { #"{"_id":"d\#($0)","age":"bad"}"# }.joined(separator: "\n")
        let importer = Importer(database: db, formats: InterchangeFormats.input, options: ImportOptions(maxErrors: 3))
        let error = try #require(throws: PorterError.self) {
            _ = try importer.run(data: Data(text.utf8), name: "p.json", className: "Person")
        }
        #expect(error.details == (1...3).map { "p.json:\($0):age: expected an integer but got a string 'bad'" })
        #expect(error.message == "import failed with 3 errors (stopped at --max-errors 3); nothing was written")
        #expect(try db.count("Person") == 1)
    }

    @Test func ignoreUnknownSkipsUnknownFieldsButNotEmbeddedIds() throws {
        let db = try Self.database()
        let options = ImportOptions(ignoreUnknown: true)
        #expect(
            importLines(db, #"{"_id":"a","age":1,"nope":{"deep":[1]}}"#, options: options, className: "Person").isEmpty)
        #expect(
            importLines(
                db, #"{"_id":"b","age":1,"home":{"_id":1,"street":"s"}}"#, options: options, className: "Person")
                == [
                    "input.json:1:home._id: embedded objects have no _id ('Address' is an embedded class without a primary key)"
                ])
    }
}
