import Foundation
import Hummingbird
import PorterDocument
import PorterInterchange
import PorterModel

/// A class, or the objects of a class a query selects (in the table's order), exported as a
/// download in every format `porter export` writes (bson, json, ejson, ejson-canonical, csv,
/// sqlite; realm for a whole class), by the same exporter and selection as
/// `porter export --query --sort`; sqlite and realm through ``StudioFileDownload``.
///
/// The exporter writes into a pipe on a thread of its own and the response reads the other end:
/// the pipe's capacity holds the export back while the browser is slower, so no whole export is
/// ever in memory.
enum StudioExport {
    /// The formats a download can have.
    static var formats: [String] {
        let streamed = InterchangeFormats.output.map(\.name)
        return streamed + (streamed.contains("csv") ? [] : ["csv"]) + StudioFileDownload.formats
    }

    /// Checks the request, then streams the export; a failure before the first byte is a 400.
    static func response(
        store: StudioStore, className: String, format name: String, query: String? = nil, sort: String? = nil,
        descending: Bool = false
    ) throws -> Response {
        let cls = try store.accessSync { try store.objectSchema(className) }
        if cls.isEmbedded {
            throw StudioRequestError(
                "'\(cls.name)' is an embedded class: its objects are exported inside their parents' documents")
        }
        let wholeFile = StudioFileDownload.formats.contains(name)
        if wholeFile { try StudioFileDownload.check(store: store, cls: cls, format: name, query: query) }
        // A Realm file holds whole classes, in no order: no selection.
        let selection =
            (query == nil && sort == nil) || name == "realm"
            ? nil
            : ExportSelection(className: cls.name, query: query, sort: sort.map { descending ? "-" + $0 : $0 })
        let format: DocumentOutputFormat
        if name == "csv" {
            format = CSVFormat(followsLinks: selection != nil)
        } else if wholeFile {
            // What `porter export --format sqlite` gives its exporter (the rows are written by the
            // relational writer, not in this format).
            format = try InterchangeFormats.outputFormat(named: "bson")
        } else {
            guard let known = InterchangeFormats.output.first(where: { $0.name == name }) else {
                throw StudioRequestError("unknown export format '\(name)' (known: \(formats.joined(separator: ", ")))")
            }
            format = known
        }
        let options = ExportOptions(classes: [cls.name])
        let exporter: Exporter
        switch store.file {
        case .porter(let db): exporter = Exporter(database: db, format: format, options: options)
        case .realm(let file): exporter = Exporter(realmFile: file, format: format, options: options)
        }
        if let selection {
            exporter.selection = selection
            // The table's checks and order first (usually the page's cached keys): a query that
            // fails only on evaluation (a value of the wrong type) is a 400 here, not a broken download.
            try store.accessSync {
                try store.checkSort(cls, sort)
                _ = try store.order(cls, sort: sort, descending: descending, query: query)
            }
            do {
                try store.accessSync { try exporter.checkSelection() }
            } catch let error as PorterError where error.code != .io && error.code != .notADatabase {
                // `--query: …` as `porter export` words it: here the query box and the sorted column.
                var message = error.message
                for option in ["query", "sort"] where message.hasPrefix("--\(option):") {
                    message = option + message.dropFirst(option.count + 2)
                }
                throw StudioRequestError(message)
            }
        }
        if wholeFile {
            return try StudioFileDownload.response(store: store, cls: cls, format: name, exporter: exporter)
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw StudioRequestError("cannot start the export: \(String(cString: strerror(errno)))", status: 500)
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let producer = ExportThread(store: store, exporter: exporter, className: cls.name, fd: writeEnd)
        Thread.detachNewThread { producer.run() }
        let fileName = ExportFileNames.fileName(forClass: cls.name, extension: format.fileExtension)
        var headers = HTTPFields()
        headers[.contentType] = name == "csv" ? "text/csv; charset=utf-8" : "application/octet-stream"
        headers[.contentDisposition] = "attachment; filename=\"\(fileName.replacingOccurrences(of: "\"", with: "_"))\""
        headers[.cacheControl] = "no-store"
        let body = ResponseBody { writer in
            defer { close(readEnd) }
            while let chunk = try await readChunk(readEnd) {
                try await writer.write(chunk)
            }
            if let failure = producer.failure {
                // Headers are gone: ending the connection early makes the browser fail the download.
                throw StudioRequestError("export failed: \(failure)", status: 500)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The next bytes of the pipe (nil at its end), read off the event loop.
    static func readChunk(_ fd: Int32) async throws -> ByteBuffer? {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var bytes = [UInt8](repeating: 0, count: 64 * 1024)
                var n: Int
                repeat { n = read(fd, &bytes, bytes.count) } while n < 0 && errno == EINTR
                if n < 0 {
                    continuation.resume(throwing: StudioRequestError("reading the export failed", status: 500))
                } else if n == 0 {
                    continuation.resume(returning: nil)
                } else {
                    continuation.resume(returning: ByteBuffer(bytes: bytes[0..<n]))
                }
            }
        }
    }
}

/// Writes one export into a pipe and remembers why it failed, if it did.
private final class ExportThread: @unchecked Sendable {
    let store: StudioStore
    let exporter: Exporter
    let className: String
    let fd: Int32
    private let lock = NSLock()
    private var failureText: String?

    init(store: StudioStore, exporter: Exporter, className: String, fd: Int32) {
        self.store = store
        self.exporter = exporter
        self.className = className
        self.fd = fd
    }

    /// Why the export stopped early, once the pipe is closed.
    var failure: String? { lock.withLock { failureText } }

    func run() {
        let output = ByteOutput(fileDescriptor: fd, name: className, closeWhenDone: true)
        do {
            _ = try store.accessSync { try exporter.export(className: className, to: output) }
            try output.close()
        } catch {
            lock.withLock { failureText = (error as? PorterError)?.headline ?? "\(error)" }
            output.abandon()
        }
    }
}
