import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `porter inspect --json` (issue 35): the summary as one JSON document, read back here with
/// JSONSerialization and compared with what the fixtures are (their realm-core dumps).
@Suite struct InspectJSONTests {
    static func inspect(_ arguments: [String]) throws -> [String: Any] {
        let run = CapturedOutput.run(["inspect", "--json"] + arguments)
        #expect(run.status == 0, "\(run.output.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.stdout.utf8))
        return try #require(object as? [String: Any], "\(run.output.stdout)")
    }

    static func classes(_ summary: [String: Any]) -> [String: [String: Any]] {
        var byName: [String: [String: Any]] = [:]
        for case let cls as [String: Any] in summary["classes"] as? [Any] ?? [] {
            if let name = cls["name"] as? String { byName[name] = cls }
        }
        return byName
    }

    @Test func aRealmFileIsSummarized() throws {
        let path = RealmFileCommandsTests.realmDir.appendingPathComponent("inner-nodes.realm").path
        let summary = try Self.inspect([path])
        #expect(summary["file"] as? String == path)
        #expect(summary["kind"] as? String == "realm")
        #expect(summary["fileFormat"] as? Int == 24)
        #expect(summary["encrypted"] as? Bool == false)
        #expect(summary["fileSize"] as? Int == 74400)
        #expect(summary["schemaVersion"] as? Int == 0)
        // realm-oracle's compacted file: written in the streaming form (slot 0 all ones, a footer),
        // then switched to slot 1 holding the same top ref.
        let header = try #require(summary["header"] as? [String: Any])
        #expect(header["currentSlot"] as? Int == 1)
        #expect(header["streaming"] as? Bool == false)
        let topRefs = try #require(header["topRefs"] as? [Any])
        #expect(topRefs.count == 2 && topRefs[0] is NSNull && topRefs[1] as? Int == 0x12258)
        #expect(header["currentTopRef"] as? Int == 0x12258)
        #expect(header["fileFormats"] as? [Int] == [24, 24])
        let many = try #require(Self.classes(summary)["Many"])
        #expect(many["objects"] as? Int == 1000)
        #expect(many["primaryKey"] as? String == "id")
        #expect(many["embedded"] as? Bool == false)
        let schema = try #require(summary["schema"] as? [String: Any])
        let schemaClasses = try #require(schema["classes"] as? [[String: Any]])
        #expect(schemaClasses.map { $0["name"] as? String } == ["Many"])
    }

    @Test func anEncryptedRealmFileSaysSo() throws {
        let path = RealmFileCommandsTests.realmDir.appendingPathComponent("every-type-encrypted.realm").path
        let summary = try Self.inspect([path, "--encryption-key", RealmFileCommandsTests.key100To163])
        #expect(summary["encrypted"] as? Bool == true)
        #expect(summary["fileFormat"] as? Int == 24)
        // The same classes and counts as the plain file.
        let plain = try Self.inspect([RealmFileCommandsTests.realmDir.appendingPathComponent("every-type.realm").path])
        let counts = { (s: [String: Any]) in Self.classes(s).mapValues { $0["objects"] as? Int } }
        #expect(counts(summary) == counts(plain))
        #expect(!counts(plain).isEmpty)
    }

    @Test func aPorterDatabaseIsSummarized() throws {
        let tmp = try TemporaryFolder("cmd")
        let db = tmp.url.appendingPathComponent("a.porter").path
        #expect(CapturedOutput.run(["create", db, "--schema", TestFiles.schema]).status == 0)
        let summary = try Self.inspect([db])
        #expect(summary["kind"] as? String == "porter")
        #expect(summary["header"] == nil && summary["encrypted"] == nil)
        #expect((summary["fileSize"] as? Int ?? 0) > 0)
        #expect(summary["migrations"] as? [Any] != nil)
        let classes = Self.classes(summary)
        #expect(Set(classes.keys).isSuperset(of: ["Dog", "Person", "Address", "DogToy"]))
        #expect(classes["Dog"]?["objects"] as? Int == 0)
        #expect(classes["Address"]?["embedded"] as? Bool == true)
        #expect(classes["Person"]?["primaryKey"] as? String == "_id")
    }
}
