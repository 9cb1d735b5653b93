import Foundation

/// One row of the results table.
struct ResultRow: Codable {
    var operation: String
    var shape: String
    var objects: Int
    var seconds: Double
    var bytes: Int
    var peakRSSBytes: Int
    var reference: String?
    var referenceSeconds: Double?
    /// Objects the reference processed (its time is scaled to Porter's object count).
    var referenceObjects: Int?
    /// Porter's time per object divided by the reference's (lower is better; 1.0 = the floor).
    var ratio: Double? {
        guard let referenceSeconds else { return nil }
        let referencePerObject = referenceSeconds / Double(max(referenceObjects ?? objects, 1))
        return (seconds / Double(max(objects, 1))) / max(referencePerObject, 1e-12)
    }
    var target: Double?
    var note: String?

    var objectsPerSecond: Double { Double(objects) / max(seconds, 1e-9) }
    var megabytesPerSecond: Double { Double(bytes) / 1_048_576 / max(seconds, 1e-9) }

    enum CodingKeys: String, CodingKey {
        case operation, shape, objects, seconds, bytes, peakRSSBytes, reference, referenceSeconds, referenceObjects,
            target, note
    }
}

/// The machine a run happened on, for the Performance guide.
struct MachineInfo: Codable {
    var cpu: String
    var cores: Int
    var memoryGiB: Double
    var system: String

    static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown"
        var uts = utsname()
        uname(&uts)
        let system =
            withUnsafeBytes(of: &uts.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            + " " + withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return MachineInfo(
            cpu: model ?? "unknown", cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            system: system)
    }
}

/// Prints the table and writes `bench-results.json`.
enum Report {
    static func format(_ rows: [ResultRow]) -> String {
        var lines = [
            "| operation | shape | objects | objects/s | MB/s | peak RSS | reference | ratio | target |",
            "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |",
        ]
        for r in rows {
            let ratio = r.ratio.map { String(format: "%.2f×", $0) } ?? "–"
            let target: String
            if let t = r.target, let ratio = r.ratio {
                target = ratio <= t ? String(format: "≤ %.1f× met", t) : String(format: "≤ %.1f× MISSED", t)
            } else {
                target = r.note ?? ""
            }
            lines.append(
                "| \(r.operation) | \(r.shape) | \(r.objects) | \(String(format: "%.0f", r.objectsPerSecond)) | \(String(format: "%.1f", r.megabytesPerSecond)) | \(String(format: "%.0f MB", Double(r.peakRSSBytes) / 1_048_576)) | \(r.reference ?? "–") | \(ratio) | \(target) |"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func writeJSON(_ rows: [ResultRow], objects: Int, to path: String) throws {
        struct Output: Codable {
            var date: String
            var objectsPerShape: Int
            var machine: MachineInfo
            var results: [ResultRow]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let out = Output(
            date: ISO8601DateFormatter().string(from: Date()), objectsPerShape: objects,
            machine: .current(), results: rows)
        try encoder.encode(out).write(to: URL(fileURLWithPath: path))
    }
}
