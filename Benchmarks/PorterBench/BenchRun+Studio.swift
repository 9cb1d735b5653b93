import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension BenchRun {
    /// `porter studio` on a class of `objects` flat objects, as a Porter database and as a Realm
    /// file: the first page, the first sort by a scalar column, a page in the middle of that order,
    /// and a query with its count, each timed from the request to the whole answer (a fresh studio
    /// per run, so every sort and query is a first one). The reference is `porter export --class
    /// Item --query Q` of the same file (one pass over the class); the studio's peak memory is
    /// its process's (VmHWM).
    mutating func runStudio() throws {
        let dir = try freshFolder("studio")
        let db = "\(dir)/items.porter", realm = "\(dir)/items.realm"
        _ = try child(["build", Shape.flat.rawValue, String(objects), db], once: true)
        _ = try measure(porter, ["export", db, "--format", "realm", "--out", realm], once: true) {
            try? FileManager.default.removeItem(atPath: realm)
        }
        // About half the objects (count is uniform in 0..<1,000,000).
        let query = "count >= 500000"
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let steps = [
            ("studio: first page", "offset=0&limit=50"),
            ("studio: first sort (price)", "offset=0&limit=50&sort=price"),
            ("studio: page after the sort", "offset=\(objects / 2)&limit=50&sort=price"),
            ("studio: query + count", "offset=0&limit=50&query=\(encoded)"),
        ]
        for (kind, file) in [("porter", db), ("realm", realm)] {
            let out = "\(dir)/export-query-\(kind)"
            let reference = try measure(
                porter, ["export", file, "--class", "Item", "--query", query, "--out", out, "--format", "bson"]
            ) { try? FileManager.default.removeItem(atPath: out) }
            var best = [Double](repeating: .infinity, count: steps.count)
            var peak = 0
            var total: Int64 = -1
            for _ in 0..<repeats {
                let studio = try StudioProcess(porter: porter, file: file)
                defer { studio.stop() }
                for (i, step) in steps.enumerated() {
                    let (seconds, answer) = try studio.get("/api/classes/Item/objects?" + step.1)
                    best[i] = min(best[i], seconds)
                    if i == 3 { total = Self.total(answer) }
                }
                peak = max(peak, studio.peakRSS())
            }
            for (i, step) in steps.enumerated() {
                let m = Measured(seconds: best[i], peakRSSBytes: peak, status: 0, stdout: "", stderr: "")
                let first = i == 0
                record(
                    step.0, "flat/\(kind)", m, bytes: 0,
                    reference: first ? nil : ("export --query (one pass)", reference), target: first ? nil : 2.0,
                    note: first ? String(format: "%.3f s (target < 1 s)", best[i]) : i == 3 ? "\(total) matches" : nil)
            }
        }
    }

    /// `total` of a page answer.
    private static func total(_ answer: Data) -> Int64 {
        let object = (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any]
        return (object?["total"] as? NSNumber)?.int64Value ?? -1
    }
}

/// A `porter studio FILE` process on a free port, its URL read from its first line.
private final class StudioProcess {
    let process = Process()
    let base: String
    let token: String

    init(porter: String, file: String) throws {
        process.executableURL = URL(fileURLWithPath: porter)
        process.arguments = ["studio", file]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { throw BenchError("porter studio \(file) stopped before printing its URL") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, let url = line.split(separator: " ").last,
            let range = url.range(of: "/?token=")
        else { throw BenchError("porter studio printed no URL: \(text)") }
        base = String(url[..<range.lowerBound])
        token = String(url[range.upperBound...])
    }

    /// The seconds a GET takes to its last byte, and the answer (a failure is an error).
    func get(_ uri: String) throws -> (Double, Data) {
        var request = URLRequest(url: URL(string: base + uri + "&token=" + token)!)
        request.timeoutInterval = 3600
        let result = AnswerBox()
        let done = DispatchSemaphore(value: 0)
        let start = DispatchTime.now().uptimeNanoseconds
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                result.value = .failure(error)
            } else {
                result.value = .success((data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
            }
            done.signal()
        }.resume()
        done.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let (data, status) = try result.value!.get()
        guard status == 200 else { throw BenchError("GET \(uri): \(status) \(String(decoding: data, as: UTF8.self))") }
        return (seconds, data)
    }

    /// The process's peak resident memory (VmHWM), in bytes.
    func peakRSS() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return 0
    }

    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        process.waitUntilExit()
    }
}

/// An answer set from URLSession's callback (the caller waits on a semaphore before reading it).
private final class AnswerBox: @unchecked Sendable {
    var value: Result<(Data, Int), Error>?
}
