import Foundation
import Porter
import Testing
import PorterTestSupport

/// Kills a command with SIGKILL at random moments and checks every file it leaves behind: it
/// opens, passes `integrity_check` and `checkConsistency()`, and holds exactly one of the states
/// an undisturbed run passes through (old or new; for a multi-transaction writer, any committed
/// prefix).
struct TortureHarness {
    /// Kills per scenario: `PORTER_TORTURE_KILLS` (`make torture` sets hundreds), else a handful.
    static let kills = ProcessInfo.processInfo.environment["PORTER_TORTURE_KILLS"].flatMap { Int($0) } ?? 3
    /// The seed of the kill moments: `PORTER_TORTURE_SEED`, else a fixed one (reproducible runs).
    static let seed = ProcessInfo.processInfo.environment["PORTER_TORTURE_SEED"].flatMap { UInt64($0) } ?? 20_251_121

    /// What the runs of one scenario did.
    struct Tally: CustomStringConvertible {
        var name: String
        var runs = 0
        var killedMidRun = 0
        var finished = 0
        var states: [String: Int] = [:]
        var failures = 0

        var description: String {
            let seen = states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return
                "torture \(name): \(runs) runs, \(killedMidRun) killed mid-run, \(finished) finished, \(failures) failures; states: \(seen)"
        }
    }

    let name: String
    let dir: TemporaryFolder
    /// The untouched starting file, copied before every run.
    let original: String
    /// Digest → name of every legitimate state.
    let states: [String: String]
    /// How long an undisturbed run takes (kill moments are drawn from 0 to 1.2 × this).
    let duration: Double
    /// The command, given the victim's path: executable and arguments.
    let command: (String) -> (String, [String])

    /// Runs `kills` rounds; every failed check is recorded as a test issue naming the seed and round.
    func run(seed: UInt64 = TortureHarness.seed, kills: Int = TortureHarness.kills) throws -> Tally {
        // Each scenario draws its own moments (String.hashValue is randomized per process; FNV-1a is not).
        var random = SeededGenerator(
            seed: seed ^ name.utf8.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })
        var tally = Tally(name: name)
        for round in 0..<kills {
            let victim = try dir.copyDatabase(original, to: "\(name)-victim.porter")
            defer {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: victim + suffix)
                }
            }
            let delay = random.unit(duration * 1.2)
            let (executable, args) = command(victim)
            let result = try RunningChild.run(executable, args, killAfter: delay)
            tally.runs += 1
            if result.killedWhileRunning {
                tally.killedMidRun += 1
            } else {
                tally.finished += 1
                #expect(
                    result.status == 0,
                    "\(name) seed \(seed) round \(round): an undisturbed run failed: \(result.stderr)")
            }
            do {
                let digest = try DatabaseState.verify(victim)
                if let state = states[digest] {
                    tally.states[state, default: 0] += 1
                } else {
                    tally.failures += 1
                    Issue.record(
                        "\(name) seed \(seed) round \(round) (killed after \(String(format: "%.3f", delay)) s): the file holds neither of the expected states"
                    )
                }
            } catch {
                tally.failures += 1
                Issue.record(
                    "\(name) seed \(seed) round \(round) (killed after \(String(format: "%.3f", delay)) s): \(error)")
            }
        }
        print(tally)
        return tally
    }

    /// Times an undisturbed run of `command` on a copy of `original` and returns the copy's path.
    static func referenceRun(
        _ dir: TemporaryFolder, _ original: String, name: String,
        _ command: (String) -> (String, [String])
    ) throws -> (path: String, seconds: Double) {
        let path = try dir.copyDatabase(original, to: "\(name).porter")
        let (executable, args) = command(path)
        let started = Date()
        let result = try RunningChild.run(executable, args)
        guard result.status == 0 else { throw ChildError(description: "\(name): \(result.stderr)") }
        return (path, Date().timeIntervalSince(started))
    }
}
