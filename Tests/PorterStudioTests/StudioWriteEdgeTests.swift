import ArgumentParser
import Foundation
import PorterModel
import PorterRealmFile
import PorterStore
import PorterTestSupport
import Testing

@testable import PorterCommands
@testable import PorterStudio

/// Edges of `porter studio --write`: a commit of nothing but failed edits, `--backup` where it
/// does not apply.
@Suite struct StudioWriteEdgeTests {
    typealias S = StudioServerTests
    typealias R = StudioRealmWriteTests

    @Test func aCommitOfOnlyFailedEditsIsNoUnsavedCommit() async throws {
        let folder = try TemporaryFolder("studio-edges")
        let path = try R.makeRealm(folder)
        let copy = try R.copy(path)
        defer { copy.remove() }
        try await S.serving(StudioServer(realmCopy: copy, token: "t0k")) { client in
            let bob = try await R.bob(client)
            _ = try await R.post(client, "/api/write/begin")
            let (badType, _) = try await R.post(
                client, "/api/classes/Person/objects/\(bob)/set", #"{"property": "age", "value": "old"}"#)
            #expect(badType == 400)
            let (duplicate, _) = try await R.post(
                client, "/api/classes/Person/create", #"{"values": {"name": "Ann", "age": "1"}}"#)
            #expect(duplicate == 400)
            let (_, committed) = try await R.post(client, "/api/write/commit")
            #expect(committed["unsaved"]?.int64Value == 0)
            // An empty transaction neither; one good edit among failed ones counts.
            _ = try await R.post(client, "/api/write/begin")
            #expect(try await R.post(client, "/api/write/commit").1["unsaved"]?.int64Value == 0)
            _ = try await R.post(client, "/api/write/begin")
            _ = try await R.post(
                client, "/api/classes/Person/objects/\(bob)/set", #"{"property": "age", "value": "old"}"#)
            let (good, _) = try await R.post(
                client, "/api/classes/Person/objects/\(bob)/set", #"{"property": "age", "value": "30"}"#)
            #expect(good == 200)
            #expect(try await R.post(client, "/api/write/commit").1["unsaved"]?.int64Value == 1)
            // A cancelled transaction's edits are gone: its flag does not reach the next commit.
            _ = try await R.post(client, "/api/write/begin")
            _ = try await R.post(
                client, "/api/classes/Person/objects/\(bob)/set", #"{"property": "age", "value": "31"}"#)
            _ = try await R.post(client, "/api/write/cancel")
            _ = try await R.post(client, "/api/write/begin")
            #expect(try await R.post(client, "/api/write/commit").1["unsaved"]?.int64Value == 1)
        }
    }

    @Test func backupOnAPorterDatabaseIsAnArgumentError() throws {
        let folder = try TemporaryFolder("studio-edges")
        let path = try S.makeDatabase(at: folder.path("people.porter"))
        let backup = folder.path("before.porter")
        do {
            _ = try StudioCommand.parse([path, "--write", "--backup", backup])
            Issue.record("--backup on a Porter database was accepted")
        } catch {
            #expect(StudioCommand.exitCode(for: error).rawValue == 64)
            #expect(
                StudioCommand.message(for: error)
                    == "--backup applies to a Realm file: a Porter database's changes are saved by Commit (\(path))")
        }
        #expect(!FileManager.default.fileExists(atPath: backup))
        // On a Realm file it is accepted.
        let realm = try R.makeRealm(folder)
        #expect(throws: Never.self) { _ = try StudioCommand.parse([realm, "--write", "--backup", backup]) }
    }
}
