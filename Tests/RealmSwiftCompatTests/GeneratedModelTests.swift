import Foundation
import RealmSwift
import Testing
import PorterTestSupport

/// The classes `porter codegen Fixtures/codegen/shop.schema.json --lang realmswift` prints
/// (`GeneratedShopModels.swift`, compared with a fresh run by `CodegenCommandTests`) compile
/// against Porter's RealmSwift, open a Porter database created from that schema file (the schema
/// they declare is the file's: no migration needed) and hold every kind of value.
@Suite struct GeneratedModelTests {
    @Test func generatedClassesOpenADatabaseOfTheirSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let schema = try Schema(contentsOfFile: root.appendingPathComponent("Fixtures/codegen/shop.schema.json").path)
        let tmp = try TemporaryFolder("codegen")
        let dir = tmp.url
        let url = dir.appendingPathComponent("shop.porter")
        _ = try Database.create(at: url.path, schema: schema)
        let config = Realm.Configuration(
            fileURL: url, schemaVersion: schema.version,
            objectTypes: [ShopItem.self, ShopMaker.self, ShopLabel.self])
        let realm = try Realm(configuration: config)
        try realm.write {
            let maker = ShopMaker()
            maker.name = "Acme"
            let item = ShopItem()
            item.sku = "A-1"
            item.title = "Anvil"
            item.price = Decimal128(stringLiteral: "12.50")
            item.weight = 50
            item.count = 3
            item.added = Date(timeIntervalSince1970: 1_700_000_000)
            item.token = UUID()
            item.extra = .string("heavy")
            item.tags.append(objectsIn: ["iron", "tool"])
            item.sizes.insert(2)
            item.attributes["colour"] = "black"
            item.maker = maker
            item.byRegion["eu"] = maker
            let label = ShopLabel()
            label.text = "new"
            item.label = label
            item.anyList.append(.int(1))
            realm.add(item)
            item.related.append(item)
            item.similar.insert(item)
        }
        let item = try #require(realm.object(ofType: ShopItem.self, forPrimaryKey: "A-1"))
        #expect(item.title == "Anvil" && item.count == 3 && item.price == Decimal128(stringLiteral: "12.50"))
        #expect(Array(item.tags) == ["iron", "tool"] && item.sizes.contains(2))
        #expect(item.attributes["colour"] == "black" && item.extra == .string("heavy"))
        #expect(item.label?.text == "new" && item.related.first?.sku == "A-1")
        #expect(item.maker?.items.count == 1 && item.byRegion["eu"]??.name == "Acme")
    }
}
