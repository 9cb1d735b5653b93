import Foundation
import Testing
@testable import PorterModel

/// `Schema.supplemented(by:)`: what a models file adds to a schema read from a Realm file.
@Suite struct SchemaModelsTests {
    /// The shape a Realm file gives: no linkingObjects, no defaults.
    private let fileSchema = try! Schema(
        jsonString: """
            {"schemaVersion": 3, "classes": [
              {"name": "Dog", "primaryKey": "_id", "properties": {"_id": "objectId", "name": "string", "age": "int", "owner": "Person?"}},
              {"name": "Person", "properties": {"name": "string"}}]}
            """)

    @Test func addsLinkingObjectsAndDefaults() throws {
        let models = try Schema(
            jsonString: """
                {"classes": [
                  {"name": "Dog", "primaryKey": "_id", "properties": {"_id": "objectId", "name": {"type": "string", "default": "Rex"}, "age": "int", "owner": "Person?"}},
                  {"name": "Person", "properties": {"name": "string", "dogs": {"type": "linkingObjects", "objectType": "Dog", "property": "owner"}}}]}
                """)
        let (schema, notes) = fileSchema.supplemented(by: models)
        #expect(notes.isEmpty)
        #expect(schema.version == 3)
        #expect(schema["Dog"]?.property(named: "name")?.defaultValue == .string("Rex"))
        let dogs = try #require(schema["Person"]?.property(named: "dogs"))
        #expect(dogs.isComputed && dogs.objectType == "Dog" && dogs.linkOriginProperty == "owner")
        #expect(schema.validationErrors().isEmpty)
    }

    @Test func keepsTheFilesTypesAndNotesWhatItCannotUse() throws {
        let models = try Schema(
            jsonString: """
                {"classes": [
                  {"name": "Dog", "primaryKey": "_id", "properties": {"_id": "objectId", "age": {"type": "string", "default": "x"}, "color": "string"}},
                  {"name": "Cat", "properties": {"name": "string"}},
                  {"name": "Person", "properties": {"name": "string", "cats": {"type": "linkingObjects", "objectType": "Dog", "property": "name"}}}]}
                """)
        let (schema, notes) = fileSchema.supplemented(by: models)
        #expect(schema["Dog"]?.property(named: "age")?.type == .int)
        #expect(schema["Dog"]?.property(named: "color") == nil)
        #expect(schema["Cat"] == nil)
        #expect(schema["Person"]?.property(named: "cats") == nil)
        #expect(
            notes == [
                "Cat: class is not in the file; its declarations are ignored",
                "Dog.age: the models declare string, the file stores int; the file's type is kept",
                "Dog.color: property is not in the file; ignored",
                "Person.cats: linkingObjects origin Dog.name is not a link to Person in the file; ignored",
            ])
    }
}
