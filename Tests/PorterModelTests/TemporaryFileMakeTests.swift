import Foundation
import PorterTestSupport
import Testing

@testable import PorterModel

/// A temporary file beside the user's file is made and registered in one step: the registry
/// never names a file that does not exist yet (it used to be registered first, so a signal's
/// cleanup between the two removed nothing and the file made after it was left behind).
@Suite struct TemporaryFileMakeTests {
    @Test func theFileExistsAsSoonAsItIsRegisteredAndGoesWithIt() throws {
        let folder = try TemporaryFolder("make-file")
        let target = folder.path("app.realm")
        let (path, fd) = try TemporaryFiles.makeFile(beside: target)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(TemporaryFiles.isRegistered(path))
        #expect(URL(fileURLWithPath: path).lastPathComponent.hasPrefix(".app.realm.porter-\(getpid())-"))
        #expect(write(fd, "x", 1) == 1)
        close(fd)
        // Each call makes a new file.
        let (other, fd2) = try TemporaryFiles.makeFile(beside: target, sideFiles: true)
        close(fd2)
        #expect(other != path && FileManager.default.fileExists(atPath: other))
        TemporaryFiles.remove(path)
        TemporaryFiles.remove(other, sideFiles: true)
        #expect(!TemporaryFiles.isRegistered(path) && !TemporaryFiles.isRegistered(other))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aFileThatCannotBeMadeIsNotRegistered() throws {
        let folder = try TemporaryFolder("make-file")
        let error = try #require(throws: PorterError.self) {
            try TemporaryFiles.makeFile(beside: folder.path("missing/app.porter"))
        }
        #expect(error.message.contains("cannot create file"), "\(error.message)")
        let name = try #require(error.location)
        #expect(!TemporaryFiles.isRegistered(name))
        #expect(!FileManager.default.fileExists(atPath: name))
    }
}
