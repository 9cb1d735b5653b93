import PorterCSQLite
import PorterModel

/// SQL expressions over the columns of a Porter database that read a stored value as the
/// relational export (`--format sqlite`) writes it, for what a WHERE clause compares: a query
/// translated for the export then runs on the database itself (`--query` of an export into
/// PostgreSQL, ``Database/forEachKey(selectedBy:_:)``). Only what differs is rewritten; values a
/// translated query never compares (dates, decimals, ObjectIds, UUIDs) stay as they are stored.
package enum StorageSQL {
    /// A `float` or `double` column: NaN as the text `NaN`, -0 as 0 (both are stored as their
    /// bits, a blob, so that they read back exactly); other numbers as stored.
    package static func number(_ column: String) -> String {
        "CASE WHEN typeof(\(column)) = 'blob' THEN CASE WHEN hex(\(column)) IN ('80000000', '8000000000000000') "
            + "THEN 0.0 ELSE 'NaN' END ELSE \(column) END"
    }

    /// A `mixed` column's kind as ``Value/kindName`` names it (`list`, `dictionary` for nested
    /// collections), null for null: integers, doubles and strings are stored natively, every
    /// other value as a blob starting with its tag.
    package static func mixedKind(_ column: String) -> String {
        let tags: [(StorageCodec.MixedTag, String)] = [
            (.bool, "bool"), (.float, "float"), (.data, "data"), (.date, "date"), (.decimal128, "decimal128"),
            (.objectId, "objectId"), (.uuid, "uuid"), (.doubleBits, "double"), (.link, "link"), (.list, "list"),
            (.map, "dictionary"),
        ]
        let blob = tags.map { "WHEN \(hexByte($0.0.rawValue)) THEN '\($0.1)'" }.joined(separator: " ")
        return "CASE typeof(\(column)) WHEN 'null' THEN NULL WHEN 'integer' THEN 'int' WHEN 'real' THEN 'double' "
            + "WHEN 'text' THEN 'string' ELSE CASE hex(substr(\(column), 1, 1)) \(blob) END END"
    }

    /// A `mixed` column's value where the export's is compared: a bool as 1 or 0, strings and
    /// numbers as stored (the other kinds are compared by their kind only).
    package static func mixedValue(_ column: String) -> String {
        "CASE WHEN typeof(\(column)) = 'blob' AND hex(substr(\(column), 1, 1)) = \(hexByte(StorageCodec.MixedTag.bool.rawValue)) "
            + "THEN hex(substr(\(column), 2, 1)) = '01' ELSE \(column) END"
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "'" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)]) + "'"
    }
}

extension Database {
    /// Calls `body` with the key in the first column of each row `sql` returns, in its order,
    /// stepping one row at a time (bounded memory). `sql` must only read: it runs on this
    /// database's connection, inside the caller's read transaction.
    /// - Throws: ``PorterError/Code/usage`` for a statement that would write, SQLite's error for
    ///   one that does not prepare, or what `body` throws.
    package func forEachKey(selectedBy sql: String, _ body: (ObjectKey) throws -> Void) throws {
        let statement = try connection.prepare(sql)
        guard sqlite3_stmt_readonly(statement.handle) != 0 else {
            throw PorterError(.usage, "a key selection must only read", location: path)
        }
        defer { sqlite3_reset(statement.handle) }
        while try statement.step() { try body(ObjectKey(statement.int64(0))) }
    }
}
