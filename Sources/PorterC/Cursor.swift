import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterRealm
import PorterRealmFile

/// A cursor over one class's objects: `porter export --class C [--query Q] --out -` run on a thread
/// of its own into a pipe, read back one document at a time. The export's own mapping and encoder
/// write every document, so a cursor's text is byte for byte the export's; the pipe bounds memory.
final class CursorObject: HandleObject, @unchecked Sendable {
    let lock = NSRecursiveLock()
    var lastError: CallError?
    /// BSON documents (length-prefixed) rather than lines of Extended JSON.
    private let bson: Bool
    private let readEnd: Int32
    private let writeEnd: Int32
    private let exporter: Exporter
    private let className: String
    private let cancelFlag = NSLock()
    private var cancelled = false
    private let finished = DispatchSemaphore(value: 0)
    /// What stopped the producer, read once it finished.
    private var failure: (any Error)?
    private var joined = false
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    /// Opens its own copy of the file (the file handle stays free for other calls), checks the
    /// class and the query, and starts the producer.
    init(path: String, key: [UInt8]?, className: String, query: String?, format: String) throws {
        let file = try RealmFileOpening.openDiagnosed(path, key: key)
        let documentFormat = try InterchangeFormats.outputFormat(named: format)
        bson = format == "bson"
        self.className = className
        exporter = Exporter(realmFile: file, format: documentFormat, options: ExportOptions(classes: [className]))
        guard let cls = exporter.schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the file's schema", location: path)
        }
        if cls.isEmbedded {
            throw PorterError(
                .usage, "'\(className)' is an embedded class: its objects are read inside their parents", location: path
            )
        }
        if let query {
            let selection = ExportSelection(className: className, query: query)
            try selection.checkSyntax()
            exporter.selection = selection
            try exporter.checkSelection()
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw CallError(.io, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Not inherited by a child the host process starts.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readEnd = fds[0]
        writeEnd = fds[1]
        exporter.isCancelled = { [unowned self] in
            cancelFlag.lock()
            defer { cancelFlag.unlock() }
            return cancelled
        }
        let thread = Thread { [self] in produce() }
        thread.name = "porter cursor"
        thread.start()
    }

    /// The producer: the class exported into the pipe, then the write end closed (end of file).
    private func produce() {
        let output = ByteOutput(fileDescriptor: writeEnd, name: className, closeWhenDone: false)
        do {
            _ = try exporter.export(className: className, to: output)
        } catch {
            failure = error
        }
        Glibc.close(writeEnd)
        finished.signal()
    }

    /// The next document (nil at the end), or the producer's failure once every document before
    /// it was read.
    func next() throws -> ArraySlice<UInt8>? {
        while true {
            if let document = try takeDocument() { return document }
            if atEnd {
                join()
                if let failure {
                    self.failure = nil
                    throw failure
                }
                if start < buffer.count {
                    throw CallError(.invalidData, "the export of \(className) ended inside a document")
                }
                return nil
            }
            try fill()
        }
    }

    /// A failure met after some documents of a batch: returned by the next call.
    private var pendingFailure: (any Error)?

    /// Up to `limit` documents in one buffer (`porter_cursor_next_batch`): text documents as one
    /// JSON array (`[d1,d2,…]`, each exactly as ``next()`` gives it), BSON documents one after
    /// another; nil at the end. A failure after the first document is kept for the next call, so
    /// every document before it is returned first, as with ``next()``.
    func nextBatch(limit: Int) throws -> (bytes: [UInt8], count: Int)? {
        if let failure = pendingFailure {
            pendingFailure = nil
            throw failure
        }
        var bytes: [UInt8] = bson ? [] : [UInt8(ascii: "[")]
        var count = 0
        while count < limit {
            let document: ArraySlice<UInt8>?
            do {
                document = try next()
            } catch {
                guard count > 0 else { throw error }
                pendingFailure = error
                break
            }
            guard let document else { break }
            if !bson && count > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: document)
            count += 1
        }
        guard count > 0 else { return nil }
        if !bson { bytes.append(UInt8(ascii: "]")) }
        return (bytes, count)
    }

    /// One complete document from the buffer, if it holds one.
    private func takeDocument() throws -> ArraySlice<UInt8>? {
        let available = buffer.count - start
        if bson {
            guard available >= 4 else { return nil }
            let size = buffer[start..<start + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard size >= 5 else { throw CallError(.invalidData, "a BSON document of \(size) bytes") }
            guard available >= size else { return nil }
            defer { start += size }
            return buffer[start..<start + size]
        }
        guard let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        defer { start = newline + 1 }
        return buffer[start..<newline]
    }

    /// Reads more of the pipe (dropping what was consumed); sets `atEnd` at end of file.
    private func fill() throws {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return
            }
            if n == 0 {
                atEnd = true
                return
            }
            if errno == EINTR { continue }
            throw CallError(.io, "cannot read the cursor's pipe: \(String(cString: strerror(errno)))")
        }
    }

    /// Stops the producer (it checks before each document; the pipe is drained so that it is
    /// never left blocked) and waits for it.
    func close() {
        cancelFlag.lock()
        cancelled = true
        cancelFlag.unlock()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !atEnd {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { atEnd = true }
        }
        join()
        Glibc.close(readEnd)
        buffer = []
    }

    private func join() {
        guard !joined else { return }
        finished.wait()
        joined = true
    }
}
