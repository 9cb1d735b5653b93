import Foundation
import PorterModel

/// A Porter database is a file that may come from anywhere, so every connection is opened
/// untrusted (``SQLiteConnection``: defensive mode, no extension loading, `trusted_schema` off) and
/// a database holding a schema object Porter never creates (a trigger, a view, a virtual table, a
/// foreign table or index) is refused by every command that writes and named by `porter check`:
/// a trigger would otherwise run inside Porter's own writes.
extension Database {
    /// The schema objects Porter did not create, one line each (`trigger 'x' on 'class_Item'`).
    static func foreignSchemaObjects(_ connection: SQLiteConnection) throws -> [String] {
        let stmt = try connection.prepare(
            "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master "
                + "ORDER BY CASE type WHEN 'trigger' THEN 0 WHEN 'view' THEN 1 ELSE 2 END, type, name")
        var found: [String] = []
        while try stmt.step() {
            let type = stmt.text(0), name = stmt.text(1), table = stmt.text(2), sql = stmt.text(3)
            if isPorterSchemaObject(type: type, name: name, sql: sql) { continue }
            found.append(type == "table" || type == "view" ? "\(type) '\(name)'" : "\(type) '\(name)' on '\(table)'")
        }
        return found
    }

    /// Whether an `sqlite_master` row is one Porter creates (tables of classes and collections,
    /// Porter's meta tables, SQLite's own bookkeeping, and the indexes ``StorageLayout`` names).
    static func isPorterSchemaObject(type: String, name: String, sql: String) -> Bool {
        switch type {
        case "table":
            if sql.uppercased().hasPrefix("CREATE VIRTUAL") { return false }
            return name.hasPrefix("class_") || ["_porter_meta", "_porter_history", "sqlite_sequence"].contains(name)
                || name.hasPrefix("sqlite_stat")
        case "index":
            return name.hasPrefix("index:") || name.hasPrefix("pk:") || name.hasPrefix("owner:")
                || name.hasPrefix("sqlite_autoindex_")
        default:
            return false
        }
    }

    /// Refuses a database holding schema objects Porter did not create, before anything is written.
    static func refuseForeignSchemaObjects(_ connection: SQLiteConnection) throws {
        let found = try foreignSchemaObjects(connection)
        guard let first = found.first else { return }
        let more = found.count > 1 ? " (and \(found.count - 1) more)" : ""
        throw PorterError(
            .notADatabase,
            "the database holds a \(first)\(more) that Porter did not create: "
                + "refusing to write to it (a trigger would run inside Porter's writes); "
                + "'porter check' lists them", location: connection.path)
    }

    /// `porter check`'s lines for foreign schema objects and the meta table.
    func untrustedSchemaProblems() throws -> [String] {
        var lines = try Self.foreignSchemaObjects(connection).map {
            "\($0): a schema object Porter did not create (refused by every writing command)"
        }
        let stmt = try connection.prepare("SELECT key, typeof(value) FROM _porter_meta ORDER BY key")
        while try stmt.step() {
            let key = stmt.text(0)
            // `nextKey.<class>`: a class's key floor (see ``ObjectKeyAllocation``), an integer.
            if key.hasPrefix(Database.keyFloorMetaKey("")) && stmt.text(1) == "integer" { continue }
            if key != "schema" { lines.append("_porter_meta: unknown row '\(key)'") }
        }
        if case .integer(let format)? = try connection.scalar("PRAGMA user_version"), format < 1 {
            lines.append("file format version \(format) is not one Porter writes (1 to \(Self.fileFormatVersion))")
        }
        return lines
    }
}
