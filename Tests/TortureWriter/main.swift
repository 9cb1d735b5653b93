// porter-torture-writer: the child process the hardening tests kill, lock against and limit.
//
//   create DB --seed S --objects N         a new database with the torture schema and N items
//   write DB --seed S --transactions N     N deterministic write transactions (Swift API)
//   hold DB --ready FILE --release FILE    holds the write lock until FILE appears
//   limit-exec --fsize BYTES -- PROG ARGS  runs PROG with a file-size limit, SIGXFSZ ignored
//   measure --rss-file FILE -- PROG ARGS   runs PROG and writes its peak resident memory (KiB)
//
// It prints one line per committed transaction and exits 0, or 1 with the error on stderr.
import Foundation
import Porter

/// Writes `line` to standard error and exits 1.
func fail(_ line: String) -> Never {
    FileHandle.standardError.write(Data("porter-torture-writer: \(line)\n".utf8))
    exit(1)
}

/// The value following `flag` in the arguments.
func option(_ flag: String, in args: [String]) -> String? {
    guard let i = args.firstIndex(of: flag), i + 1 < args.count else { return nil }
    return args[i + 1]
}

/// A numeric option, or `fallback`.
func number(_ flag: String, in args: [String], default fallback: Int) -> Int {
    option(flag, in: args).flatMap { Int($0) } ?? fallback
}

let args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { fail("usage: create|write|hold|limit-exec|measure …") }
do {
    switch command {
    case "create":
        guard args.count > 1 else { fail("create needs a database path") }
        let db = try Database.create(at: args[1], schema: try Schema(jsonString: TortureWorkload.schemaJSON))
        var workload = TortureWorkload(seed: UInt64(number("--seed", in: args, default: 1)))
        try db.write { try workload.createItems(db, count: number("--objects", in: args, default: 1_000), batch: 0) }
        print("created")
    case "write":
        guard args.count > 1 else { fail("write needs a database path") }
        let db = try Database.open(at: args[1])
        let seed = UInt64(number("--seed", in: args, default: 1))
        for t in 1...max(1, number("--transactions", in: args, default: 1)) {
            var workload = TortureWorkload(seed: seed &+ UInt64(t) &* 0x9E37_79B9)
            try db.write { try workload.transaction(db, number: t) }
            print("committed \(t)")
        }
    case "hold":
        guard args.count > 1, let ready = option("--ready", in: args), let release = option("--release", in: args)
        else {
            fail("hold needs DB --ready FILE --release FILE")
        }
        try LockHolder.hold(args[1], ready: ready, release: release)
    case "limit-exec":
        try LimitExec.run(args)
    case "measure":
        try Measure.run(args)
    default:
        fail("unknown command '\(command)'")
    }
} catch let error as PorterError {
    fail(error.headline)
} catch {
    fail("\(error)")
}
