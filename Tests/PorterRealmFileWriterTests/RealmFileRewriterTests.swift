import Foundation
import PorterTestSupport
import PorterModel
import Testing
@testable import PorterRealmFile

/// The column-by-column rewriter on its own: a rewrite that copies every column gives back the
/// same objects under the same keys; what it cannot express is refused before anything is
/// written; a damaged source is refused, not copied.
@Suite struct RealmFileRewriterTests {
    static let written = RealmFileWriterGoldenTests.directory
    static let realm = written.deletingLastPathComponent()

    /// Goldens of the writer, realm-core-made files, and real files of formats 22 and 23 (sets
    /// re-sorted, 22's dictionaries re-encoded, backlink lists made B+trees, indexes rebuilt).
    static let copyable = [
        "shared/core-upgrade-1000-22", "shared/core-upgrade-1000-23", "shared/js-simple", "shared/js-bundled",
        "written/flat-pk-int", "written/flat-no-pk", "written/pk-string-indexed", "written/pk-objectid",
        "written/pk-uuid",
        "written/many-objects", "written/links", "written/strings-and-blobs", "written/decimals", "written/empty",
        "written/collections", "written/mixed-links", "written/indexed-mixed",
        "inner-nodes", "every-type", "column-migration/column-migration",
    ]

    /// Every class, every property copied as it is.
    static func identity(_ file: RealmFile) -> [String: RealmClassRewrite] {
        Dictionary(
            uniqueKeysWithValues: file.tables.map { table in
                (
                    table.name,
                    RealmClassRewrite(
                        sourceClass: table.name,
                        columns: Dictionary(
                            uniqueKeysWithValues: table.properties
                                .filter { $0.type != .linkingObjects }.map {
                                    ($0.name, RealmColumnSource.copy($0.name))
                                }))
                )
            })
    }

    /// Every object of every class as the reader gives it, with its key.
    static func objects(_ file: RealmFile) throws -> [String: [RealmObject]] {
        var out: [String: [RealmObject]] = [:]
        for table in file.tables {
            var objects: [RealmObject] = []
            try file.forEachObject(in: table) { objects.append($0) }
            out[table.name] = objects
        }
        return out
    }

    /// A value's description with set elements and dictionary entries sorted.
    static func orderFree(_ value: RealmValue) -> String {
        switch value {
        case .list(let items): return "[" + items.map(orderFree).joined(separator: ", ") + "]"
        case .set(let items): return "<" + items.map(orderFree).sorted().joined(separator: ", ") + ">"
        case .dictionary(let entries):
            return "{" + entries.map { "\($0.key): \(orderFree($0.value))" }.sorted().joined(separator: ", ") + "}"
        case .embedded(let className, let key, let values):
            return "\(className)[\(key)]{" + values.map(orderFree).joined(separator: ", ") + "}"
        default: return "\(value)"
        }
    }

    static func rewrite(_ source: RealmFile, to path: String, key: [UInt8]? = nil) throws {
        let schema = source.schema
        try RealmFileRewriter(schema: schema, schemaVersion: schema.version).write(
            to: path, from: source, classes: identity(source), encryptionKey: key)
    }

    @Test(arguments: copyable.filter { !$0.hasPrefix("shared/") })
    func copyKeepsObjectsAndKeys(_ name: String) throws { try Self.expectCopyKeepsObjectsAndKeys(name) }

    /// The shared files apart, so that where `../shared` is absent they are reported as skipped.
    @Test(
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: copyable.filter { $0.hasPrefix("shared/") })
    func copyOfASharedFileKeepsObjectsAndKeys(_ name: String) throws { try Self.expectCopyKeepsObjectsAndKeys(name) }

    static func expectCopyKeepsObjectsAndKeys(_ name: String) throws {
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let source = try RealmFile(path: SharedRealmFiles.resolve("\(name).realm", in: Self.realm))
        let out = dir.appendingPathComponent("out.realm").path
        try Self.rewrite(source, to: out)
        let copy = try RealmFile(path: out)
        _ = try copy.check()
        #expect(copy.fileFormat == 24)
        #expect(copy.schema == source.schema)
        #expect(copy.schemaVersion == source.schemaVersion ?? 0)
        #expect(copy.backlinks.count == source.backlinks.count)
        let a = try Self.objects(source), b = try Self.objects(copy)
        #expect(a.keys.sorted() == b.keys.sorted())
        for className in a.keys.sorted() {
            // Described, not compared (a NaN is not equal to itself); sets and dictionaries in
            // their order-free form (formats 22 and 23 keep other orders than 24).
            let before = (a[className] ?? []).map {
                "\($0.key) " + $0.values.map(Self.orderFree).joined(separator: ", ")
            }
            let after = (b[className] ?? []).map {
                "\($0.key) " + $0.values.map(Self.orderFree).joined(separator: ", ")
            }
            #expect(before == after, "\(name): \(className) differs after a copy")
        }
        // Deterministic: the same source gives the same bytes.
        let again = dir.appendingPathComponent("again.realm").path
        try Self.rewrite(source, to: again)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: again)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["again.realm", "out.realm"])
    }

    @Test func encryptedInEncryptedOut() throws {
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let key = RealmFileWriterGoldenTests.key
        let source = try RealmFile(
            path: Self.written.appendingPathComponent("links-encrypted.realm").path, encryptionKey: key)
        let out = dir.appendingPathComponent("out.realm").path
        try Self.rewrite(source, to: out, key: key)
        #expect(throws: PorterError.self) { try RealmFile(path: out) }
        let copy = try RealmFile(path: out, encryptionKey: key)
        #expect(try Self.objects(copy) == Self.objects(source))
    }

    /// What a column copy cannot express: refused, nothing written.
    @Test(
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: [
            ("shared/swift-migration-default-v5", "file format 20"), ("shared/core-upgrade-20", "file format 20"),
        ])
    func refusesWhatItCannotCopy(_ name: String, _ reason: String) throws {
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let source = try RealmFile(path: SharedRealmFiles.resolve("\(name).realm", in: Self.realm))
        let error = try #require(throws: RealmRewriteUnsupported.self) {
            try Self.rewrite(source, to: dir.appendingPathComponent("out.realm").path)
        }
        #expect(error.reason.contains(reason), "\(error.reason)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func refusesALinkToAnotherClassThanItsSource() throws {
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let source = try RealmFile(path: Self.written.appendingPathComponent("links.realm").path)
        var classes = Self.identity(source)
        // P's `dog` links to D; taking P's `self` (a link to P) for it is a link to another class.
        classes["P"]!.columns["dog"] = .copy("self")
        let error = try #require(throws: RealmRewriteUnsupported.self) {
            try RealmFileRewriter(schema: source.schema, schemaVersion: 1).write(
                to: dir.appendingPathComponent("out.realm").path, from: source, classes: classes)
        }
        #expect(error.reason.contains("P.dog"), "\(error.reason)")
    }

    /// A list column whose collection node refers to itself twice: the copy stops at the depth
    /// limit (or the byte budget) with a one-line error; no file is left.
    @Test func refusesACyclicSubtree() throws {
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let original = Self.realm.appendingPathComponent("column-migration/column-migration.realm").path
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        // The first cluster's `Person.friends` leaf (one ref per object to its list): its two
        // first slots become its own ref.
        let file = try RealmFile(path: original)
        let info = try file.info(file.table(named: "Person")!)
        let friends = info.columns.first { $0.name == "friends" }!
        var target: Int64 = 0
        try file.mem.forEachClusterLeaf(info.clusterRoot) { leaf in
            if target == 0 { target = try leaf.columnRef(friends.leafIndex) }
        }
        let node = try file.mem.node(target)
        try #require(node.hasRefs && node.count >= 2 && node.width >= 32)
        for slot in 0..<2 {
            let offset = Int(target) + 8 + slot * node.width / 8
            for b in 0..<(node.width / 8) { bytes[offset + b] = UInt8(truncatingIfNeeded: target >> (8 * Int64(b))) }
        }
        let damaged = dir.appendingPathComponent("damaged.realm").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let source = try RealmFile(path: damaged)
        let out = dir.appendingPathComponent("out.realm").path
        let error = try #require(throws: PorterError.self) { try Self.rewrite(source, to: out) }
        #expect(error.message.contains("deeper than") || error.message.contains("more than once"), "\(error.message)")
        #expect(!error.message.contains("\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["damaged.realm"])
    }
}
