import Foundation
import Testing
@testable import PorterModel

/// Where the schema fixture files live.
enum SchemaFixtures {
    /// `Fixtures/schemas`, found from this file's path so tests run from any working directory.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/schemas")
}

/// The error reading `json` throws (`location: message`), or nil when it reads fine.
private func readError(_ json: String) -> String? {
    do {
        _ = try Schema(jsonString: json)
        return nil
    } catch let error as PorterError {
        #expect(error.code == .invalidSchema)
        return error.headline
    } catch {
        return "unexpected \(error)"
    }
}

/// A one-class schema file with these properties (a JSON object body).
private func dogFile(_ properties: String, extra: String = "") -> String {
    #"{"classes": [{"name": "Dog"\#(extra), "properties": {\#(properties)}}]}"#
}

@Suite struct SchemaFileTests {
    @Test func readsTheRealmDocsFixture() throws {
        let schema = try Schema(contentsOfFile: SchemaFixtures.directory.appendingPathComponent("realm-docs.json").path)
        #expect(schema.validationErrors() == [])
        #expect(schema.version == 3)
        #expect(schema.classNames == ["Address", "AllTypes", "Country", "Dog", "DogToy", "Person", "Task", "User"])
        let dog = try #require(schema["Dog"])
        #expect(dog.primaryKey == "_id")
        #expect(
            dog.properties.map(\.name) == [
                "_id", "name", "breed", "dateOfBirth", "owner", "favoriteToys", "tags",
                "ratings", "extra", "address", "status",
            ])
        #expect(dog.property(named: "name") == Property(name: "name", type: .string, indexed: true))
        #expect(
            dog.property(named: "owner") == Property(name: "owner", type: .object, objectType: "Person", optional: true)
        )
        #expect(
            dog.property(named: "ratings") == Property(name: "ratings", type: .int, optional: true, collection: .map))
        #expect(dog.property(named: "extra")?.isOptional == true)
        #expect(dog.property(named: "status")?.defaultValue == .string("active"))
        #expect(
            schema["Person"]?.property(named: "walkers")
                == .linkingObjects("walkers", originClass: "Dog", originProperty: "owner"))
        #expect(schema["Address"]?.isEmbedded == true)
        #expect(schema["DogToy"]?.primaryKey == nil)
        let all = try #require(schema["AllTypes"])
        #expect(all.property(named: "uuidSet") == Property(name: "uuidSet", type: .uuid, collection: .set))
        #expect(
            all.property(named: "stringOptMap")
                == Property(name: "stringOptMap", type: .string, optional: true, collection: .map))
        #expect(
            all.property(named: "embeddedMap")
                == Property(name: "embeddedMap", type: .object, objectType: "Address", optional: true, collection: .map)
        )
        let defaults = Dictionary(
            uniqueKeysWithValues: all.properties.compactMap { p in p.defaultValue.map { (p.name, $0) } })
        #expect(defaults["intDefault"] == .int(-42))
        #expect(defaults["floatDefault"] == .float(1.5))
        #expect(defaults["doubleDefault"] == .double(2.25e10))
        #expect(defaults["decimalDefault"] == .decimal128(try Decimal128(string: "123.4500")))
        #expect(defaults["objectIdDefault"] == .objectId(try ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e1f")))
        #expect(
            defaults["uuidDefault"] == .uuid(try #require(UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962"))))
        #expect(defaults["stringDefault"] == .string("hello \"world\""))
        #expect(defaults["dataDefault"] == .data(Data([0, 1, 2, 255])))
        #expect(defaults["dateDefault"] == .date(Timestamp(microseconds: 1_000_000_000_015_625)))
        #expect(defaults["optionalDefault"] == .null)
        #expect(defaults["listDefault"] == .list([.int(1), .int(2), .int(3)]))
        #expect(defaults["setDefault"] == .set([.string("a"), .string("b")]))
        #expect(defaults["mapDefault"] == .map(["a": .double(1), "b": .null]))
    }

    @Test func fixtureRoundTripsAndWritingIsStable() throws {
        let schema = try Schema(contentsOfFile: SchemaFixtures.directory.appendingPathComponent("realm-docs.json").path)
        let text = schema.jsonString()
        #expect(try Schema(jsonString: text) == schema)
        #expect(try Schema(jsonBytes: schema.jsonString(pretty: false).utf8) == schema)
        #expect(try Schema(jsonString: text).jsonString() == text)
    }

    @Test func writesTheNormalizedForm() {
        let schema = Schema(
            version: 2,
            classes: [
                ObjectSchema(
                    name: "Dog",
                    properties: [
                        Property(name: "_id", type: .objectId),
                        Property(name: "name", type: .string, indexed: true),
                        Property(name: "age", type: .int, optional: true, defaultValue: .int(1)),
                        Property(name: "owner", type: .object, objectType: "Person", optional: true),
                        Property(name: "odd", type: .object, objectType: "int", optional: true, collection: .map),
                    ], primaryKey: "_id"),
                ObjectSchema(
                    name: "Address", properties: [Property(name: "tags", type: .string, collection: .set)],
                    embedded: true),
                ObjectSchema(
                    name: "Person", properties: [.linkingObjects("dogs", originClass: "Dog", originProperty: "owner")]),
            ])
        #expect(
            schema.jsonString() == """
                {
                  "schemaVersion": 2,
                  "classes": [
                    {
                      "name": "Address",
                      "embedded": true,
                      "properties": {
                        "tags": "string<>"
                      }
                    },
                    {
                      "name": "Dog",
                      "primaryKey": "_id",
                      "properties": {
                        "_id": "objectId",
                        "name": {
                          "type": "string",
                          "indexed": true
                        },
                        "age": {
                          "type": "int?",
                          "default": 1
                        },
                        "owner": "Person?",
                        "odd": {
                          "type": "object?{}",
                          "objectType": "int"
                        }
                      }
                    },
                    {
                      "name": "Person",
                      "properties": {
                        "dogs": {
                          "type": "linkingObjects",
                          "objectType": "Dog",
                          "property": "owner"
                        }
                      }
                    }
                  ]
                }

                """)
        #expect(
            schema.jsonString(pretty: false).hasPrefix(
                #"{"schemaVersion":2,"classes":[{"name":"Address","embedded":true,"#))
    }

    @Test func readsFullFormsAndAliases() throws {
        let schema = try Schema(
            jsonString: dogFile(
                #"""
                "a": {"type": "string?"}, "b": {"type": "string", "optional": true}, "c": {"type": "list", "objectType": "int", "optional": true},
                "d": {"type": "dictionary", "objectType": "Dog", "optional": true}, "e": {"type": "object", "objectType": "Dog"},
                "f": {"type": "Dog?"}, "g": {"type": "mixed"}, "h": {"type": "set", "objectType": "Dog"},
                "id": {"type": "int", "primaryKey": true}, "m": {"type": "map", "objectType": "string"}
                """#))
        let dog = try #require(schema["Dog"])
        #expect(dog.primaryKey == "id")
        #expect(
            dog.properties.map(\.typeShorthand) == [
                "string?", "string?", "int?[]", "Dog?{}", "Dog", "Dog?", "mixed", "Dog<>", "int", "string{}",
            ])
        #expect(
            try Schema(
                jsonString: dogFile(#""id": {"type": "int", "primaryKey": true}"#, extra: #", "primaryKey": "id""#))[
                    "Dog"]?.primaryKey == "id")
        #expect(try Schema(jsonString: #"{"classes": []}"#) == Schema(classes: []))
    }

    @Test func reportsShapeErrorsWithTheirLocation() {
        let cases: [(String, String)] = [
            ("{", "invalid JSON: expected a string key but found end of input at line 1, column 2"),
            ("[]", "expected an object, got an array"),
            ("{}", "missing key \"classes\""),
            (#"{"classes": {}}"#, "classes: \"classes\" must be an array, got an object"),
            (
                #"{"schemaVersion": -1, "classes": []}"#,
                "schemaVersion: schemaVersion must be a non-negative integer, got -1"
            ),
            (
                #"{"schemaVersion": "1", "classes": []}"#,
                "schemaVersion: schemaVersion must be a non-negative integer, got \"1\""
            ),
            (#"{"classes": [], "version": 1}"#, "unknown key \"version\" (expected \"schemaVersion\", \"classes\")"),
            (#"{"classes": [], "classes": []}"#, "duplicate key \"classes\""),
            (#"{"classes": [1]}"#, "classes[0]: expected an object, got a number"),
            (#"{"classes": [{"properties": {}}]}"#, "classes[0]: missing key \"name\""),
            (#"{"classes": [{"name": "Dog"}]}"#, "classes[0]: missing key \"properties\""),
            (#"{"classes": [{"name": 5, "properties": {}}]}"#, "classes[0].name: expected a string, got a number"),
            (dogFile("", extra: #", "embedded": "yes""#), "classes[0].embedded: expected true or false, got a string"),
            (
                dogFile("", extra: #", "asymmetric": true"#),
                "classes[0]: unknown key \"asymmetric\" (expected \"name\", \"embedded\", \"primaryKey\", \"properties\")"
            ),
            (
                #"{"classes": [{"name": "Dog", "properties": []}]}"#,
                "classes[0].properties: \"properties\" must be an object, got an array"
            ),
            (dogFile(#""a": 1"#), "classes[0].properties.a: expected a type string or an object, got a number"),
            (
                dogFile(#""a": "int[]?""#),
                "classes[0].properties.a: invalid type 'int[]?': unexpected '[' (the form is name, name?, then optionally [], <> or {})"
            ),
            (
                dogFile(#""a": "int[][]""#),
                "classes[0].properties.a: invalid type 'int[][]': unexpected '[' (the form is name, name?, then optionally [], <> or {})"
            ),
            (dogFile(#""a": "?""#), "classes[0].properties.a: invalid type '?': missing a type name"),
            (dogFile(#""a": """#), "classes[0].properties.a: invalid type '': missing a type name"),
            (dogFile(#""a": "list""#), "classes[0].properties.a: type 'list' needs the full form with \"objectType\""),
            (
                dogFile(#""a": "linkingObjects""#),
                "classes[0].properties.a: type 'linkingObjects' needs the full form with \"objectType\" and \"property\""
            ),
            (dogFile(#""a": {"optional": true}"#), "classes[0].properties.a: missing key \"type\""),
            (
                dogFile(#""a": {"type": "int", "size": 4}"#),
                "classes[0].properties.a: unknown key \"size\" (expected \"type\", \"optional\", \"indexed\", \"default\", \"objectType\", \"property\", \"primaryKey\")"
            ),
            (
                dogFile(#""a": {"type": "int", "indexed": "full-text"}"#),
                "classes[0].properties.a.indexed: expected true or false, got a string"
            ),
            (
                dogFile(#""a": {"type": "int?", "optional": false}"#),
                "classes[0].properties.a.optional: \"optional\": false contradicts type 'int?'"
            ),
            // realm-core: "Property 'Dog.extra' of type 'Mixed' must be nullable."
            (
                dogFile(#""extra": {"type": "mixed", "optional": false}"#),
                "classes[0].properties.extra.optional: Property 'Dog.extra' of type 'Mixed' must be nullable."
            ),
            (dogFile(#""a": {"type": "list"}"#), "classes[0].properties.a: type 'list' needs \"objectType\""),
            (
                dogFile(#""a": {"type": "list[]", "objectType": "int"}"#),
                "classes[0].properties.a.type: type 'list[]': 'list' takes no '?' or suffix; use \"optional\" for its elements"
            ),
            (
                dogFile(#""a": {"type": "int", "objectType": "Dog"}"#),
                "classes[0].properties.a.objectType: \"objectType\" is only allowed with type list, set, map, dictionary, object or linkingObjects"
            ),
            (
                dogFile(#""a": {"type": "list", "objectType": "int", "property": "x"}"#),
                "classes[0].properties.a.property: \"property\" is only allowed with type linkingObjects"
            ),
            (
                dogFile(#""a": {"type": "linkingObjects", "objectType": "Dog"}"#),
                "classes[0].properties.a: type 'linkingObjects' needs \"property\""
            ),
            (
                dogFile(#""a": {"type": "int{}", "default": {"x": 1, "x": 2}}"#),
                "classes[0].properties.a.default: duplicate key \"x\" in the default value"
            ),
            (
                dogFile(#""a": {"type": "int", "primaryKey": true}, "b": {"type": "int", "primaryKey": true}"#),
                "classes[0].properties.b.primaryKey: more than one primary key: 'a' and 'b'"
            ),
        ]
        for (json, expected) in cases {
            #expect(readError(json) == expected, "\(json)")
        }
    }

    @Test func fileErrorsCarryThePath() throws {
        let path = SchemaFixtures.directory.appendingPathComponent("invalid/multiple-primary-keys.json").path
        #expect(
            throws: PorterError(
                .invalidSchema, "more than one primary key: '_id' and 'tag'",
                location: "\(path):classes[0].properties.tag.primaryKey")
        ) {
            try Schema(contentsOfFile: path)
        }
        let missing = SchemaFixtures.directory.appendingPathComponent("no-such-file.json").path
        let error = try #require(throws: PorterError.self) { try Schema(contentsOfFile: missing) }
        #expect(error.code == .io)
        #expect(error.location == missing)
    }

    @Test func mismatchedDefaultsAreKeptForValidation() throws {
        let schema = try Schema(
            jsonString: dogFile(
                #"""
                "a": {"type": "int", "default": "old"}, "b": {"type": "int", "default": 1.5}, "c": {"type": "int[]", "default": [1, "x"]},
                "d": {"type": "date", "default": "2020-13-01"}, "e": {"type": "int", "default": 9223372036854775808},
                "f": {"type": "string", "default": null}, "g": {"type": "float", "default": 1e39}
                """#))
        let dog = try #require(schema["Dog"])
        #expect(
            dog.properties.map(\.defaultValue) == [
                .string("old"), .double(1.5), .list([.int(1), .string("x")]),
                .string("2020-13-01"), .double(9_223_372_036_854_775_808), .null, .double(1e39),
            ])
        #expect(try Schema(jsonString: schema.jsonString()) == schema)
    }

    @Test func typedDefaultsAcceptTheirSpellings() throws {
        let schema = try Schema(
            jsonString: dogFile(
                #"""
                "i": {"type": "int", "default": 1e3}, "f": {"type": "float", "default": "-Infinity"},
                "d": {"type": "double", "default": 7}, "m": {"type": "decimal128", "default": 2.50},
                "x": {"type": "mixed", "default": {"$oid": "5f1b2c3d4e5f6a7b8c9d0e1f"}}, "y": {"type": "mixed[]", "default": [1, 2.0, null, "s"]},
                "u": {"type": "uuid", "default": "3B241101-E2BB-4255-8CAF-4136C566A962"}
                """#))
        let dog = try #require(schema["Dog"])
        #expect(
            dog.properties.map(\.defaultValue) == [
                .int(1000), .float(-.infinity), .double(7), .decimal128(try Decimal128(string: "2.50")),
                .objectId(try ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e1f")),
                .list([.int(1), .double(2), .null, .string("s")]),
                .uuid(try #require(UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962"))),
            ])
        #expect(schema.validationErrors() == [])
        #expect(try Schema(jsonString: schema.jsonString()) == schema)
    }

    @Test(arguments: 0..<300)
    func randomSchemasRoundTrip(seed: Int) throws {
        var generator = RandomSchemaGenerator(seed: UInt64(seed))
        let schema = generator.schema()
        let text = schema.jsonString(pretty: seed.isMultiple(of: 2))
        #expect(try Schema(jsonString: text) == schema, "\(text)")
    }
}
