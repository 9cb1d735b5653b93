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

    /// Polls `query` on the maintenance database until it returns something other than `0`:
    /// true, or false after 15 seconds.
    public static func waitFor(_ query: String) throws -> Bool {
        for _ in 0..<300 {
            if try value(query, database: "postgres") != "0" { return true }
            usleep(50_000)
        }
        return false
    }

    /// Polls `query` on the maintenance database until it returns `0` (at most 15 seconds).
    public static func waitForNone(_ query: String) throws {
        for _ in 0..<300 {
            if try value(query, database: "postgres") == "0" { return }
            usleep(50_000)
        }
    }

    /// Another session holding `table` of `database` in ACCESS EXCLUSIVE mode (for 120 s at
    /// most), started and holding the lock when this returns: what reads or drops the table
    /// waits, deterministically, until the test ends that session (`pg_terminate_backend`).
    public static func lockTable(_ table: String, database: String) throws -> Process {
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        locker.arguments = [
            "psql", "-X", "-q", "-h", socket, "-U", "porter", "-d", database, "-c",
            "BEGIN; LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT",
        ]
        locker.standardOutput = FileHandle.nullDevice
        locker.standardError = FileHandle.nullDevice
        try locker.run()
        let held = try waitFor(
            "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = '\(database)' AND l.mode = 'AccessExclusiveLock' AND l.granted"
        )
        guard held else {
            locker.terminate()
            throw PostgresError(message: "the lock on \(table) was never granted")
        }
        return locker
    }

    /// Ends every other session of `database`.
    public static func endSessions(_ database: String) throws {
        _ = try psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()",
            database: "postgres")
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
