import Foundation
import PorterModel
import PorterRealm
import PorterRealmFile
import PorterStore
import PorterTestSupport
import Testing

@testable import PorterCommands
@testable import PorterStudio

/// `porter studio --write` on a Realm file: edits in a working copy, Save writes the file
/// atomically under its writer lock, refuses a file another writer changed, keeps a backup.
@Suite struct StudioRealmWriteTests {
    typealias S = StudioServerTests

    /// A Realm file of ``StudioServerTests/makeDatabase(at:)``'s objects (encrypted with `key`).
    static func makeRealm(_ folder: TemporaryFolder, key: [UInt8]? = nil, fileFormat: Int = 24) throws -> String {
        let db = try Database.open(at: S.makeDatabase(at: folder.path("source.porter")))
        let path = folder.path("people.realm")
        try RealmFileOutput.write(db, to: path, encryptionKey: key, fileFormat: fileFormat)
        return path
    }

    /// The command's lock: `RealmFileLock` on `FILE.lock`, not waiting.
    static func lock(_ path: String) -> StudioRealmCopy.Lock {
        {
            let lock = try RealmFileLock(realmFile: path, wait: 0)
            return { lock.release() }
        }
    }

    static func copy(_ path: String, key: [UInt8]? = nil, backup: String? = nil) throws -> StudioRealmCopy {
        try StudioRealmCopy(path: path, encryptionKey: key, backup: backup, lock: lock(path))
    }

    /// Person objects of the Realm file as the native reader reads them: name → age.
    static func ages(_ path: String, key: [UInt8]? = nil) throws -> [String: Int64] {
        let file = try RealmFile(path: path, encryptionKey: key)
        let table = try #require(file.table(named: "Person"))
        let name = try #require(table.properties.firstIndex { $0.name == "name" })
        let age = try #require(table.properties.firstIndex { $0.name == "age" })
        var out: [String: Int64] = [:]
        try file.forEachObject(in: table) { object in
            if case .string(let n) = object.values[name], case .int(let a) = object.values[age] { out[n] = a }
        }
        return out
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func post(_ client: String, _ uri: String, _ body: String = "{}") async throws -> (Int, JSONValue) {
        try await S.call(client, uri, method: "POST", body: body)
    }

    /// Bob's key in the working copy (the youngest person).
    static func bob(_ client: String) async throws -> Int64 {
        let (_, people) = try await S.call(client, "/api/classes/Person/objects?sort=age")
        return people["objects"]?[0]?["key"]?.int64Value ?? -1
    }

    @Test func editCommitSaveWritesTheRealmFileWithABackup() async throws {
        let folder = try TemporaryFolder("studio-realm")
        let path = try Self.makeRealm(folder)
        chmod(path, 0o600)
        let original = try Self.bytes(path)
        let backup = folder.path("people.before.realm")
        let copy = try Self.copy(path, backup: backup)
        let workingFolder = try #require(copy.workingFolder)
        #expect(FileManager.default.fileExists(atPath: workingFolder))
        try await S.serving(StudioServer(realmCopy: copy, token: "t0k")) { client in
            let (_, info) = try await S.call(client, "/api/info")
            #expect(info["kind"]?.stringValue == "realm")
            #expect(info["path"]?.stringValue == path)
            #expect(info["writable"]?.boolValue == true)
            #expect(info["workingCopy"]?.boolValue == true)
            #expect(info["fileFormat"]?.int64Value == 24)
            let (_, state) = try await S.call(client, "/api/write")
            #expect(state["realmFile"]?.boolValue == true)
            #expect(state["unsaved"]?.int64Value == 0)
            #expect(state["backup"]?.stringValue == backup)
            let bob = try await Self.bob(client)
            _ = try await Self.post(client, "/api/write/begin")
            let (set, _) = try await Self.post(
                client, "/api/classes/Person/objects/\(bob)/set", #"{"property": "age", "value": "30"}"#)
            #expect(set == 200)
            let (created, _) = try await Self.post(
                client, "/api/classes/Person/create", #"{"values": {"name": "Dan", "age": "5"}}"#)
            #expect(created == 200)
            // Save inside the open transaction: refused, nothing written.
            let (open, openError) = try await Self.post(client, "/api/write/save")
            #expect(open == 409)
            #expect(openError["error"]?.stringValue == "commit or cancel the write transaction before saving")
            let (_, committed) = try await Self.post(client, "/api/write/commit")
            #expect(committed["unsaved"]?.int64Value == 1)
            // Committed to the working copy only: the Realm file is untouched until Save.
            #expect(try Self.bytes(path) == original)
            #expect(!FileManager.default.fileExists(atPath: backup))
            let (saved, afterSave) = try await Self.post(client, "/api/write/save")
            #expect(saved == 200, "\(afterSave)")
            #expect(afterSave["unsaved"]?.int64Value == 0)
            #expect(afterSave["saves"]?.int64Value == 1)
            #expect(try Self.ages(path) == ["Ann": 41, "Bob": 30, "Cid": 35, "Dan": 5])
            #expect(try Self.bytes(backup) == original)
            var mode = stat()
            stat(path, &mode)
            #expect(mode.st_mode & 0o777 == 0o600)
            // A second Save writes the file again; the backup keeps the file as it was at the start.
            let dan = try await S.call(client, "/api/classes/Person/objects?query=name%20%3D%3D%20'Dan'")
            let danKey = dan.1["objects"]?[0]?["key"]?.int64Value ?? -1
            _ = try await Self.post(client, "/api/write/begin")
            let (deleted, _) = try await Self.post(client, "/api/classes/Person/objects/\(danKey)/delete")
            #expect(deleted == 200)
            _ = try await Self.post(client, "/api/write/commit")
            let (again, _) = try await Self.post(client, "/api/write/save")
            #expect(again == 200)
            #expect(try Self.ages(path) == ["Ann": 41, "Bob": 30, "Cid": 35])
            #expect(try Self.bytes(backup) == original)
            // The page polls the Realm file itself (no -wal of a Porter database beside it).
            let (_, file) = try await S.call(client, "/api/file")
            #expect(file["size"]?.int64Value == Int64(try Self.bytes(path).count))
        }
        // The whole file, read by the native reader: every class, the schema version kept.
        let file = try RealmFile(path: path)
        #expect(file.schemaVersion == 4)
        #expect(try file.table(named: "Dog").map { try file.objectCount(in: $0) } == 2)
        copy.remove()
        #expect(!FileManager.default.fileExists(atPath: workingFolder))
    }

    @Test func saveRefusesAFileAnotherWriterChanged() async throws {
        let folder = try TemporaryFolder("studio-realm")
        let path = try Self.makeRealm(folder)
        let copy = try Self.copy(path)
        defer { copy.remove() }
        try await S.serving(StudioServer(realmCopy: copy, token: "t0k")) { client in
            let bob = try await Self.bob(client)
            _ = try await Self.post(client, "/api/write/begin")
            _ = try await Self.post(
                client, "/api/classes/Person/objects/\(bob)/set", #"{"property": "age", "value": "30"}"#)
            _ = try await Self.post(client, "/api/write/commit")
            // Another writer replaces the file (as porter import does: a new file renamed over it).
            let other = try Database.open(at: folder.path("source.porter"))
            try other.write { _ = try other.create("Dog", ["name": .string("Max")]) }
            try RealmFileOutput.write(other, to: path)
            let theirs = try Self.bytes(path)
            let (status, body) = try await Self.post(client, "/api/write/save")
            #expect(status == 409)
            let message = body["error"]?.stringValue ?? ""
            #expect(message.hasPrefix("not saved: \(path) changed on disk since the studio read it"), "\(message)")
            #expect(!message.contains("\n"))
            #expect(try Self.bytes(path) == theirs)
            let (_, state) = try await S.call(client, "/api/write")
            #expect(state["unsaved"]?.int64Value == 1)
        }
        // A write in place (the same inode, a new modification time) is refused too.
        let second = try Self.copy(path)
        defer { second.remove() }
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(throws: StudioRequestError.self) { try second.save() }
    }

    @Test func saveWaitsForNoAppAndNoOtherWriter() async throws {
        let folder = try TemporaryFolder("studio-realm")
        let path = try Self.makeRealm(folder)
        let copy = try Self.copy(path)
        defer { copy.remove() }
        // The lock is not held between saves: an app may open the file meanwhile.
        let app = open(path + ".lock", O_RDWR)
        #expect(app >= 0)
        #expect(flock(app, LOCK_SH | LOCK_NB) == 0)
        // As realm-core's DB::open holds it: starting on a file an app has open is refused too.
        #expect(throws: PorterError.self) { _ = try Self.copy(path) }
        let before = try Self.bytes(path)
        try await S.serving(StudioServer(realmCopy: copy, token: "t0k")) { client in
            _ = try await Self.post(client, "/api/write/begin")
            _ = try await Self.post(client, "/api/classes/Dog/create", #"{"values": {"name": "Max"}}"#)
            _ = try await Self.post(client, "/api/write/commit")
            let (busy, body) = try await Self.post(client, "/api/write/save")
            #expect(busy == 409)
            #expect(body["error"]?.stringValue?.contains("is open in an app") == true, "\(body)")
            #expect(try Self.bytes(path) == before)
            close(app)
            let (saved, _) = try await Self.post(client, "/api/write/save")
            #expect(saved == 200)
        }
        let file = try RealmFile(path: path)
        #expect(try file.table(named: "Dog").map { try file.objectCount(in: $0) } == 3)
    }

    @Test func anEncryptedFileIsEditedInMemoryAndSavedWithItsKey() async throws {
        let folder = try TemporaryFolder("studio-realm")
        let key = (0..<64).map { UInt8($0 * 3 % 256) }
        let path = try Self.makeRealm(folder, key: key)
        let copy = try Self.copy(path, key: key)
        defer { copy.remove() }
        // Nothing decrypted on disk: the working copy lives in memory.
        #expect(copy.isInMemory)
        #expect(copy.workingFolder == nil)
        try await S.serving(StudioServer(realmCopy: copy, token: "t0k")) { client in
            let (_, info) = try await S.call(client, "/api/info")
            #expect(info["encrypted"]?.boolValue == true)
            let bob = try await Self.bob(client)
            _ = try await Self.post(client, "/api/write/begin")
            _ = try await Self.post(
                client, "/api/classes/Person/objects/\(bob)/set", #"{"property": "age", "value": "31"}"#)
            _ = try await Self.post(client, "/api/write/commit")
            let (saved, _) = try await Self.post(client, "/api/write/save")
            #expect(saved == 200)
        }
        #expect(try Self.ages(path, key: key)["Bob"] == 31)
        #expect(throws: PorterError.self) { _ = try RealmFile(path: path) }
    }

    @Test func saveKeepsTheFileFormat() async throws {
        let folder = try TemporaryFolder("studio-realm")
        let path = try Self.makeRealm(folder, fileFormat: 23)
        let copy = try Self.copy(path)
        defer { copy.remove() }
        try copy.database.write { _ = try copy.database.create("Dog", ["name": .string("Max")]) }
        copy.committed()
        try copy.save()
        let file = try RealmFile(path: path)
        #expect(file.fileFormat == 23)
        #expect(try file.table(named: "Dog").map { try file.objectCount(in: $0) } == 3)
    }

    @Test func refusedAtTheStart() throws {
        let folder = try TemporaryFolder("studio-realm")
        let path = try Self.makeRealm(folder)
        let existing = folder.path("exists.realm")
        FileManager.default.createFile(atPath: existing, contents: Data("keep".utf8))
        let error = #expect(throws: PorterError.self) { _ = try Self.copy(path, backup: existing) }
        #expect(error?.headline.contains("--backup does not overwrite a file") == true)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
        #expect(throws: PorterError.self) { _ = try Self.copy(folder.path("missing.realm")) }
    }

    @Test func saveIsRefusedOutsideARealmWorkingCopy() async throws {
        let folder = try TemporaryFolder("studio-realm")
        let porter = try S.makeDatabase(at: folder.path("people.porter"))
        let writable = StudioServer(file: .porter(try Database.open(at: porter)), writable: true, token: "t0k")
        try await S.serving(writable) { client in
            let (status, body) = try await Self.post(client, "/api/write/save")
            #expect(status == 400)
            #expect(body["error"]?.stringValue?.contains("a Porter database is saved by Commit") == true)
            let (_, state) = try await S.call(client, "/api/write")
            #expect(state["realmFile"] == nil)
        }
    }

    /// Read-only by default: a Realm file shown, queried and exported stays byte for byte as it
    /// was, and nothing is created beside it (no lock file).
    @Test func theReadOnlyDefaultLeavesTheRealmFileByteIdentical() async throws {
        let folder = try TemporaryFolder("studio-realm")
        let path = try Self.makeRealm(folder)
        let before = try Self.bytes(path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let app = StudioServer(file: .realm(try RealmFile(path: path)), writable: false, token: "t0k")
        try await S.serving(app) { client in
            #expect(try await S.call(client, "/api/info").0 == 200)
            #expect(try await S.call(client, "/api/classes/Person/objects?sort=age&query=age%20%3E%201").0 == 200)
            #expect(try await S.fetch(client, "/api/classes/Person/export?format=bson&token=t0k").0 == 200)
            let (begin, error) = try await Self.post(client, "/api/write/begin")
            #expect(begin == 400)
            #expect(error["error"]?.stringValue == "the studio is read-only: start it with --write to edit")
            #expect(try await Self.post(client, "/api/write/save").0 == 400)
        }
        #expect(try Self.bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listing.sorted())
    }
}
