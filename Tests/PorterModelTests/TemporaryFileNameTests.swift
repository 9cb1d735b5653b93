import Foundation
import Testing

@testable import PorterModel

/// Which names the sweep of killed runs' leftovers takes for Porter's own: only `PREFIX-PID-…`
/// with a dead PID, never a name that merely starts with digits (a test folder named by a UUID
/// beginning with digits was removed under a running test).
@Suite struct TemporaryFileNameTests {
    @Test func thePIDIsDigitsFollowedByADash() {
        #expect(TemporaryFiles.pid(in: "porter-realm-1234-5", after: "porter-realm-") == 1234)
        #expect(TemporaryFiles.pid(in: ".a.realm.porter-77-1-9.tmp", after: ".a.realm.porter-") == 77)
        #expect(TemporaryFiles.pid(in: "porter-realm-1234ABCD-EF01", after: "porter-realm-") == nil)
        #expect(TemporaryFiles.pid(in: "porter-realm-1234", after: "porter-realm-") == nil)
        #expect(TemporaryFiles.pid(in: "porter-realm-", after: "porter-realm-") == nil)
        #expect(TemporaryFiles.pid(in: "porter-realm-ABCD-1", after: "porter-realm-") == nil)
    }

    @Test func theSweepRemovesOnlyFoldersOfDeadPorterRuns() throws {
        // 99999999 is above every system's pid_max: a dead PID.
        let tag = UUID().uuidString.prefix(8)
        let names = [
            "porter-realm-99999999-\(tag)", "porter-realm-99999999\(tag)-x", "porter-realm-\(getpid())-\(tag)",
        ]
        let paths = names.map { NSTemporaryDirectory() + "/" + $0 }
        for path in paths { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        TemporaryFiles.sweepTemporaryFolder()
        #expect(!FileManager.default.fileExists(atPath: paths[0]), "a dead run's folder is removed")
        #expect(FileManager.default.fileExists(atPath: paths[1]), "a name that only starts with digits is kept")
        #expect(FileManager.default.fileExists(atPath: paths[2]), "a live run's folder is kept")
    }
}
