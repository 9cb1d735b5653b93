import Foundation
import PorterTestSupport
import PorterModel
import Testing
@testable import PorterRealmFile

@Suite("Realm files written by the SDKs, compared with realm-core's dumps")
struct SDKFileTests {
    @Test(
        "dumps equal realm-oracle's", .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: ["swift-migration-default-v5", "js-simple", "js-bundled"])
    func dumpsMatch(name: String) throws {
        let diff = try Fixture.compareDump(Fixture.shared("\(name).realm"), Fixture.shared("\(name).expected.json"))
        #expect(diff == nil, "\(diff?.0 ?? "")\n--- expected ---\n\(diff?.1 ?? "")")
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func theComparisonSeesDifferences()
        throws
    {
        // The document comparison is not vacuous: another file's dump, or one changed value, differs.
        #expect(
            try Fixture.compareDump(Fixture.shared("js-simple.realm"), Fixture.shared("js-bundled.expected.json"))
                != nil)
        let file = try RealmFile(path: Fixture.shared("js-simple.realm"))
        let expected = DumpCompare.normalizeDump(try Fixture.json(Fixture.shared("js-simple.expected.json")))
        let text = try OracleDump(file: file).document().serialized(pretty: false).replacingOccurrences(
            of: "\"Charlie\"", with: "\"Charly\"")
        #expect(DumpCompare.normalizeDump(try JSONValue.parse(text)) != expected)
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func swiftFileSchemaVersionAndEmbedded() throws {
        let file = try RealmFile(path: Fixture.shared("swift-migration-default-v5.realm"))
        #expect(file.schemaVersion == 5)
        #expect(file.fileFormat == 20)
        #expect(file.historyType == 2)
        #expect(file.skippedTables.contains("metadata"))
        #expect(file.schema.version == 5)
        #expect(file.schema["Address"]?.isEmbedded == true)
        let person = try #require(file.schema["Person"])
        #expect(person.properties.map(\.typeShorthand) == ["string", "int", "Address?", "Pet[]"])
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func jsSimpleColumnOrderAndBacklink()
        throws
    {
        let file = try RealmFile(path: Fixture.shared("js-simple.realm"))
        let person = try #require(file.table(named: "Person"))
        #expect(person.primaryKey == "name")
        #expect(person.properties.map(\.name) == ["name", "bestFriend", "age"])
        #expect(person.properties[2].isIndexed)
        #expect(
            file.backlinks == [
                RealmBacklink(targetClass: "Person", originClass: "Person", originProperty: "bestFriend")
            ])
        #expect(try file.objectCount(in: person) == 3)
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func jsBundledUpgradedHeaderAndNegativeDates() throws {
        let file = try RealmFile(path: Fixture.shared("js-bundled.realm"))
        // Header format bytes 23/9: the selected slot 0 says 23. Group slot 0 is a freed table.
        #expect(file.fileFormat == 23)
        #expect(file.skippedTables == ["metadata"])
        #expect(file.table(named: "Date")?.key == 2)
        let table = try #require(file.table(named: "Date"))
        var dates: [RealmValue] = []
        try file.forEachObject(in: table) { dates.append($0.values[0]) }
        #expect(
            dates == [
                .timestamp(seconds: 1_462_500_087, nanoseconds: 955_000_000),
                .timestamp(seconds: -25_488_000, nanoseconds: 0),
            ])
    }
}
