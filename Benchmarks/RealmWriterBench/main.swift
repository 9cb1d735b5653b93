import Foundation
import PorterModel
import PorterRealmFile

// Writes the flat class of `realm-oracle bench` (Item {_id int pk, n int, x double, y double,
// name string, note string, flag bool, ts date}) with N objects and prints the time and peak RSS.
// Usage: porter-realm-write-bench N OUT.realm [--encrypt]   (--encrypt: key bytes 0...63)

struct BenchSource: RealmWriteSource {
    let count: Int64
    func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        for i in 0..<count {
            try body(
                i,
                [
                    .int(i), .int(i), .double(Double(i) * 0.5), .double(Double(i) * 0.25), .string("name-\(i)"),
                    .string("fixed-note-24-characters"), .bool(i % 2 == 1), .timestamp(seconds: i, nanoseconds: 0),
                ])
        }
    }
}

let arguments = CommandLine.arguments
let count = Int64(arguments.count > 1 ? arguments[1] : "1000000") ?? 1_000_000
let out = arguments.count > 2 ? arguments[2] : "/tmp/porter-bench.realm"
let schema = Schema(classes: [
    ObjectSchema(
        name: "Item",
        properties: [
            Property(name: "_id", type: .int), Property(name: "n", type: .int), Property(name: "x", type: .double),
            Property(name: "y", type: .double), Property(name: "name", type: .string),
            Property(name: "note", type: .string),
            Property(name: "flag", type: .bool), Property(name: "ts", type: .date),
        ], primaryKey: "_id")
])
let start = Date()
let key: [UInt8]? = arguments.contains("--encrypt") ? (0..<64).map { UInt8($0) } : nil
try RealmFileWriter(schema: schema, schemaVersion: 1).write(
    to: out, source: BenchSource(count: count), encryptionKey: key)
let seconds = Date().timeIntervalSince(start)
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
print(
    "{\"objects\": \(count), \"writeSeconds\": \(String(format: "%.3f", seconds)), \"maxRSSMB\": \(usage.ru_maxrss / 1024), \"fileBytes\": \(size)}"
)
