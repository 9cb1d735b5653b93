import PorterCSQLite
import Foundation
import PorterModel

/// Brings files of an older Porter file format up to ``Database/fileFormatVersion`` when they are
/// opened for writing (read-only opens read every older encoding as it is and change nothing).
///
/// - Format 1 → 2: dates were INTEGER microseconds (in `mixed` cells an 8-byte payload); they
///   become the 12-byte sortable seconds + nanoseconds blob, so a column never mixes encodings
///   (SQLite orders every INTEGER before every BLOB, and set lookups compare stored bytes).
extension Database {
    /// The name of the SQL function the upgrade registers for the duration of the conversion.
    private static let upgradeFunction = "porter_upgrade_date_v1"

    /// Converts every format-1 date of `schema`'s tables in one transaction, then records format 2.
    static func upgradeFormat(_ connection: SQLiteConnection, schema: Schema, from format: Int64) throws {
        guard format < fileFormatVersion else { return }
        let registered = sqlite3_create_function_v2(
            connection.handle, upgradeFunction, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
            nil, upgradeDateValue, nil, nil, nil)
        guard registered == SQLITE_OK else {
            throw PorterError(
                .sqlite, "cannot upgrade the file format: \(String(cString: sqlite3_errmsg(connection.handle)))",
                location: connection.path)
        }
        defer {
            sqlite3_create_function_v2(connection.handle, upgradeFunction, 1, SQLITE_UTF8, nil, nil, nil, nil, nil)
        }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            for cls in schema.classes {
                for property in cls.persistedProperties where property.type == .date || property.type == .mixed {
                    let (table, column) =
                        property.isCollection
                        ? (StorageLayout.collectionTable(cls.name, property.name), "value")
                        : (StorageLayout.table(cls.name), property.name)
                    let c = quoteIdentifier(column)
                    let legacy =
                        property.type == .date
                        ? "typeof(\(c)) = 'integer'"
                        : "typeof(\(c)) = 'blob' AND length(\(c)) = 9 AND substr(\(c), 1, 1) = x'04'"
                    try connection.execute(
                        "UPDATE \(quoteIdentifier(table)) SET \(c) = \(upgradeFunction)(\(c)) WHERE \(legacy)")
                }
            }
            try connection.execute("PRAGMA user_version=\(fileFormatVersion)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}

/// The SQL function body: INTEGER microseconds → date blob; an old tagged 9-byte `mixed` date →
/// tagged 13-byte date; anything else unchanged.
private func upgradeDateValue(_ context: OpaquePointer?, _ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let value = argv?[0] else { return sqlite3_result_null(context) }
    var bytes: [UInt8]
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
        bytes = StorageCodec.dateBytes(Timestamp(microseconds: sqlite3_value_int64(value)))
    case SQLITE_BLOB where sqlite3_value_bytes(value) == 9:
        let raw = UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: 9)
        guard raw[0] == StorageCodec.MixedTag.date.rawValue else { return sqlite3_result_value(context, value) }
        bytes =
            [raw[0]]
            + StorageCodec.dateBytes(Timestamp(microseconds: Int64(bitPattern: readBigEndian(raw.dropFirst()))))
    default:
        return sqlite3_result_value(context, value)
    }
    bytes.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT) }
}
