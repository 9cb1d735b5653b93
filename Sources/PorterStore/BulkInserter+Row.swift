import PorterCSQLite
import Foundation
import PorterModel

/// One column value of a row read straight from a document's bytes (the flat BSON import): a
/// plain value with no references, so a row is filled and bound without retains or allocations;
/// text and blobs point into the document.
package struct RowValue {
    /// What the value is, and so which of `bits` or `bytes` holds it.
    package enum Kind: UInt8 {
        /// Not given: the column's default, as ``BulkInserter/insert(fields:)`` takes a nil field.
        case absent
        case null
        /// `bits` is the `Int64`'s bit pattern.
        case int
        /// `bits` is 0 or 1.
        case bool
        /// `bits` is the `Double`'s bit pattern.
        case double
        /// `bits` holds the `Float`'s bit pattern.
        case float
        /// `bits` is the `Int64` bit pattern of milliseconds since 1970 (BSON's date).
        case date
        /// `bytes` is a string's UTF-8, already validated.
        case text
        /// `bytes` is a blob column's value exactly as the store keeps it: an ObjectId's 12 bytes,
        /// a UUID's 16, a decimal128's 16 (BSON's layout is the store's), or binary data.
        case blob
    }

    package var kind: Kind
    package var bits: UInt64
    package var bytes: UnsafeRawBufferPointer

    package init(
        _ kind: Kind, bits: UInt64 = 0, bytes: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) {
        self.kind = kind
        self.bits = bits
        self.bytes = bytes
    }

    /// A value not given.
    package static var absent: RowValue { RowValue(.absent) }

    /// The scalar `Value` of a kind held in `bits` (nil for the others).
    package var scalar: Value? {
        switch kind {
        case .null: return .null
        case .int: return .int(Int64(bitPattern: bits))
        case .bool: return .bool(bits != 0)
        case .double: return .double(Double(bitPattern: bits))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case .date: return .date(Timestamp(milliseconds: Int64(bitPattern: bits)))
        case .absent, .text, .blob: return nil
        }
    }
}

extension BulkInserter {
    /// Whether ``insert(row:)`` can write this class: every stored property is a column (no
    /// list, set or map) and none is an embedded object or a mixed value.
    package var takesRows: Bool {
        plan.collections.isEmpty && !plan.columns.contains { $0.type == .object || $0.type == .mixed }
    }

    /// Inserts one object of a class that ``takesRows``: `row` by position in the class's declared
    /// properties, as ``insert(fields:)`` takes `fields`, written as it writes them (the tests
    /// compare the two); returns its key. The caller has checked every value as for
    /// ``insert(fields:)``.
    /// - Throws: the store's error when the insert fails (a duplicate primary key, or SQLite's);
    ///   nothing is inserted then.
    package func insert(row: UnsafeBufferPointer<RowValue>) throws -> ObjectKey {
        try database.requireWrite()
        guard row.count == plan.schema.properties.count else {
            throw PorterError(
                .usage,
                "expected \(plan.schema.properties.count) column values for \(plan.schema.name), got \(row.count)")
        }
        let statement = try statementForNewKey()
        let handle = statement.handle
        // Text and blobs are bound without a copy (SQLite reads them while stepping): the bindings
        // are cleared right after, so none outlives the document's bytes.
        defer { sqlite3_clear_bindings(handle) }
        for i in 0..<columnTypes.count {
            let index = Int32(i + 1)
            let value = row[columnPositions[i]]
            switch value.kind {
            case .absent:
                try bind(Database.defaultValue(for: plan.columns[i]), plan.columns[i], statement, index)
            case .null: sqlite3_bind_null(handle, index)
            case .int, .bool: sqlite3_bind_int64(handle, index, Int64(bitPattern: value.bits))
            case .double:
                let d = Double(bitPattern: value.bits)
                if d.isNaN || (d == 0 && d.sign == .minus) {
                    StorageCodec.bind(.double(d), type: columnTypes[i], to: statement, at: index)
                } else {
                    sqlite3_bind_double(handle, index, d)
                }
            case .float, .date:
                StorageCodec.bind(value.scalar ?? .null, type: columnTypes[i], to: statement, at: index)
            case .text:
                // As `bind(_:text:)`: an empty string stays text, never NULL.
                let text = value.bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
                sqlite3_bind_text(
                    handle, index, text.assumingMemoryBound(to: CChar.self), Int32(value.bytes.count), nil)
            case .blob:
                if let base = value.bytes.baseAddress, value.bytes.count > 0 {
                    sqlite3_bind_blob(handle, index, base, Int32(value.bytes.count), nil)
                } else {
                    sqlite3_bind_zeroblob(handle, index, 0)
                }
            }
        }
        try step(statement, nil)
        database.noteObjectInserted(plan, database.connection.lastInsertRowID)
        return ObjectKey(database.connection.lastInsertRowID)
    }
}
