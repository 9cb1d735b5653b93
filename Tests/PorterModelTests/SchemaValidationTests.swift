import Foundation
import Testing
@testable import PorterModel

/// The validation errors of a schema file's text (which must read fine).
private func errors(_ json: String) throws -> [String] {
    try Schema(jsonString: json).validationErrors()
}

/// A schema file with these classes (`name: properties` pairs; `+` before the name = embedded).
private func file(_ classes: [(String, String)], primaryKeys: [String: String] = [:]) -> String {
    let items = classes.map { name, properties in
        let embedded = name.hasPrefix("+")
        let className = embedded ? String(name.dropFirst()) : name
        let pk = primaryKeys[className].map { #", "primaryKey": "\#($0)""# } ?? ""
        return
            #"{"name": "\#(className)"\#(embedded ? #", "embedded": true"# : "")\#(pk), "properties": {\#(properties)}}"#
    }
    return #"{"classes": [\#(items.joined(separator: ", "))]}"#
}

/// Every invalid fixture and the errors it must produce, exactly.
private let invalidFixtureErrors: [String: [String]] = [
    "unknown-link-target": ["Dog.owner: unknown object type 'Persn'"],
    "duplicate-class-name": ["Dog: class name is used by 2 classes"],
    "duplicate-property-name": ["Dog.name: property name is declared 2 times"],
    "empty-class-name": ["\"\": class name must not be empty"],
    "empty-property-name": ["Dog.\"\": property name must not be empty"],
    "long-class-name": ["\(String(repeating: "A", count: 58)): class name must be at most 57 UTF-8 bytes, not 58"],
    "long-property-name": [
        "Dog.\(String(repeating: "p", count: 64)): property name must be at most 63 UTF-8 bytes, not 64"
    ],
    "control-character-in-name": ["Dog.na\\u{0}me: property name must not contain control characters"],
    "class-name-with-dot": ["My.Dog: class name must not contain '.' or '/'"],
    "class-name-with-slash": ["My/Dog: class name must not contain '.' or '/'"],
    "reserved-class-name": ["string: class name must not be a type name"],
    "primary-key-missing": ["Dog: primary key property '_idx' does not exist"],
    "primary-key-type": ["Dog._id: property of type 'double' cannot be made the primary key"],
    "primary-key-collection": ["Dog._id: property of type 'list<int>' cannot be made the primary key"],
    "embedded-primary-key": ["Address: embedded class cannot have a primary key"],
    "linking-objects-primary-key": ["Person.walkers: property of type 'linkingObjects' cannot be made the primary key"],
    "non-optional-link": ["Dog.owner: property of type 'object' must be optional"],
    "non-optional-link-map": ["Dog.friends: property of type 'map<Dog>' must be optional"],
    "optional-link-list": ["Dog.toys: property of type 'list<DogToy>' cannot be optional"],
    "optional-link-set": ["Dog.toys: property of type 'set<DogToy>' cannot be optional"],
    "embedded-in-set": ["Person.addresses: property of type 'set<Address>' cannot hold embedded objects"],
    "embedded-cycle": ["A: embedded classes form a cycle: A.b.a"],
    "unindexable-property": ["Dog.weight: property of type 'double' cannot be indexed"],
    "linking-objects-unknown-class": ["Person.walkers: unknown object type 'Dgo'"],
    "linking-objects-unknown-property": ["Person.walkers: origin property 'Dog.ownr' does not exist"],
    "linking-objects-not-a-link": ["Person.walkers: origin property 'Dog.name' is not a link"],
    "linking-objects-wrong-target": ["Person.walkers: origin property 'Dog.owner' links to 'Cat', not 'Person'"],
    "linking-objects-optional": ["Person.walkers: property of type 'linkingObjects' cannot be optional"],
    "linking-objects-indexed": ["Person.walkers: property of type 'linkingObjects' cannot be indexed"],
    "linking-objects-collection": ["Person.walkers: property of type 'linkingObjects' cannot be declared as a list"],
    "default-type-mismatch": ["Dog.age: default value \"old\" does not match type 'int'"],
    "link-default": ["Dog.owner: property of type 'object' cannot have a default value"],
]

@Suite struct SchemaValidationTests {
    @Test func everyInvalidFixtureFailsWithItsMessage() throws {
        let directory = SchemaFixtures.directory.appendingPathComponent("invalid")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count == invalidFixtureErrors.count + 1)
        for file in files {
            let path = directory.appendingPathComponent(file).path
            let name = String(file.dropLast(5))
            if name == "multiple-primary-keys" {
                // Not expressible in a Schema value, so it is a read error (see SchemaFileTests).
                #expect(throws: PorterError.self) { try Schema(contentsOfFile: path) }
                continue
            }
            let schema = try Schema(contentsOfFile: path)
            let expected = try #require(invalidFixtureErrors[name], "no expectation for \(file)")
            #expect(schema.validationErrors() == expected, "\(file)")
            #expect(
                throws: PorterError(
                    .invalidSchema, "Schema validation failed with \(expected.count) error(s):", details: expected)
            ) {
                try schema.validate()
            }
        }
    }

    @Test func validSchemasPass() throws {
        let schema = try Schema(
            jsonString: file(
                [
                    (
                        "Root",
                        #""_id": "string?", "a": "A?", "list": "A[]", "map": "A?{}", "tags": {"type": "string[]", "indexed": true}, "m": {"type": "mixed", "indexed": true}"#
                    ),
                    ("+A", #""back": "Root?", "b": "B[]""#),  // embedded → top-level link, embedded → embedded list
                    ("+B", #""x": "int""#),
                    (
                        "Other",
                        #""_id": "uuid", "root": "Root?", "roots": "Root[]", "rootSet": "Root<>", "rootMap": "Root?{}", "back": "Back?""#
                    ),
                    (
                        "Back",
                        #""o": {"type": "linkingObjects", "objectType": "Other", "property": "back"}, "_id": "objectId?""#
                    ),
                ], primaryKeys: ["Root": "_id", "Other": "_id", "Back": "_id"]))
        #expect(schema.validationErrors() == [])
        try schema.validate()
        #expect(schema.isEmbeddedClass("A"))
        #expect(!schema.isEmbeddedClass("Root"))
    }

    @Test func linkingObjectsAcceptEveryKindOfOriginLink() throws {
        let kinds = ["P?", "P[]", "P<>", "P?{}"]
        for kind in kinds {
            let json = file([
                ("O", #""l": "\#(kind)""#),
                ("P", #""b": {"type": "linkingObjects", "objectType": "O", "property": "l"}"#),
            ])
            #expect(try errors(json) == [], "\(kind)")
        }
    }

    @Test func cyclesThroughATopLevelClassAreFine() throws {
        #expect(try errors(file([("T", #""a": "A?""#), ("+A", #""t": "T?""#)])) == [])
    }

    @Test func embeddedCyclesAreReportedOnceWithTheirPath() throws {
        #expect(try errors(file([("+A", #""me": "A?""#)])) == ["A: embedded classes form a cycle: A.me"])
        #expect(
            try errors(file([("+C", #""a": "A[]""#), ("+A", #""b": "B?""#), ("+B", #""c": "C?{}""#)]))
                == ["A: embedded classes form a cycle: A.b.c.a"])
        #expect(
            try errors(file([("+A", #""b": "B?", "c": "C?""#), ("+B", #""a": "A?""#), ("+C", #""a": "A?""#)]))
                == ["A: embedded classes form a cycle: A.b.a"])
    }

    @Test func indexableTypes() throws {
        let indexable = ["bool", "int", "string", "date", "objectId", "uuid", "mixed", "int?", "string?", "string[]"]
        for type in indexable {
            #expect(try errors(dogClass(#""p": {"type": "\#(type)", "indexed": true}"#)) == [], "\(type)")
        }
        let notIndexable = [
            "float": "float", "double?": "double", "decimal128": "decimal128", "data": "data",
            "Dog?": "object", "int[]": "list<int>", "string<>": "set<string>", "string{}": "map<string>",
            "Dog[]": "list<Dog>",
        ]
        for (type, name) in notIndexable {
            #expect(
                try errors(dogClass(#""p": {"type": "\#(type)", "indexed": true}"#)) == [
                    "Dog.p: property of type '\(name)' cannot be indexed"
                ])
        }
    }

    @Test func primaryKeyTypes() throws {
        for type in ["int", "string", "objectId", "uuid", "int?", "string?", "objectId?", "uuid?"] {
            #expect(try errors(file([("Dog", #""k": "\#(type)""#)], primaryKeys: ["Dog": "k"])) == [], "\(type)")
        }
        let invalid = [
            "bool": "bool", "date": "date", "mixed": "mixed", "Dog?": "object", "string<>": "set<string>",
            "uuid{}": "map<uuid>",
        ]
        for (type, name) in invalid {
            #expect(
                try errors(file([("Dog", #""k": "\#(type)""#)], primaryKeys: ["Dog": "k"]))
                    == ["Dog.k: property of type '\(name)' cannot be made the primary key"])
        }
    }

    @Test func defaultsMustMatchTheirType() throws {
        let cases: [(String, String)] = [
            (#""p": {"type": "int", "default": 1.5}"#, "Dog.p: default value 1.5 does not match type 'int'"),
            (#""p": {"type": "int", "default": null}"#, "Dog.p: default value null does not match type 'int'"),
            (#""p": {"type": "bool", "default": 1}"#, "Dog.p: default value 1 does not match type 'bool'"),
            (
                #""p": {"type": "date", "default": "yesterday"}"#,
                "Dog.p: default value \"yesterday\" does not match type 'date'"
            ),
            (
                #""p": {"type": "objectId", "default": "abc"}"#,
                "Dog.p: default value \"abc\" does not match type 'objectId'"
            ),
            (#""p": {"type": "uuid", "default": 5}"#, "Dog.p: default value 5 does not match type 'uuid'"),
            (
                #""p": {"type": "data", "default": "not base64!"}"#,
                "Dog.p: default value \"not base64!\" does not match type 'data'"
            ),
            (
                #""p": {"type": "decimal128", "default": "x"}"#,
                "Dog.p: default value \"x\" does not match type 'decimal128'"
            ),
            (#""p": {"type": "double", "default": "1"}"#, "Dog.p: default value \"1\" does not match type 'double'"),
            (
                #""p": {"type": "string[]", "default": "a"}"#,
                "Dog.p: default value \"a\" does not match type 'string[]'"
            ),
            (
                #""p": {"type": "int[]", "default": [1, null]}"#,
                "Dog.p: default value [1,null] does not match type 'int[]'"
            ),
            (#""p": {"type": "int{}", "default": [1]}"#, "Dog.p: default value [1] does not match type 'int{}'"),
            (#""p": {"type": "mixed", "default": [1]}"#, "Dog.p: default value [1] does not match type 'mixed'"),
            (
                #""p": {"type": "Dog[]", "default": []}"#,
                "Dog.p: property of type 'list<Dog>' cannot have a default value"
            ),
            (
                #""p": {"type": "linkingObjects", "objectType": "Dog", "property": "o", "default": []}, "o": "Dog?""#,
                "Dog.p: property of type 'linkingObjects' cannot have a default value"
            ),
        ]
        for (properties, expected) in cases {
            #expect(try errors(dogClass(properties)) == [expected], "\(properties)")
        }
    }

    @Test func programmaticStatesAFileCannotExpress() {
        var mixed = Property(name: "m", type: .mixed)
        mixed.isOptional = false
        let schema = Schema(classes: [
            ObjectSchema(
                name: "Dog",
                properties: [
                    mixed,
                    Property(name: "i", type: .int, objectType: "Dog"),
                    Property(name: "s", type: .string, linkOriginProperty: "x"),
                    Property(name: "l", type: .object, optional: true),
                    Property(name: "b", type: .linkingObjects),
                    Property(name: "c", type: .linkingObjects, objectType: "Dog"),
                    Property(
                        name: "d", type: .object, objectType: "Dog", optional: true,
                        defaultValue: .link(ObjectLink("Dog", ObjectKey(1)))),
                ])
        ])
        #expect(
            schema.validationErrors() == [
                "Dog.m: property of type 'mixed' must be optional",
                "Dog.i: property of type 'int' cannot have an object type ('Dog')",
                "Dog.s: only linkingObjects properties can name an origin property",
                "Dog.l: property of type 'object' must name an object type",
                "Dog.b: property of type 'linkingObjects' must name an origin class (\"objectType\")",
                "Dog.c: property of type 'linkingObjects' must name an origin property (\"property\")",
                "Dog.d: property of type 'object' cannot have a default value",
            ])
    }

    @Test func reportsAllErrorsAtOnce() throws {
        let schema = try Schema(
            jsonString: file(
                [
                    (
                        "Dog",
                        #""owner": "Person", "toys": "Toy[]", "weight": {"type": "double", "indexed": true}, "weight": "int", "age": {"type": "int", "default": "x"}"#
                    ),
                    ("+Address", #""street": "string""#),
                    ("a.b", #""": "bool""#),
                ], primaryKeys: ["Dog": "name", "Address": "street"]))
        let expected = [
            "Address: embedded class cannot have a primary key",
            "Dog: primary key property 'name' does not exist",
            "Dog.owner: unknown object type 'Person'",
            "Dog.toys: unknown object type 'Toy'",
            "Dog.weight: property name is declared 2 times",
            "Dog.weight: property of type 'double' cannot be indexed",
            "Dog.age: default value \"x\" does not match type 'int'",
            "a.b: class name must not contain '.' or '/'",
            "a.b.\"\": property name must not be empty",
        ]
        #expect(schema.validationErrors() == expected)
        let error = try #require(throws: PorterError.self) { try schema.validate() }
        #expect(error.code == .invalidSchema)
        #expect(error.message == "Schema validation failed with 9 error(s):")
        #expect(error.details == expected)
    }

    @Test func namesWithControlCharactersAreShownEscaped() {
        let schema = Schema(classes: [
            ObjectSchema(name: "Do\u{7}g", properties: [Property(name: "a\u{85}", type: .int)])
        ])
        #expect(
            schema.validationErrors() == [
                "Do\\u{7}g: class name must not contain control characters",
                "Do\\u{7}g.a\\u{85}: property name must not contain control characters",
            ])
        let long = String(repeating: "é", count: 29)  // 58 bytes, 29 characters
        #expect(
            Schema(classes: [ObjectSchema(name: long, properties: [])]).validationErrors()
                == ["\(long): class name must be at most 57 UTF-8 bytes, not 58"])
    }

    private func dogClass(_ properties: String) -> String { file([("Dog", properties)]) }
}
