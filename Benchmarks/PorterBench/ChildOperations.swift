import Foundation
import Porter
import PorterBenchReference

/// Operations run inside a child process, each printing `objects bytes` on stdout.
enum ChildOperations {
    static func run(_ args: [String]) throws {
        guard let op = args.first else { throw BenchError("child needs an operation") }
        let rest = Array(args.dropFirst())
        func arg(_ i: Int) throws -> String {
            guard i < rest.count else { throw BenchError("child \(op): missing argument \(i + 1)") }
            return rest[i]
        }
        switch op {
        case "build":
            guard let shape = Shape(rawValue: try arg(0)), let count = Int(try arg(1)) else {
                throw BenchError("build SHAPE N PATH")
            }
            try DatasetBuilder.build(shape, count: count, at: try arg(2))
            print("\(count) \(diskSize(try arg(2)))")
        case "ref-bson":
            let (docs, bytes) = try ReferenceLoops.bsonExport(
                database: try arg(0), shape: try arg(1), output: try arg(2))
            print("\(docs) \(bytes)")
        case "ref-insert":
            let rows = try ReferenceLoops.insertCopy(source: try arg(0), destination: try arg(1))
            print("\(rows) \(diskSize(try arg(1)))")
        case "ref-bson-insert":
            let rows = try ReferenceLoops.bsonInsert(source: try arg(0), bsonFile: try arg(1), destination: try arg(2))
            print("\(rows) \(diskSize(try arg(1)))")
        case "ref-migrate":
            let extra = rest.count > 1 ? rest[1].split(separator: ",").map(String.init) : []
            let rows = try ReferenceLoops.migrationRebuild(database: try arg(0), extraColumns: extra)
            print("\(rows) 0")
        case "ref-scan":
            print("\(try ReferenceLoops.scan(database: try arg(0))) 0")
        case "typed-write":
            guard let count = Int(try arg(0)) else { throw BenchError("typed-write N PATH") }
            try TypedOperations.write(count: count, path: try arg(1))
        case "typed-read":
            try TypedOperations.read(path: try arg(0))
        case "typed-query":
            try TypedOperations.sortedQuery(path: try arg(0))
        case "ref-query":
            let (count, first) = try ReferenceLoops.sortedQuery(database: try arg(0))
            print("\(count) \(first)")
        case "fixture-load":
            try TypedOperations.fixtureLoad(rounds: Int(try arg(0)) ?? 20)
        default:
            guard try TypedRealmFileOperations.run(op, rest) || ImportOperations.run(op, rest) else {
                throw BenchError("unknown child operation '\(op)'")
            }
        }
    }
}
