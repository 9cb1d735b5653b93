import Foundation
import PorterCBSON
import PorterCSQLite

extension ReferenceLoops {
    /// The in-process floor of importing flat BSON documents: libbson reads `bsonFile` (the flat
    /// shape's export) document by document, and each document's 8 scalars are bound by field name
    /// to one prepared `INSERT` into a copy of `source`'s `class_Item` table, in one transaction.
    /// No parsing beyond libbson's iterator, no checks, no schema. Returns the rows inserted.
    public static func bsonInsert(source: String, bsonFile: String, destination: String) throws -> Int {
        try? FileManager.default.removeItem(atPath: destination)
        let src = try openDatabase(source)
        let ddl = try prepareStatement(src, "SELECT sql FROM sqlite_master WHERE name = 'class_Item'")
        guard sqlite3_step(ddl) == SQLITE_ROW, let text = sqlite3_column_text(ddl, 0) else {
            throw Failure(description: "\(source) has no class_Item table")
        }
        let create = String(cString: text)
        sqlite3_finalize(ddl)
        sqlite3_close_v2(src)

        let dst = try openDatabase(destination)
        defer { sqlite3_close_v2(dst) }
        try execute(dst, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
        try execute(dst, "BEGIN IMMEDIATE")
        try execute(dst, create)
        try execute(dst, "CREATE UNIQUE INDEX \"pk:Item\" ON class_Item (\"_id\")")
        let columns = scalarColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        let insert = try prepareStatement(
            dst,
            "INSERT INTO class_Item (\(columns)) VALUES (\(Array(repeating: "?", count: scalarColumns.count).joined(separator: ",")))"
        )
        defer { sqlite3_finalize(insert) }

        var error = bson_error_t()
        guard let reader = bson_reader_new_from_file(bsonFile, &error) else {
            throw Failure(description: "cannot read \(bsonFile)")
        }
        defer { bson_reader_destroy(reader) }
        // `bson_iter_t` is over-aligned: Swift sees it only through a raw, suitably aligned buffer.
        let iterator = UnsafeMutableRawPointer.allocate(
            byteCount: max(MemoryLayout<bson_iter_t>.size, 128), alignment: 128)
        defer { iterator.deallocate() }
        let it = OpaquePointer(iterator)
        var rows = 0
        var eof = false
        while let document = bson_reader_read(reader, &eof) {
            guard bson_iter_init(it, document) else { throw Failure(description: "bad document \(rows)") }
            while bson_iter_next(it) {
                guard let key = bson_iter_key(it) else { continue }
                let slot: Int32
                switch (key[0], key[1]) {
                case (0x5F, _): slot = 1  // _id
                case (0x6E, 0x61): slot = 2  // name
                case (0x63, 0x6F): slot = 3  // count
                case (0x70, _): slot = 4  // price
                case (0x72, _): slot = 5  // ratio
                case (0x61, _): slot = 6  // active
                case (0x63, 0x72): slot = 7  // created
                case (0x6E, 0x6F): slot = 8  // note
                default: continue
                }
                switch bson_iter_type(it) {
                case BSON_TYPE_OID:
                    sqlite3_bind_blob(insert, slot, bson_iter_oid(it), 12, nil)
                case BSON_TYPE_UTF8:
                    var length: UInt32 = 0
                    let text = bson_iter_utf8(it, &length)
                    sqlite3_bind_text(insert, slot, text, Int32(length), nil)
                case BSON_TYPE_INT64, BSON_TYPE_INT32: sqlite3_bind_int64(insert, slot, bson_iter_as_int64(it))
                case BSON_TYPE_DOUBLE: sqlite3_bind_double(insert, slot, bson_iter_double(it))
                case BSON_TYPE_BOOL: sqlite3_bind_int64(insert, slot, bson_iter_bool(it) ? 1 : 0)
                case BSON_TYPE_DATE_TIME: sqlite3_bind_int64(insert, slot, bson_iter_date_time(it) * 1000)
                default: sqlite3_bind_null(insert, slot)
                }
            }
            guard sqlite3_step(insert) == SQLITE_DONE else {
                throw Failure(description: "insert failed: \(String(cString: sqlite3_errmsg(dst)))")
            }
            sqlite3_reset(insert)
            rows += 1
        }
        try execute(dst, "COMMIT")
        return rows
    }
}
