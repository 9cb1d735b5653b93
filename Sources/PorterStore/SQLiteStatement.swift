import PorterCSQLite
import Foundation

/// A value as SQLite stores it.
package enum SQLValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One prepared statement, finalized in `deinit`.
package final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings so it can run again.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `value` to parameter `index` (1-based).
    package func bind(_ index: Int32, _ value: SQLValue) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let v): sqlite3_bind_int64(handle, index, v)
        case .real(let v): sqlite3_bind_double(handle, index, v)
        case .text(let s): bind(index, text: s)
        case .blob(let b): bind(index, blob: b)
        }
    }

    /// Binds a string as UTF-8 (embedded NULs kept).
    package func bind(_ index: Int32, text: String) {
        var s = text
        s.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress, chars.count > 0 {
                    _ = sqlite3_bind_text(handle, index, base, Int32(chars.count), SQLITE_TRANSIENT)
                } else {
                    // A nil pointer would bind NULL; "" must stay an empty string.
                    _ = sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT)
                }
            }
        }
    }

    /// Binds bytes as a blob (zero-length blobs stay blobs, not NULL).
    func bind<Bytes: ContiguousBytes>(_ index: Int32, blob: Bytes) {
        blob.withUnsafeBytes { buf in
            if buf.count == 0 {
                _ = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                _ = sqlite3_bind_blob(handle, index, buf.baseAddress, Int32(buf.count), SQLITE_TRANSIENT)
            }
        }
    }

    /// Binds raw bytes as a blob (copied by SQLite; zero-length blobs stay blobs).
    package func bind(_ index: Int32, rawBlob buf: UnsafeRawBufferPointer) {
        if buf.count == 0 {
            _ = sqlite3_bind_zeroblob(handle, index, 0)
        } else {
            _ = sqlite3_bind_blob(handle, index, buf.baseAddress, Int32(buf.count), SQLITE_TRANSIENT)
        }
    }

    /// Binds an integer.
    package func bind(_ index: Int32, int: Int64) { sqlite3_bind_int64(handle, index, int) }

    /// Steps once: true when a row is available, false when done.
    package func step() throws -> Bool {
        connection.steps &+= 1
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let sql = sqlite3_sql(handle).map { String(cString: $0) } ?? "?"
        let err = connection.error(rc, "running '\(sql.prefix(100))'")
        sqlite3_reset(handle)
        throw err
    }

    /// Runs to completion, ignoring rows.
    package func run() throws {
        defer { reset() }
        while try step() {}
    }

    /// Number of result columns.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The SQLite storage class of column `i` in the current row.
    package func type(_ i: Int32) -> Int32 { sqlite3_column_type(handle, i) }

    /// Column `i` as an integer.
    /// Whether column `i` of the current row is SQL NULL.
    package func isNull(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_NULL }

    package func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(handle, i) }

    /// Column `i` as a double.
    package func double(_ i: Int32) -> Double { sqlite3_column_double(handle, i) }

    /// Column `i` as a string.
    package func text(_ i: Int32) -> String {
        guard let p = sqlite3_column_text(handle, i) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Column `i` as raw bytes, handed to `body` without copying.
    package func withBlob<T>(_ i: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let p = sqlite3_column_blob(handle, i)
        let n = Int(sqlite3_column_bytes(handle, i))
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
    }

    /// Column `i` as bytes.
    package func blob(_ i: Int32) -> [UInt8] { withBlob(i) { Array($0) } }

    /// Column `i` of the current row, read through SQLite's value object: each `sqlite3_column_*`
    /// call takes the connection's lock and checks for a failed allocation, which the value
    /// functions do not (about 40 instructions per call, two or three calls per value decoded).
    /// Valid until the statement is stepped, reset or finalized.
    package func column(_ i: Int32) -> SQLiteColumn { SQLiteColumn(value: sqlite3_column_value(handle, i)) }

    /// Column `i` as an ``SQLValue``.
    package func value(_ i: Int32) -> SQLValue {
        switch type(i) {
        case SQLITE_INTEGER: return .integer(int64(i))
        case SQLITE_FLOAT: return .real(double(i))
        case SQLITE_TEXT: return .text(text(i))
        case SQLITE_BLOB: return .blob(blob(i))
        default: return .null
        }
    }
}

/// One column of a statement's current row (see ``SQLiteStatement/column(_:)``).
package struct SQLiteColumn {
    let value: OpaquePointer?

    /// The storage class (`SQLITE_INTEGER`, `SQLITE_NULL` …).
    package var type: Int32 { sqlite3_value_type(value) }
    /// As an integer.
    package var int64: Int64 { sqlite3_value_int64(value) }
    /// As a double.
    package var double: Double { sqlite3_value_double(value) }

    /// As a string.
    package var text: String {
        guard let p = sqlite3_value_text(value) else { return "" }
        let n = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// As raw bytes, handed to `body` without copying.
    package func withBlob<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let p = sqlite3_value_blob(value)
        let n = Int(sqlite3_value_bytes(value))
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
    }

    /// As bytes.
    package var blob: [UInt8] { withBlob { Array($0) } }
}
