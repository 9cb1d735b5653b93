import Foundation
import PorterModel
import PorterTestSupport
import Testing
@testable import PorterInterchange

/// `porter codegen`'s generator: GRDB records from the relational export's own layout (so the
/// migration creates exactly the export's tables), RealmSwift classes for every property kind.
@Suite struct CodegenTests {
    static let root = SharedRealmFiles.projectRoot
    static let schemas = [
        "Fixtures/realm/every-type.schema.json", "Fixtures/codegen/shop.schema.json",
        "Fixtures/schemas/realm-docs.json",
    ]

    static func schema(_ path: String) throws -> Schema {
        try Schema(contentsOfFile: root.appendingPathComponent(path).path)
    }

    @Test(arguments: schemas)
    func grdbMigrationRunsExactlyTheExportStatements(_ path: String) throws {
        let schema = try Self.schema(path)
        let code = try Codegen.generate(schema, language: .grdb)
        let layout = try RelationalLayout(schema: schema, classes: schema.classes.filter { !$0.isEmbedded })
        #expect(code.contains("migrator.registerMigration(\"v\(schema.version)\") { db in"))
        let executed = code.split(separator: "\n").filter { $0.contains("try db.execute(sql: ") }
        let statements = layout.allCreateStatements()
        #expect(executed.count == statements.count)
        for (line, statement) in zip(executed, statements) {
            #expect(line.trimmingCharacters(in: .whitespaces) == "try db.execute(sql: \(Codegen.literal(statement)))")
        }
        // One record per table, named after it, with its table name.
        for table in layout.all {
            #expect(
                code.contains("struct \(Codegen.typeName(table.name)): Codable, FetchableRecord, PersistableRecord"))
            #expect(code.contains("static let databaseTableName = \(Codegen.literal(table.name))"))
        }
    }

    @Test func grdbRecordsOfTheShopSchema() throws {
        let code = try Codegen.generate(try Self.schema("Fixtures/codegen/shop.schema.json"), language: .grdb)
        // Identifiable by the primary key; a class without one by its Realm object key.
        #expect(code.contains("struct ShopItem: Codable, FetchableRecord, PersistableRecord, Identifiable {"))
        #expect(code.contains("    var sku: String\n"))
        #expect(code.contains("    var id: String { sku }"))
        #expect(code.contains("    var _key: Int64\n    var name: String\n    var id: Int64 { _key }"))
        // Columns: optional values, mixed with its type column, a link as the target's key.
        #expect(code.contains("    var weight: Double?\n"))
        #expect(code.contains("    var extra: PorterValue?\n    var extra_type: String?\n"))
        #expect(code.contains("    var maker: Int64?\n"))
        #expect(
            code.contains(
                "static let makerObject = belongsTo(ShopMaker.self, key: \"makerObject\", using: ForeignKey([\"maker\"], to: [\"_key\"]))"
            ))
        // Child tables: lists, sets and maps of values and links, embedded objects.
        #expect(code.contains("struct ShopItem_tags: Codable, FetchableRecord, PersistableRecord {"))
        #expect(code.contains("    var owner: String\n    var position: Int64\n    var value: String\n"))
        #expect(
            code.contains(
                "static let tagsRecords = hasMany(ShopItem_tags.self, key: \"tags\", using: ForeignKey([\"owner\"]))"))
        #expect(
            code.contains(
                "static let labelRecords = hasOne(ShopItem_label.self, key: \"label\", using: ForeignKey([\"_owner\"]))"
            ))
        #expect(code.contains("struct ShopItem_label: Codable, FetchableRecord, PersistableRecord, Identifiable {"))
        #expect(
            code.contains(
                "static let ownerRecord = belongsTo(ShopItem.self, key: \"ownerRecord\", using: ForeignKey([\"_owner\"], to: [\"sku\"]))"
            ))
        #expect(
            code.contains(
                "static let valueObject = belongsTo(ShopItem.self, key: \"valueObject\", using: ForeignKey([\"value\"], to: [\"sku\"]))"
            ))
        #expect(code.contains("if try db.tableExists(\"_porter_schema\") { return }"))
    }

    /// A dictionary of links holds null where its target was deleted (the export writes NULL); a
    /// list or set of links never does. The generated record failed to decode such a row.
    @Test func aDictionaryOfLinksHasAnOptionalValue() throws {
        let code = try Codegen.generate(try Self.schema("Fixtures/schemas/realm-docs.json"), language: .grdb)
        #expect(
            code.contains(
                "static let databaseTableName = \"AllTypes_linkMap\"\n    var owner: Int64\n    var key: String\n    var value: Int64?\n"
            ))
        #expect(
            code.contains(
                "static let databaseTableName = \"AllTypes_linkList\"\n    var owner: Int64\n    var position: Int64\n    var value: Int64\n"
            ))
    }

    @Test func grdbRefusesWhatTheExportRefuses() throws {
        let schema = try Schema(
            jsonString: #"{"classes": [{"name": "A", "properties": {"_row": "int"}}]}"#)
        let error = try #require(throws: PorterError.self) { try Codegen.generate(schema, language: .grdb) }
        #expect(error.code == .usage)
        #expect(error.message.contains("A._row"))
    }

    @Test func realmSwiftClassesOfEveryKind() throws {
        let code = try Codegen.generate(try Self.schema("Fixtures/codegen/shop.schema.json"), language: .realmswift)
        for line in [
            "class ShopItem: Object {", "    @Persisted(primaryKey: true) var sku: String",
            "    @Persisted(indexed: true) var title: String", "    @Persisted var price: Decimal128",
            "    @Persisted var weight: Double?", "    @Persisted var photo: Data?",
            "    @Persisted var ref: ObjectId?",
            "    @Persisted var token: UUID", "    @Persisted var extra: AnyRealmValue",
            "    @Persisted var ratio: Float?",
            "    @Persisted var tags: List<String>", "    @Persisted var sizes: MutableSet<Int>",
            "    @Persisted var attributes: Map<String, String?>", "    @Persisted var maker: ShopMaker?",
            "    @Persisted var related: List<ShopItem>", "    @Persisted var similar: MutableSet<ShopItem>",
            "    @Persisted var byRegion: Map<String, ShopMaker?>", "    @Persisted var label: ShopLabel?",
            "    @Persisted var labels: List<ShopLabel>", "    @Persisted var labelMap: Map<String, ShopLabel?>",
            "    @Persisted var anyList: List<AnyRealmValue>", "class ShopMaker: Object {",
            "    @Persisted(originProperty: \"maker\") var items: LinkingObjects<ShopItem>",
            "class ShopLabel: EmbeddedObject {", "    @Persisted var color: Int?",
        ] {
            #expect(code.contains(line + "\n"), "\(line)")
        }
    }

    @Test func namesThatAreNotSwiftIdentifiers() throws {
        let schema = try Schema(
            jsonString: #"{"classes": [{"name": "my-class", "properties": {"class": "int", "a b": "string"}}]}"#)
        let code = try Codegen.generate(schema, language: .realmswift)
        #expect(code.contains("class My_class: Object {"))
        #expect(code.contains("    @Persisted var `class`: Int\n"))
        #expect(code.contains("    @Persisted var a_b: String\n"))
        #expect(code.contains("override class func _realmObjectName() -> String? { \"my-class\" }"))
        #expect(code.contains("override class func _realmColumnNames() -> [String: String]? { [\"a_b\": \"a b\"] }"))
        let grdb = try Codegen.generate(schema, language: .grdb)
        #expect(grdb.contains("        case a_b = \"a b\"\n"))
    }
}
