import Foundation
import PorterDocument
import PorterModel
import PorterPostgres

/// Where a PostgreSQL load goes: a SQL file for `psql -f`, or a server through libpq.
protocol PostgresLoadTarget: AnyObject {
    /// Runs (or writes) one statement.
    func execute(_ sql: String) throws
    /// Sends one table's rows with `COPY … FROM STDIN` (`bytea`: field positions to re-encode).
    func copy(into table: String, from spool: CopySpool, bytea: Set<Int>) throws
    /// Sends one table's rows with `COPY … FROM STDIN` as `feed` hands them over.
    func copyStream(into table: String, _ feed: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws
}

/// A SQL file `psql -v ON_ERROR_STOP=1 -f` loads: statements and `COPY … FROM stdin` blocks.
private final class PostgresSQLFile: PostgresLoadTarget {
    let output: ByteOutput
    init(output: ByteOutput) { self.output = output }

    func execute(_ sql: String) throws { try output.write(sql + ";\n") }

    func copy(into table: String, from spool: CopySpool, bytea: Set<Int>) throws {
        try output.write("COPY \(quote(table)) FROM stdin;\n")
        try spool.forEachChunk(bytea: bytea) { try output.write($0) }
        try output.write("\\.\n")
    }

    func copyStream(into table: String, _ feed: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try output.write("COPY \(quote(table)) FROM stdin;\n")
        try feed { try output.write($0) }
        try output.write("\\.\n")
    }
}

/// A server, through libpq.
private final class PostgresServerTarget: PostgresLoadTarget {
    let connection: PostgresConnection
    init(connection: PostgresConnection) { self.connection = connection }

    func execute(_ sql: String) throws { try connection.execute(sql) }

    func copy(into table: String, from spool: CopySpool, bytea: Set<Int>) throws {
        try connection.copyIn("COPY \(quote(table)) FROM STDIN") { send in
            try spool.forEachChunk(bytea: bytea) { try send($0) }
        }
    }

    func copyStream(into table: String, _ feed: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try connection.copyIn("COPY \(quote(table)) FROM STDIN", feed: feed)
    }
}

/// What `--to postgresql://…` does when the target schema already holds tables.
public enum PostgresLoadMode: String, Sendable, CaseIterable {
    /// Refuse (the default): nothing is changed.
    case new
    /// Drop the tables of this export that exist (with what depends on them), then load.
    case replace
}

extension Exporter {
    /// Writes the exported classes as one SQL file at `path` for `psql -v ON_ERROR_STOP=1 -f`:
    /// in one transaction, the tables of the relational layout (as `--format sqlite`) with
    /// PostgreSQL's types, each table's rows as `COPY … FROM stdin`, then indexes and foreign keys.
    /// Written under a temporary name beside `path` and renamed into place when complete.
    /// - Parameters:
    ///   - force: replace an existing file (otherwise that is an error).
    ///   - beforeCommit: runs once the file is complete, before it is renamed into place; what it
    ///     throws removes the file (`porter export` waits there for its check of the input).
    /// - Throws: ``PorterError``; nothing is left behind at `path` or beside it.
    public func export(toPostgresFile path: String, force: Bool = false, beforeCommit: () throws -> Void = {})
        throws -> ExportReport
    {
        let (exportSchema, classes, kept) = try relationalSchema(format: "postgres")
        let layout = try RelationalLayout(schema: exportSchema, classes: classes, dialect: .postgres)
        try checkOneFileOutput(path, format: "postgres", force: force)
        translatesQuery = true
        defer { translatesQuery = false }
        // Top-level tables are written as their objects are read; when a value needs a column type
        // other than its ordinary one, the file is written again with every table's rows spooled
        // first (its types are then known before its CREATE TABLE).
        do {
            return try writePostgresFile(
                layout, kept: kept, path: path, optimistic: true, beforeCommit: beforeCommit)
        } catch is PostgresStreamFallback {
            return try writePostgresFile(
                layout, kept: kept, path: path, optimistic: false, beforeCommit: beforeCommit)
        }
    }

    private func writePostgresFile(
        _ layout: RelationalLayout, kept: [String: [Int]], path: String, optimistic: Bool,
        beforeCommit: () throws -> Void
    ) throws -> ExportReport {
        let writer = try PostgresCopyWriter(layout: layout, spoolBeside: path, optimistic: optimistic)
        var report = ExportReport()
        if !optimistic { report = try writeRelational(layout, kept: kept, path: path, write: writer.writeObject) }
        let (temp, output) = try ByteOutput.creatingTemporaryFile(beside: path)
        do {
            try output.write(
                """
                -- Porter export of \(URL(fileURLWithPath: self.path).lastPathComponent) (schema version \(schema.version)), \
                relational layout \(RelationalValues.layoutVersion): psql -v ON_ERROR_STOP=1 -f FILE
                SET client_encoding = 'UTF8';
                SET standard_conforming_strings = on;
                BEGIN;

                """)
            let file = PostgresSQLFile(output: output)
            if optimistic {
                try writer.createTables(on: file)
                report = try writeRelational(
                    layout, kept: kept, path: path, eachClass: { try writer.stream($0, to: file, $1) },
                    write: writer.writeObject)
                try writer.sendRest(to: file)
            } else {
                try writer.send(to: file)
            }
            try output.write("COMMIT;\n")
            try output.close()
            try beforeCommit()
            try TemporaryFiles.renameIntoPlace(temp, at: path)
        } catch {
            output.abandon()
            TemporaryFiles.remove(temp)
            throw error
        }
        return report
    }

    /// Loads the exported classes into the PostgreSQL database at `url` in one transaction (all or
    /// nothing: a failure, or a killed Porter, leaves the database as it was): the tables of
    /// ``export(toPostgresFile:force:)`` in the connection's current schema, rows by `COPY`.
    /// - Parameters:
    ///   - mode: `.new` refuses a schema that holds any table; `.replace` drops this export's
    ///     tables first.
    ///   - spoolFolder: where the rows of child tables wait for their table's `COPY` (unlinked files).
    ///   - beforeCommit: runs after every row is sent, before the commit; what it throws rolls the
    ///     load back (`porter export --to` waits there for its check of the file, made meanwhile).
    /// - Throws: ``PorterError``: `usage` for a bad URL, `io` for the server's refusals, in one line.
    public func load(
        intoPostgres url: String, mode: PostgresLoadMode = .new, spoolFolder: String? = nil,
        beforeCommit: () throws -> Void = {}
    ) throws -> ExportReport {
        let (exportSchema, classes, kept) = try relationalSchema(format: "postgres")
        let layout = try RelationalLayout(schema: exportSchema, classes: classes, dialect: .postgres)
        let connection = try PostgresConnection(url: url)
        translatesQuery = true
        defer { translatesQuery = false }
        let schemaName = try connection.query("SELECT current_schema()").first?.first ?? nil
        guard let schemaName else {
            throw PorterError(
                .io, "the connection has no current schema (search_path names none that exists)",
                location: connection.displayName)
        }
        let tables = layout.all.map(\.name) + [RelationalLayout.schemaTable, RelationalLayout.nullEntriesTable]
        let present = try connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
        ).compactMap { $0.first ?? nil }
        if mode == .new, !present.isEmpty {
            let shown = present.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (present.count > 3 ? ", …" : "")
            throw PorterError(
                .io,
                "the schema '\(schemaName)' already holds \(present.count) table\(present.count == 1 ? "" : "s") (\(shown)): load into an empty schema, or pass --mode replace to drop and replace this export's tables",
                location: connection.displayName)
        }
        let folder = spoolFolder ?? NSTemporaryDirectory()
        let spoolBeside = URL(fileURLWithPath: folder).appendingPathComponent("porter-postgres").path
        let server = PostgresServerTarget(connection: connection)
        var report = ExportReport()
        try connection.execute("BEGIN")
        do {
            if mode == .replace {
                for table in tables where present.contains(table) {
                    try connection.execute("DROP TABLE IF EXISTS \(quote(table)) CASCADE")
                }
            }
            // The top-level tables stream: each is one COPY sent while its objects are read, so
            // the server stores rows while Porter reads the next ones. When a value needs a column
            // type other than its ordinary one, what was sent is rolled back and the load made
            // again with every table's rows spooled first (its types known before its CREATE TABLE).
            try connection.execute("SAVEPOINT porter_stream")
            do {
                let writer = try PostgresCopyWriter(layout: layout, spoolBeside: spoolBeside, optimistic: true)
                try writer.createTables(on: server)
                report = try writeRelational(
                    layout, kept: kept, path: connection.displayName,
                    eachClass: { try writer.stream($0, to: server, $1) }, write: writer.writeObject)
                try writer.sendRest(to: server)
            } catch is PostgresStreamFallback {
                try connection.execute("ROLLBACK TO SAVEPOINT porter_stream")
                let writer = try PostgresCopyWriter(layout: layout, spoolBeside: spoolBeside)
                report = try writeRelational(
                    layout, kept: kept, path: connection.displayName, write: writer.writeObject)
                try writer.send(to: server)
            }
            try beforeCommit()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        return report
    }
}

extension Exporter {
    /// Checks a `--to` URL without connecting.
    /// - Throws: ``PorterError`` (`usage`) saying what is wrong with it.
    public static func checkPostgresURL(_ url: String) throws { try PostgresConnection.checkURL(url) }

    /// `url` with any password replaced by `***`, for messages.
    public static func displayPostgresURL(_ url: String) -> String { PostgresConnection.redacted(url) }
}
