import PorterCSQLite
import Foundation
import PorterModel

/// One value of a plain SQLite file's cell, as SQLite stores it.
package enum SQLiteCell: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A plain SQLite file that is not a Porter database: the relational exports (`--format sqlite`)
/// written and read back through the one module that imports SQLite's C library.
///
/// The API is deliberately small (statements, cells, a few pragmas); what the tables mean is the
/// business of the module above.
package final class PlainSQLiteFile {
    private let connection: SQLiteConnection

    /// Creates a database in the empty file at `path` (a temporary file made for it, see
    /// `TemporaryFiles.makeFile`) for a bulk write: no journal, no fsync from SQLite (the writer
    /// syncs the finished file once, then renames it into place). Refuses a file that is not empty.
    package init(fillingEmpty path: String, displayPath: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size == 0 else {
            throw PorterError(.io, "not an empty file", location: displayPath)
        }
        // Without SQLITE_OPEN_CREATE: a temporary file a caught signal removed in the meantime
        // must not be made again by SQLite (the process would die leaving it behind).
        connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE, displayPath: displayPath)
        // A 32 MB page cache (SQLite's default is 2 MB): primary keys such as ObjectIds arrive in
        // random order, and a small cache rereads their index pages from disk on most inserts.
        try connection.execute(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA foreign_keys=OFF; PRAGMA cache_size=-32768")
    }

    /// Opens an existing file read-only.
    package init(readingAt path: String) throws {
        connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY, displayPath: path)
        try connection.execute("PRAGMA query_only=1")
    }

    /// The file's path, for messages.
    package var path: String { connection.path }

    /// Whether SQLite here knows `STRICT` tables (3.37.0 and later).
    package static var supportsStrictTables: Bool { sqlite3_libversion_number() >= 3_037_000 }

    /// Runs SQL statements that return no rows.
    package func execute(_ sql: String) throws { try connection.execute(sql) }

    /// A prepared statement.
    package func prepare(_ sql: String) throws -> PlainSQLiteStatement {
        PlainSQLiteStatement(try connection.prepare(sql))
    }

    /// Every row of a query, each as its cells (for small results: pragmas, the schema table).
    package func rows(_ sql: String) throws -> [[SQLiteCell]] {
        let statement = try prepare(sql)
        var out: [[SQLiteCell]] = []
        while try statement.step() { out.append((0..<statement.columnCount).map { statement.cell($0) }) }
        return out
    }

    /// The names of the file's tables.
    package func tableNames() throws -> Set<String> {
        var names = Set<String>()
        for row in try rows("SELECT name FROM sqlite_master WHERE type = 'table'") {
            if case .text(let name) = row.first { names.insert(name) }
        }
        return names
    }

    /// The table that marks a relational export (`porter export --format sqlite`): it holds the schema.
    package static let exportSchemaTable = "_porter_schema"

    /// Whether the file at `path` is a relational export (an SQLite file holding ``exportSchemaTable``).
    package static func isRelationalExport(_ path: String) -> Bool {
        // Porter databases use a write-ahead log (header bytes 18–19 are 2); exports never do,
        // so a WAL file is never opened here (opening it read-only would leave -shm files).
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20, header[18] == 1, header[19] == 1 else {
            return false
        }
        return hasTable(exportSchemaTable, at: path)
    }

    /// What an SQLite file without Porter's application id is, as the refusal of a command that
    /// wants a Porter database or a Realm file says it: a Porter export (pointed at `porter import`)
    /// or some other SQLite database.
    package static func foreignFileMessage(_ path: String) -> String {
        isRelationalExport(path)
            ? "a Porter SQLite export (porter export --format sqlite), not a Porter database or a Realm file: "
                + "load it into a database with 'porter import DB \(path)'"
            : "an SQLite database, not a Porter database or a Realm file"
    }

    /// Whether the file at `path` is an SQLite file holding a table named `table` (false for
    /// anything that cannot be opened or read as SQLite).
    package static func hasTable(_ table: String, at path: String) -> Bool {
        guard let header = FileHandle(forReadingAtPath: path).flatMap({ try? $0.read(upToCount: 16) }),
            header == Data("SQLite format 3\0".utf8),
            let file = try? PlainSQLiteFile(readingAt: path)
        else { return false }
        return (try? file.tableNames().contains(table)) ?? false
    }
}

/// A prepared statement of a ``PlainSQLiteFile``.
package final class PlainSQLiteStatement {
    private let statement: SQLiteStatement

    fileprivate init(_ statement: SQLiteStatement) { self.statement = statement }

    /// Binds `cell` to parameter `index` (1-based).
    package func bind(_ index: Int, _ cell: SQLiteCell) {
        let i = Int32(index)
        switch cell {
        case .null: statement.bind(i, .null)
        case .integer(let v): statement.bind(i, int: v)
        case .real(let v): statement.bind(i, .real(v))
        case .text(let s): statement.bind(i, text: s)
        case .blob(let d): statement.bind(i, blob: d)
        }
    }

    /// Binds all parameters, runs the statement to completion and resets it.
    package func run(_ cells: [SQLiteCell]) throws {
        for (i, cell) in cells.enumerated() { bind(i + 1, cell) }
        try statement.run()
    }

    /// Steps once: true when a row is available.
    package func step() throws -> Bool { try statement.step() }

    /// Resets the statement and clears its bindings.
    package func reset() { statement.reset() }

    /// The number of result columns.
    package var columnCount: Int { Int(statement.columnCount) }

    /// The name of result column `i`.
    package func columnName(_ i: Int) -> String {
        sqlite3_column_name(statement.handle, Int32(i)).map { String(cString: $0) } ?? ""
    }

    /// Result column `i` of the current row.
    package func cell(_ i: Int) -> SQLiteCell {
        let column = Int32(i)
        switch statement.type(column) {
        case SQLITE_INTEGER: return .integer(statement.int64(column))
        case SQLITE_FLOAT: return .real(statement.double(column))
        case SQLITE_TEXT: return .text(statement.text(column))
        case SQLITE_BLOB: return .blob(statement.withBlob(column) { Data($0) })
        default: return .null
        }
    }
}
