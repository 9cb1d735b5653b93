import Foundation

/// Progress of a long import or export on a terminal: documents done, rate and (when the total
/// is known) time left, one stderr line rewritten a few times a second. Silent when stderr is
/// not a terminal or with `--quiet`, so logs and pipes only get the final summary.
final class ProgressLine: @unchecked Sendable {
    private let verb: String
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    private var drew = false
    /// The documents expected in all, when known.
    var total: Int?
    /// The bytes to read in all, when known (imports measure their progress in file bytes).
    var totalBytes: Int64?

    /// A progress line, or nil when nothing should be drawn.
    static func make(verb: String, quiet: Bool) -> ProgressLine? {
        quiet || isatty(2) != 1 ? nil : ProgressLine(verb: verb)
    }

    private init(verb: String) { self.verb = verb }

    /// Reports `done` documents; redraws at most five times a second. `bytes` (with
    /// ``totalBytes``) gives the fraction done when the document total is unknown.
    func update(_ done: Int, bytes: Int64? = nil) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw >= 200_000_000 else { return }
        lastDraw = now
        drew = true
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = "\r\u{1B}[K\(verb) \(done)"
        if let total { line += "/\(total)" }
        line += " documents, \(Int(rate))/s"
        if let total, rate > 0, total > done {
            line += ", \(Int((Double(total - done) / rate).rounded(.up)))s left"
        } else if let bytes, let totalBytes, bytes > 0, totalBytes > bytes {
            let fraction = Double(bytes) / Double(totalBytes)
            line += ", \(Int((seconds * (1 - fraction) / fraction).rounded(.up)))s left"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Clears the line before the summary is printed.
    func finish() {
        if drew { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
