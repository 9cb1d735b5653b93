import Foundation
import PorterTestSupport
import PorterModel
import Testing
@testable import PorterRealmFile

/// Hand-corrupted copies of the fixtures in a temporary folder: every refusal is one clear line,
/// never a trap, and the input is left byte-for-byte unchanged with nothing created beside it.
@Suite("Refusals of damaged, foreign and unsupported files")
struct RefusalTests {
    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Opens `bytes` as a file and reads everything; returns the error message (nil if it read).
    func refusal(_ bytes: [UInt8], key: [UInt8]? = nil) throws -> String? {
        let folder = try TemporaryFolder("refusal-tests")
        let path = try folder.write("input.realm", bytes)
        defer {
            #expect((try? self.bytes(path)) == bytes, "the input changed")
            #expect(folder.listing == ["input.realm"], "files appeared beside the input")
        }
        do {
            let file = try RealmFile(path: path, encryptionKey: key)
            for table in file.tables { try file.forEachObject(in: table) { _ in } }
            return nil
        } catch let error as PorterError {
            #expect(error.code == .notADatabase)
            #expect(error.location == path)
            #expect(!error.message.contains("\n"))
            return error.message
        }
    }

    /// Overwrites `count` bytes at `offset` with `value` little-endian.
    func patch(_ bytes: inout [UInt8], at offset: Int, _ value: Int64, count: Int) {
        withUnsafeBytes(of: value.littleEndian) { for i in 0..<count { bytes[offset + i] = $0[i] } }
    }

    /// The file offset of slot `i` of the node at `ref` (its width from the header).
    func slotOffset(_ bytes: [UInt8], _ ref: Int64, _ i: Int) -> (Int, Int) {
        let width = (1 << Int(bytes[Int(ref) + 4] & 7)) >> 1
        return (Int(ref) + 8 + i * width / 8, width / 8)
    }

    @Test func readingLeavesNoTrace() throws {
        let folder = try TemporaryFolder("refusal-tests")
        let plain = try folder.write("plain.realm", try bytes(Fixture.own("every-type.realm")))
        let encrypted = try folder.write("encrypted.realm", try bytes(Fixture.own("every-type-encrypted.realm")))
        let before = [try bytes(plain), try bytes(encrypted)]
        let temporary = {
            (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
                $0.hasPrefix("porter-realm-") && $0.count == 19
            }) ?? []
        }
        let leftovers = temporary()
        for (path, key) in [(plain, nil), (encrypted, OracleFixtureTests.everyTypeKey)] as [(String, [UInt8]?)] {
            let file = try RealmFile(path: path, encryptionKey: key)
            for table in file.tables { try file.forEachObject(in: table) { _ in } }
            #expect(try file.check() == [])
        }
        #expect(folder.listing == ["encrypted.realm", "plain.realm"])
        #expect([try bytes(plain), try bytes(encrypted)] == before)
        #expect(temporary() == leftovers, "the decrypted copy is unlinked at once")
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func headerLevelRefusals() throws {
        #expect(try refusal([]) == "file is empty")
        #expect(
            try refusal(Array(repeating: 0, count: 13))
                == "file is truncated: 13 bytes, a Realm file has at least a 24-byte header")
        var rng = SeededGenerator(seed: 7)
        let random = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        #expect(
            try refusal(random) == "not a Porter or Realm file; if it is an encrypted Realm file, pass --encryption-key"
        )
        var simple = try bytes(Fixture.shared("js-simple.realm"))
        #expect(
            try refusal(Array(simple.prefix(30)))
                == "file size 30 is not a multiple of 8: not a Realm file, or truncated")
        simple[16] = UInt8(ascii: "X")
        #expect(try refusal(simple)?.hasPrefix("bad mnemonic: bytes 16-19 are 58 2d 44 42") == true)
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func unsupportedFormats() throws {
        var simple = try bytes(Fixture.shared("js-simple.realm"))
        for format: UInt8 in [1, 25, 40] {
            simple[20] = format
            #expect(
                try refusal(simple) == "file format \(format) is not supported: Porter reads formats 2–11 and 20–24")
        }
        simple[20] = 15
        #expect(
            try refusal(simple)
                == "file format 15 is not supported: no released realm-core wrote it (the formats are 2–11 and 20–24); the file is damaged or not a Realm file"
        )
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func refsOutOfBoundsNameTheClass()
        throws
    {
        var simple = try bytes(Fixture.shared("js-simple.realm"))
        let file = try RealmFile(path: Fixture.shared("js-simple.realm"))
        let topRef = try FileHeader(file.mem).topRef
        let tablesRef = try file.mem.array(topRef, minimum: 3, "top").ref(1)
        let tables = try file.mem.array(tablesRef, minimum: 1, "tables")
        let personIndex = try #require((0..<tables.count).last { tables.int($0) & 1 == 0 && tables.int($0) != 0 })
        let personTop = tables.int(personIndex)
        let (offset, width) = slotOffset(simple, personTop, 2)
        patch(&simple, at: offset, 0x7FFF_FFF8 & (width == 4 ? 0x7FFF_FFF8 : 0x7FF8), count: width)
        let message = try #require(try refusal(simple))
        #expect(message.hasPrefix("Person: ref 0x"))
        #expect(
            message.hasSuffix(
                "is outside the file (size 16384); the file may have changed while reading: copy it with the app closed"
            ))
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func topRefOutsideTheFile() throws {
        var simple = try bytes(Fixture.shared("js-simple.realm"))
        patch(&simple, at: 0, 0x4000, count: 8)
        #expect(
            try refusal(simple)
                == "expected at least 16392 bytes, the file has 16384: the copy was cut short — copy it again with the app closed"
        )
        patch(&simple, at: 0, 0x1004, count: 8)
        #expect(try refusal(simple) == "the top ref 0x1004 is not 8-aligned")
    }

    @Test func cyclesAndAbsurdSizes() throws {
        var many = try bytes(Fixture.own("inner-nodes.realm"))
        let file = try RealmFile(path: Fixture.own("inner-nodes.realm"))
        let root = try file.info(try #require(file.table(named: "Many"))).clusterRoot
        #expect(many[Int(root) + 4] & 0x80 != 0, "the fixture's cluster root is an inner node")
        // A child pointing back at the root: a cycle.
        var cyclic = many
        let (child, width) = slotOffset(cyclic, root, 4)
        patch(&cyclic, at: child, root, count: width)
        #expect(try refusal(cyclic) == "Many: the node at \(hex(root)) is reached twice (a cycle or shared subtree)")
        // A size field far beyond the file.
        many[Int(root) + 5] = 0xFF; many[Int(root) + 6] = 0xFF; many[Int(root) + 7] = 0xFF
        let message = try #require(try refusal(many))
        #expect(message.hasPrefix("Many: the node at \(hex(root)) claims 16777215 elements"))
    }

    @Test func runawayDepthIsRefused() throws {
        let builder = NodeBuilder()
        var ref = builder.ints([0])  // a leaf
        for _ in 0..<70 { ref = builder.ints([1, ref, 3], inner: true, hasRefs: true) }
        builder.withMem { mem in
            #expect(throws: RealmFault.self) { try mem.forEachBPlusLeaf(ref) { _ in } }
            do { try mem.forEachBPlusLeaf(ref) { _ in } } catch {
                #expect("\(error)".contains("nests deeper than 64 levels"))
            }
        }
    }

    @Test func chainedBlobsConcatenate() throws {
        // A string over 16 MB is a chain of blobs (context flag on the blob list); built by hand
        // because such a file is too large to commit.
        let builder = NodeBuilder()
        let chunk1 = builder.blob(Array("hello, ".utf8))
        let chunk2 = builder.blob(Array("chained world\0".utf8))
        let chain = builder.ints([chunk1, chunk2], hasRefs: true, context: true)
        let single = builder.blob(Array("small\0".utf8))
        let list = builder.ints([chain, 0, single], hasRefs: true, context: true)
        try builder.withMem { mem in
            let leaf = try StringLeaf(mem, ref: list)
            #expect(leaf.count == 3)
            #expect(try leaf.string(0, mem) == "hello, chained world")
            #expect(try leaf.string(1, mem) == nil)
            #expect(try leaf.string(2, mem) == "small")
            #expect(try leaf.data(0, mem) == Data("hello, chained world\0".utf8))
        }
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func wrongKeyAndTruncatedEncryptedFile() throws {
        var key = Fixture.devKey
        key[0] ^= 0xFF
        let encrypted = try bytes(Fixture.shared("dev-encrypted-realm-docs.realm"))
        #expect(try refusal(encrypted, key: key) == "decryption failed: wrong key, or the file is corrupt")
        #expect(
            try refusal(Array(encrypted.prefix(4096 + 100)), key: Fixture.devKey)
                == "decryption failed: wrong key, or the file is corrupt")
        var flipped = encrypted
        flipped[4096 + 10] ^= 1
        #expect(try refusal(flipped, key: Fixture.devKey) == "decryption failed: wrong key, or the file is corrupt")
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func checkFindsNothingInGoodFiles()
        throws
    {
        for path in [
            Fixture.own("every-type.realm"), Fixture.own("inner-nodes.realm"), Fixture.shared("core-upgrade-20.realm"),
            Fixture.shared("core-upgrade-1000-22.realm"), Fixture.shared("core-upgrade-1000-23.realm"),
            Fixture.shared("swift-migration-default-v5.realm"), Fixture.shared("js-simple.realm"),
            Fixture.shared("js-bundled.realm"),
            Fixture.shared("core-sync-client-history-011.realm"),
        ] {
            #expect(try RealmFile(path: path).check() == [], "\(path)")
        }
    }

    @Test func checkReportsDamage() throws {
        let folder = try TemporaryFolder("refusal-tests")
        var many = try bytes(Fixture.own("inner-nodes.realm"))
        let file = try RealmFile(path: Fixture.own("inner-nodes.realm"))
        let root = try file.info(try #require(file.table(named: "Many"))).clusterRoot
        // The inner root's recorded size (slot 2, tagged) no longer matches its children.
        let (offset, width) = slotOffset(many, root, 2)
        patch(&many, at: offset, 999 << 1 | 1, count: width)
        let path = try folder.write("damaged.realm", many)
        let problems = try RealmFile(path: path).check()
        #expect(
            problems == ["Many: the inner cluster node at \(hex(root)) records 999 objects but its children hold 1000"])
    }
}
