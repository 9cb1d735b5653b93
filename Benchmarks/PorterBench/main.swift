import Foundation
import Porter
import PorterBenchReference

// `porter-bench`: generates seeded datasets, runs each operation in its own process (so peak
// memory is per operation), and prints Porter next to its reference as ratios.
//
//   porter-bench [--objects N] [--shapes flat,onelink,linked,nested] [--repeat R] [--work DIR] [--json FILE]
//                [--only leaving|realm-walks|create|studio|typed|bindings|check|postgres]   (one group of rows; see the Makefile's ONLY)
//   porter-bench child OPERATION ARGS…   (internal: one in-process operation)

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String, _ fallback: String) -> String {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return fallback }
    return arguments[i + 1]
}

do {
    if arguments.first == "child" {
        try ChildOperations.run(Array(arguments.dropFirst()))
    } else {
        let objects = Int(option("--objects", "1000000")) ?? 1_000_000
        let shapes = option("--shapes", "flat,onelink,linked,nested").split(separator: ",").compactMap {
            Shape(rawValue: String($0))
        }
        var bench = try BenchRun(
            objects: objects, shapes: shapes,
            work: option("--work", ".build/bench"), jsonPath: option("--json", "bench-results.json"),
            repeats: Int(option("--repeat", "3")) ?? 3, rows: option("--only", "") == "leaving" ? "leaving" : "all")
        switch option("--only", "") {
        case "", "leaving": try bench.runAll()
        case "realm-walks": try bench.runOnly { try $0.runRealmDiffAndEmbedding() }
        case "create": try bench.runOnly { try $0.runCreateScaling() }
        case "studio": try bench.runOnly { try $0.runStudio() }
        case "typed": try bench.runOnly { try $0.runTypedGroup() }
        case "bindings": try bench.runOnly { try $0.runBindings() }
        case "check": try bench.runOnly { try $0.runCheck() }
        case "inapp": try bench.runOnly { try $0.runInApp() }
        case "postgres": try bench.runOnly { try $0.runPostgres() }
        case let other:
            FileHandle.standardError.write(
                Data(
                    "porter-bench: unknown --only '\(other)' (use leaving, realm-walks, create, studio, typed, bindings, check, inapp or postgres)\n"
                        .utf8
                ))
            exit(64)
        }
    }
} catch {
    FileHandle.standardError.write(Data("porter-bench: error: \(error)\n".utf8))
    exit(1)
}
