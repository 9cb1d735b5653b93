import Foundation

/// The private PostgreSQL server `make test` starts (`scripts/postgres-server.sh`: its own data
/// folder and Unix socket, no TCP), found through `PORTER_TEST_POSTGRES` (the server's folder).
/// Tests that need it are skipped with ``missing`` when it is not there (`swift test` alone).
public enum PostgresServer {
    /// The server's folder, when `make test` (or `make test-postgres`) started one.
    public static let folder: String? = {
        guard let folder = ProcessInfo.processInfo.environment["PORTER_TEST_POSTGRES"], !folder.isEmpty,
            FileManager.default.fileExists(atPath: folder + "/socket")
        else { return nil }
        return folder
    }()
    /// Whether a server is there.
    public static let available = folder != nil
    /// Why a test needing the server was skipped.
    public static let missing =
        "skipped: no PostgreSQL server (PORTER_TEST_POSTGRES is unset; `make test` or `make test-postgres` starts one)"

    /// The folder of the server's Unix socket.
    public static var socket: String { (folder ?? "/nonexistent") + "/socket" }

    /// The libpq URL of `database` on the server (user `porter`, through the socket).
    public static func url(_ database: String) -> String { "postgresql://porter@/\(database)?host=\(socket)" }

    /// Creates a new, empty database with a unique name and returns its name.
    public static func createDatabase(_ label: String = "t") throws -> String {
        let name = "porter_\(label)_\(UUID().uuidString.prefix(8).lowercased())"
        let run = try psql("CREATE DATABASE \(name)", database: "postgres")
        guard run.status == 0 else { throw PostgresError(message: run.stderr) }
        return name
    }

    /// Drops a database made by ``createDatabase(_:)``.
    public static func dropDatabase(_ name: String) {
        _ = try? psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", database: "postgres")
    }

    /// A failed psql call.
    public struct PostgresError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// What psql printed and returned.
    public struct Run: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `psql -X -At -v ON_ERROR_STOP=1` on `database` with `-c sql`, or `-f file` when
    /// `file` is given (UTC time zone).
    public static func psql(_ sql: String? = nil, file: String? = nil, database: String) throws -> Run {
        try run(
            "psql",
            ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", socket, "-U", "porter", "-d", database]
                + (sql.map { ["-c", $0] } ?? []) + (file.map { ["-f", $0] } ?? []))
    }

    /// One value (the first line) of a query.
    public static func value(_ sql: String, database: String) throws -> String {
        let run = try psql(sql, database: database)
        guard run.status == 0 else { throw PostgresError(message: run.stderr) }
        return run.stdout.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    /// Runs a command found on `PATH` with the server's time zone set to UTC.
    public static func run(_ command: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PGTZ": "UTC", "PGOPTIONS": "-c TimeZone=UTC",
        ]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
