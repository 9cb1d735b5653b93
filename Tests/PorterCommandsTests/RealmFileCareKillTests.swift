import Foundation
import PorterModel
import PorterRealmFile
import Testing
#if canImport(Glibc)
import Glibc
import PorterTestSupport
#endif

/// `porter compact` and `porter rekey` killed with SIGKILL at any moment leave the original or the
/// finished file, never anything else; the next run removes the temporary file a killed run left.
@Suite struct RealmFileCareKillTests {
    /// The `porter` executable next to the test bundle (`swift build` puts both in one folder).
    static let porter: URL? = PorterExecutable.url

    /// Objects `Item {id, label, tags}`, `count` of them.
    struct Items: RealmWriteSource {
        var count: Int
        func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
            for i in 0..<count {
                try body(
                    Int64(i),
                    [
                        .int(Int64(i)), .string("item \(i) " + String(repeating: "x", count: i % 50)),
                        .list([.string("a"), .string("b\(i % 7)")]),
                    ])
            }
        }
    }

    @Test(
        .enabled(
            if: RealmFileCareKillTests.porter != nil, "needs the built porter binary (swift build --product porter)"),
        arguments: ["compact", "rekey"])
    func killAtRandomPointsLeavesTheOriginalOrTheFinishedFile(_ command: String) throws {
        let tmp = try TemporaryFolder("care-kill")
        let dir = tmp.url
        let schema = try Schema(
            jsonString: """
                {"schemaVersion": 3, "classes": [{"name": "Item", "properties": {"id": "int", "label": "string", "tags": "string[]"}}]}
                """)
        let original = dir.appendingPathComponent("original.realm").path
        try RealmFileWriter(schema: schema, schemaVersion: 3).write(to: original, source: Items(count: 80_000))
        let originalBytes = try Data(contentsOf: URL(fileURLWithPath: original))
        let keyHex = String(repeating: "ab", count: 64)
        let arguments: (String) -> [String] = { path in
            command == "compact" ? ["compact", path] : ["rekey", path, "--encrypt", "--new-key", keyHex]
        }
        // The finished state, from an undisturbed run (compaction is deterministic; encryption is
        // not, since every page gets a random IV: a finished rekey is recognised by reading it).
        let reference = dir.appendingPathComponent("reference.realm").path
        try FileManager.default.copyItem(atPath: original, toPath: reference)
        #expect(try run(arguments(reference), killAfter: nil) == 0)
        let finishedBytes = try Data(contentsOf: URL(fileURLWithPath: reference))
        let key = (0..<64).map { _ in UInt8(0xab) }

        var generator = SeededGenerator(seed: command == "compact" ? 21 : 22)
        var outcomes: [String] = []
        for round in 0..<6 {
            let path = dir.appendingPathComponent("victim\(round).realm").path
            try FileManager.default.copyItem(atPath: original, toPath: path)
            let delay = Double.random(in: 0.02...1.2, using: &generator)
            let status = try run(arguments(path), killAfter: delay)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            if bytes == originalBytes {
                outcomes.append(status == nil ? "killed:old" : "old")
            } else if command == "compact" {
                #expect(
                    bytes == finishedBytes, "round \(round): the file is neither the original nor the compacted one")
                outcomes.append("new")
            } else {
                let file = try RealmFile(path: path, encryptionKey: key)
                #expect(try file.objectCount(in: #require(file.table(named: "Item"))) == 80_000)
                outcomes.append("new")
            }
            // A second, undisturbed run finishes the job and removes what the killed one left.
            if bytes == originalBytes {
                #expect(try run(arguments(path), killAfter: nil) == 0)
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
                $0.contains(".porter-care-")
            }
            #expect(left.isEmpty, "round \(round): \(left)")
        }
        #expect(outcomes.contains("killed:old"), "no run was killed before it finished (\(outcomes))")
    }

    /// Runs `porter ARGS` (see ``PorterExecutable/run(_:killAfter:)``): its exit status, or nil
    /// when it was killed while running.
    private func run(_ arguments: [String], killAfter: Double?) throws -> Int32? {
        try PorterExecutable.run(arguments, killAfter: killAfter).status
    }
}
