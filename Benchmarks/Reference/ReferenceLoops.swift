import PorterCBSON
import PorterCSQLite
import Foundation

/// Minimal loops written directly against the C APIs: the floor Porter's own operations are
/// compared with in `make bench`. They know the benchmark's table layout and do nothing else.
public enum ReferenceLoops {
    /// A failure of the reference code itself (the benchmark reports it and stops).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `bson_t` is over-aligned, so Swift sees documents as opaque pointers.
    private static func newDocument() -> OpaquePointer {
        bson_new()!
    }

    /// A document's length, read from its first four bytes.
    private static func length(_ doc: OpaquePointer) -> Int {
        let data = bson_get_data(doc)!
        var n: UInt32 = 0
        for i in (0..<4).reversed() { n = n << 8 | UInt32(data[i]) }
        return Int(n)
    }

    /// The 8 scalar columns every shape has, with how the reference encodes each.
    static let scalarColumns = ["_id", "name", "count", "price", "ratio", "active", "created", "note"]

    /// sqlite3_step over the items (+ owner primary key for `onelink` and `linked`) and libbson encoding of
    /// each document, written to `output`. Returns (documents, bytes).
    public static func bsonExport(database: String, shape: String, output: String) throws -> (Int, Int) {
        let db = try openDatabase(database)
        defer { sqlite3_close_v2(db) }
        let cols = scalarColumns.map { "i.\"\($0)\"" }.joined(separator: ", ")
        let sql: String
        switch shape {
        case "linked", "onelink":
            sql =
                "SELECT i._key, \(cols), o._id FROM class_Item i LEFT JOIN class_Owner o ON o._key = i.owner ORDER BY i._key"
        case "nested": sql = "SELECT i._key, \(cols), i.address FROM class_Item i ORDER BY i._key"
        default: sql = "SELECT i._key, \(cols) FROM class_Item i ORDER BY i._key"
        }
        let stmt = try prepareStatement(db, sql)
        defer { sqlite3_finalize(stmt) }
        let friends =
            shape == "linked"
            ? try prepareStatement(
                db,
                "SELECT o._id FROM \"class_Item.friends\" f JOIN class_Owner o ON o._key = f.value WHERE f._owner = ? ORDER BY f._pos"
            ) : nil
        let address =
            shape == "nested"
            ? try prepareStatement(db, "SELECT street, city, geo FROM class_Address WHERE _key = ?") : nil
        let geo = shape == "nested" ? try prepareStatement(db, "SELECT lat, lon FROM class_Geo WHERE _key = ?") : nil
        let scores =
            shape == "nested"
            ? try prepareStatement(db, "SELECT _key, value FROM \"class_Item.scores\" WHERE _owner = ? ORDER BY _key")
            : nil
        let labels =
            shape == "nested"
            ? try prepareStatement(db, "SELECT value FROM \"class_Item.labels\" WHERE _owner = ? ORDER BY value") : nil
        defer { [friends, address, geo, scores, labels].forEach { if let s = $0 { sqlite3_finalize(s) } } }

        guard let file = fopen(output, "wb") else { throw Failure(description: "cannot write \(output)") }
        defer { fclose(file) }
        var documents = 0, bytes = 0
        while sqlite3_step(stmt) == SQLITE_ROW {
            let doc = newDocument()
            appendScalars(doc, stmt)
            let key = sqlite3_column_int64(stmt, 0)
            if shape == "onelink" || shape == "linked" {
                if sqlite3_column_type(stmt, 9) == SQLITE_NULL {
                    bson_append_null(doc, "owner", -1)
                } else {
                    bson_append_int64(doc, "owner", -1, sqlite3_column_int64(stmt, 9))
                }
            }
            if let friends {
                let array = newDocument()
                sqlite3_bind_int64(friends, 1, key)
                var i = 0
                while sqlite3_step(friends) == SQLITE_ROW {
                    bson_append_int64(array, String(i), -1, sqlite3_column_int64(friends, 0))
                    i += 1
                }
                sqlite3_reset(friends)
                bson_append_array(doc, "friends", -1, array)
                bson_destroy(array)
            } else if shape == "nested" {
                appendAddress(doc, stmt, address!, geo!)
                appendScores(doc, key, scores!)
                appendLabels(doc, key, labels!)
            }
            let length = length(doc)
            fwrite(bson_get_data(doc), 1, length, file)
            bytes += length
            documents += 1
            bson_destroy(doc)
        }
        return (documents, bytes)
    }

    private static func appendScalars(_ doc: OpaquePointer, _ stmt: OpaquePointer) {
        var oid = bson_oid_t()
        if let blob = sqlite3_column_blob(stmt, 1) {
            withUnsafeMutableBytes(of: &oid.bytes) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 12))
            }
        }
        bson_append_oid(doc, "_id", -1, &oid)
        bson_append_utf8(
            doc, "name", -1,
            sqlite3_column_text(stmt, 2).map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
            sqlite3_column_bytes(stmt, 2))
        bson_append_int64(doc, "count", -1, sqlite3_column_int64(stmt, 3))
        bson_append_double(doc, "price", -1, sqlite3_column_double(stmt, 4))
        bson_append_double(doc, "ratio", -1, sqlite3_column_double(stmt, 5))
        bson_append_bool(doc, "active", -1, sqlite3_column_int64(stmt, 6) != 0)
        bson_append_date_time(doc, "created", -1, sqlite3_column_int64(stmt, 7) / 1000)
        if sqlite3_column_type(stmt, 8) == SQLITE_NULL {
            bson_append_null(doc, "note", -1)
        } else {
            bson_append_utf8(
                doc, "note", -1,
                sqlite3_column_text(stmt, 8).map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                sqlite3_column_bytes(stmt, 8))
        }
    }

    private static func appendAddress(
        _ doc: OpaquePointer, _ stmt: OpaquePointer, _ address: OpaquePointer, _ geo: OpaquePointer
    ) {
        guard sqlite3_column_type(stmt, 9) != SQLITE_NULL else { bson_append_null(doc, "address", -1); return }
        sqlite3_bind_int64(address, 1, sqlite3_column_int64(stmt, 9))
        defer { sqlite3_reset(address) }
        guard sqlite3_step(address) == SQLITE_ROW else { bson_append_null(doc, "address", -1); return }
        let sub = newDocument()
        bson_append_utf8(
            sub, "street", -1,
            sqlite3_column_text(address, 0).map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
            sqlite3_column_bytes(address, 0))
        bson_append_utf8(
            sub, "city", -1,
            sqlite3_column_text(address, 1).map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
            sqlite3_column_bytes(address, 1))
        if sqlite3_column_type(address, 2) == SQLITE_NULL {
            bson_append_null(sub, "geo", -1)
        } else {
            sqlite3_bind_int64(geo, 1, sqlite3_column_int64(address, 2))
            if sqlite3_step(geo) == SQLITE_ROW {
                let g = newDocument()
                bson_append_double(g, "lat", -1, sqlite3_column_double(geo, 0))
                bson_append_double(g, "lon", -1, sqlite3_column_double(geo, 1))
                bson_append_document(sub, "geo", -1, g)
                bson_destroy(g)
            }
            sqlite3_reset(geo)
        }
        bson_append_document(doc, "address", -1, sub)
        bson_destroy(sub)
    }

    private static func appendScores(_ doc: OpaquePointer, _ key: Int64, _ scores: OpaquePointer) {
        let sub = newDocument()
        sqlite3_bind_int64(scores, 1, key)
        while sqlite3_step(scores) == SQLITE_ROW {
            bson_append_int64(
                sub, sqlite3_column_text(scores, 0).map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                sqlite3_column_bytes(scores, 0), sqlite3_column_int64(scores, 1))
        }
        sqlite3_reset(scores)
        bson_append_document(doc, "scores", -1, sub)
        bson_destroy(sub)
    }

    private static func appendLabels(_ doc: OpaquePointer, _ key: Int64, _ labels: OpaquePointer) {
        let sub = newDocument()
        sqlite3_bind_int64(labels, 1, key)
        var i = 0
        while sqlite3_step(labels) == SQLITE_ROW {
            bson_append_utf8(
                sub, String(i), -1,
                sqlite3_column_text(labels, 0).map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                sqlite3_column_bytes(labels, 0))
            i += 1
        }
        sqlite3_reset(labels)
        bson_append_array(doc, "labels", -1, sub)
        bson_destroy(sub)
    }
}
