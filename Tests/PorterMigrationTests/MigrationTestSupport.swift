import Foundation
import Testing
@testable import PorterMigration
@testable import PorterStore
import PorterDiff
import PorterModel

/// A schema from JSON class bodies.
func schema(_ version: UInt64, _ classes: String...) throws -> Schema {
    try Schema(jsonString: #"{"schemaVersion": \#(version), "classes": [\#(classes.joined(separator: ","))]}"#)
}

/// Creates a database with `schema`, fills it in one write, and closes it.
@discardableResult
func makeDatabase(_ path: String, _ schema: Schema, _ fill: (Database) throws -> Void = { _ in }) throws -> String {
    let db = try Database.create(at: path, schema: schema)
    try db.write { try fill(db) }
    return path
}

/// Opens a database read-only (its stored schema).
func reopen(_ path: String) throws -> Database { try Database.open(at: path, readOnly: true) }

/// The values of one property of every object of a class, in key order.
func column(_ path: String, _ className: String, _ property: String) throws -> [Value] {
    let db = try reopen(path)
    var out: [Value] = []
    try db.enumerate(className) { out.append($0[property] ?? .null) }
    return out
}

/// A checksum of a file's schema and every stored row of every class table, collection table
/// and the meta table (migration history is left out: it records the time). Two files with the
/// same checksum hold the same schema and data.
func dataChecksum(_ path: String) throws -> String {
    let db = try reopen(path)
    // FNV-1a over every value's bytes (with type tags and separators): fast even in debug builds.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }
    func mix(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { mix($0) } }
    try db.read {
        let list = try db.connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('_porter_history', 'sqlite_sequence') ORDER BY name"
        )
        var tables: [String] = []
        while try list.step() { tables.append(list.text(0)) }
        for table in tables {
            mix(Array("#\(table)".utf8))
            let rows = try db.connection.prepare("SELECT * FROM \(quoteIdentifier(table)) ORDER BY 1, 2")
            while try rows.step() {
                mix([0x1E])
                for i in 0..<rows.columnCount {
                    switch rows.value(i) {
                    case .null: mix([0])
                    case .integer(let v): mix([1]); mix(v)
                    case .real(let v): mix([2]); mix(Int64(bitPattern: v.bitPattern))
                    case .text(let v): mix([3]); mix(v.utf8); mix([0])
                    case .blob(let v): mix([4]); mix(Int64(v.count)); mix(v)
                    }
                }
            }
        }
    }
    return String(hash, radix: 16)
}

/// The bytes of a file.
func fileBytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

/// Migrates with the given pieces; shorthand for tests.
@discardableResult
func migrate(
    _ path: String, to schema: Schema, plans: [MigrationPlan] = [], renames: RenameSet = RenameSet(),
    options: MigrationOptions = MigrationOptions(), block: MigrationBlock? = nil
) throws -> MigrationReport {
    try Migrator.migrate(databaseAt: path, to: schema, plans: plans, renames: renames, options: options, block: block)
}

/// A thread-safe counter/flag box for migration blocks (which are `@Sendable`).
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}
