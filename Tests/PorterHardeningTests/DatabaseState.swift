import Foundation
import Porter
import PorterTestSupport

/// What a database holds, as one comparable value: the digest of a plain-JSON export (schema
/// and every object, exact to the nanosecond), after checking that the file is sound.
enum DatabaseState {
    /// Why a file failed verification.
    struct Unsound: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens the file as a user would (read-write, so a WAL left by a killed process is
    /// recovered), requires SQLite's integrity check and Porter's consistency check to pass, and
    /// returns the digest of its export.
    static func verify(_ path: String) throws -> String {
        let db = try Database.open(at: path)
        let integrity = try db.sqliteIntegrityCheck()
        guard integrity.isEmpty else {
            throw Unsound(description: "integrity_check: \(integrity.joined(separator: "; "))")
        }
        let problems = try db.checkConsistency()
        guard problems.isEmpty else {
            throw Unsound(description: "checkConsistency: \(problems.joined(separator: "; "))")
        }
        return try digest(db)
    }

    /// The SHA-256 of the plain-JSON export of every top-level class plus the schema, plus the
    /// migration history (which an export does not carry).
    static func digest(_ db: Database) throws -> String {
        let dir = try TemporaryFolder("digest")
        _ = try Exporter(database: db, format: JSONFormat()).export(toDirectory: dir.path("out"))
        var bytes: [UInt8] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).sorted() {
            bytes += Array(name.utf8) + [0]
            bytes += Array(try Data(contentsOf: URL(fileURLWithPath: dir.path("out/\(name)")))) + [0]
        }
        for entry in try db.history() {
            bytes += Array("\(entry.fromVersion)->\(entry.toVersion) \(entry.planChecksum ?? "")\n".utf8)
        }
        return SHA256.hex(bytes)
    }

    /// The digest of a file without the soundness checks (for states produced by undisturbed runs).
    static func digest(at path: String) throws -> String {
        try digest(Database.open(at: path, readOnly: true))
    }
}

/// Deterministic pseudo-random numbers for kill moments (SplitMix64, PorterTestSupport).
extension SeededGenerator {
    /// A number in `0..<upper`.
    mutating func unit(_ upper: Double) -> Double { Double(next() >> 11) / Double(1 << 53) * upper }
}
