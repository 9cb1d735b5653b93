import Foundation
import PorterTestSupport

/// Runs the built `porter` executable as a child process, the way users and CI run it.
struct PorterBinary {
    /// What one run printed and returned.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Non-empty stderr lines.
        var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// The package root (two levels above this file's folder).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bundled fixtures folder.
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// The `porter` binary next to the test executable (PorterTestSupport's lookup).
    static func locate() throws -> URL { try PorterExecutable.locate() }

    /// Runs `porter args…` in `directory` with no standard input; `environment` entries replace
    /// the inherited variables of the same names.
    static func run(
        _ args: [String], in directory: URL? = nil, stdin: Data? = nil, environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = try locate()
        process.arguments = args
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

}
