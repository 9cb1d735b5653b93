import Foundation
import PorterCPQ
import PorterModel

/// One connection to a PostgreSQL server through libpq: statements, small queries, and
/// `COPY … FROM STDIN` fed in chunks. Every failure is a one-line ``PorterError`` naming the
/// server (its URL without the password); the server's messages are kept, their detail lines folded.
package final class PostgresConnection {
    private let connection: OpaquePointer
    /// The URL without its password, for messages.
    package let displayName: String

    /// Whether `url` is a connection URL libpq reads (`postgresql://…` or `postgres://…`).
    /// - Throws: ``PorterError`` (`usage`) saying what is wrong, before any connection is tried.
    package static func checkURL(_ url: String) throws {
        guard isURL(url) else {
            throw PorterError(
                .usage,
                "'\(redacted(url))' is not a PostgreSQL URL (postgresql://[user@][host][:port]/database[?host=/socket/folder])"
            )
        }
        var message: UnsafeMutablePointer<CChar>?
        let (url, _) = splitSchema(url)
        guard let options = PQconninfoParse(url, &message) else {
            let why = message.map { String(cString: $0) } ?? "unreadable"
            if let message { PQfreemem(message) }
            throw PorterError(.usage, "'\(redacted(url))' is not a valid PostgreSQL URL: \(oneLine(why))")
        }
        defer { PQconninfoFree(options) }
        // libpq reads the port only when connecting: a port that is no number is an argument error too.
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "port", let value = option.pointee.val {
                let ports = String(cString: value).split(separator: ",", omittingEmptySubsequences: false)
                if let bad = ports.first(where: { UInt16($0).map { $0 == 0 } ?? true }) {
                    throw PorterError(
                        .usage,
                        "'\(redacted(url))' is not a valid PostgreSQL URL: the port '\(bad)' is not a number from 1 to 65535"
                    )
                }
            }
            option += 1
        }
    }

    /// Whether `text` names a PostgreSQL database (`postgresql://…` or `postgres://…`).
    package static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// `url` without its `schema=NAME` parameter (Porter's, not libpq's), and that schema: the
    /// connection's `search_path` is set to it.
    package static func splitSchema(_ url: String) -> (url: String, schema: String?) {
        guard let question = url.firstIndex(of: "?") else { return (url, nil) }
        var schema: String?
        var kept: [Substring] = []
        for parameter in url[url.index(after: question)...].split(separator: "&") {
            if parameter.hasPrefix("schema=") {
                let value = parameter.dropFirst("schema=".count)
                schema = String(value).removingPercentEncoding ?? String(value)
            } else {
                kept.append(parameter)
            }
        }
        let base = String(url[..<question])
        return (kept.isEmpty ? base : base + "?" + kept.joined(separator: "&"), schema)
    }

    /// `url` with any password replaced by `***`.
    package static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"),
            let at = url[scheme.upperBound...].firstIndex(of: "@"),
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }

    /// Connects (UTF-8 client encoding, no password prompt).
    /// - Throws: ``PorterError`` (`io`): the server's or libpq's first line of why not.
    package init(url: String) throws {
        try Self.checkURL(url)
        displayName = Self.redacted(url)
        let (url, schema) = Self.splitSchema(url)
        guard let connection = PQconnectdb(url) else {
            throw PorterError(.io, "cannot connect: out of memory", location: displayName)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let why = Self.oneLine(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw PorterError(.io, "cannot connect to PostgreSQL: \(why)", location: displayName)
        }
        guard PQsetClientEncoding(connection, "UTF8") == 0 else {
            let why = Self.oneLine(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw PorterError(.io, "cannot set the client encoding to UTF8: \(why)", location: displayName)
        }
        // The server's notices (`DROP … CASCADE` lists what it drops) are not Porter's output.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.connection = connection
        if let schema {
            try execute("SET search_path TO \"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
    }

    deinit { PQfinish(connection) }

    /// The first line of a libpq message, trimmed ("connection to server … failed: …").
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.first(where: { !$0.isEmpty }) ?? "unknown error"
    }

    /// Runs statements (several, separated by `;`, are allowed) and expects no rows back.
    package func execute(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one query and returns its rows (NULL as nil), as text.
    package func query(_ sql: String) throws -> [[String?]] {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        var rows: [[String?]] = []
        let columns = PQnfields(result)
        for row in 0..<PQntuples(result) {
            rows.append(
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        return rows
    }

    /// Runs one query with text parameters (`$1`, `$2`, …; nil is NULL) and returns its result,
    /// every field as text, for reading row by row (the whole result is held: callers bound it
    /// with a cursor's `FETCH n` or a `WHERE` naming one batch of owners).
    package func rows(_ sql: String, parameters: [String?] = []) throws -> PostgresRows {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(connection, sql)
        } else {
            // Each C string lives until PQexecParams returns.
            let copies = parameters.map { $0.map { strdup($0) } ?? nil }
            defer { for copy in copies { free(copy) } }
            let pointers = copies.map { UnsafePointer<CChar>($0) }
            result = pointers.withUnsafeBufferPointer {
                PQexecParams(connection, sql, Int32(parameters.count), nil, $0.baseAddress, nil, nil, 0)
            }
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        guard let result else { throw PorterError(.io, "no result", location: displayName) }
        return PostgresRows(result)
    }

    /// Runs `COPY … FROM STDIN` (`sql`) and sends what `feed` hands to its callback, in order.
    /// A failure in `feed` ends the COPY with an error (the server discards its rows).
    package func copyIn(_ sql: String, feed: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let start = PQexec(connection, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            try check(start, sql: sql)
            throw PorterError(.io, "the server did not start the COPY", location: displayName)
        }
        PQclear(start)
        do {
            try feed { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else { return }
                if PQputCopyData(connection, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count)) != 1 {
                    throw PorterError(
                        .io, "cannot send COPY data: \(Self.oneLine(String(cString: PQerrorMessage(connection))))",
                        location: displayName)
                }
            }
        } catch {
            _ = PQputCopyEnd(connection, "Porter stopped the load")
            drainResults()
            throw error
        }
        guard PQputCopyEnd(connection, nil) == 1 else {
            drainResults()
            throw PorterError(
                .io, "cannot end the COPY: \(Self.oneLine(String(cString: PQerrorMessage(connection))))",
                location: displayName)
        }
        var failure: PorterError?
        while let result = PQgetResult(connection) {
            if failure == nil {
                do { try check(result, sql: sql) } catch let error as PorterError { failure = error }
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    private func drainResults() {
        while let result = PQgetResult(connection) { PQclear(result) }
    }

    /// Throws the server's error of `result`, as one line: the message, then its detail, hint
    /// and context (where in the COPY data: table and line) in parentheses.
    private func check(_ result: OpaquePointer?, sql: String) throws {
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_COPY_IN { return }
        guard let result else {
            throw PorterError(
                .io, Self.oneLine(String(cString: PQerrorMessage(connection))), location: displayName)
        }
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        // PG_DIAG_MESSAGE_PRIMARY 'M', DETAIL 'D', HINT 'H', CONTEXT 'W' (postgres_ext.h).
        var message = field(Int32(UInt8(ascii: "M"))) ?? Self.oneLine(String(cString: PQresultErrorMessage(result)))
        let extra = [field(Int32(UInt8(ascii: "D"))), field(Int32(UInt8(ascii: "W")))].compactMap { $0 }
            .map { $0.split(whereSeparator: \.isNewline).joined(separator: "; ") }
        if !extra.isEmpty { message += " (" + extra.joined(separator: "; ") + ")" }
        throw PorterError(.io, "PostgreSQL: \(message)", location: displayName)
    }
}

/// The rows of one query result, as text (libpq's text format), freed with this value.
package final class PostgresRows {
    private let result: OpaquePointer
    /// How many rows.
    package let count: Int
    /// How many fields each row has.
    package let columns: Int

    init(_ result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columns = Int(PQnfields(result))
    }

    deinit { PQclear(result) }

    /// The text of a field, nil for NULL.
    package func text(_ row: Int, _ column: Int) -> String? {
        if PQgetisnull(result, Int32(row), Int32(column)) == 1 { return nil }
        return String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }
}
