import Foundation
import Porter

extension BenchRun {
    /// Issue #38's rows that need no other program: `porter verify` of a Realm file of N flat
    /// objects against its SQLite export, beside the export itself (at most 2×), and the
    /// embeddable reader's memory: the peak RSS of reading every object as dynamic objects
    /// (`forEachDynamicObject`, what an app's migration does) at N objects against the peak at
    /// N/10 (at most 1.5×: phones kill apps that grow).
    mutating func runInApp() throws {
        let dir = try freshFolder("inapp")
        let realmFile = "\(dir)/items.realm", export = "\(dir)/items.sqlite"
        _ = try child(["realmfile-write", String(objects), realmFile], once: true)
        let exported = try measure(porter, ["export", realmFile, "--format", "sqlite", "--out", export]) {
            try? FileManager.default.removeItem(atPath: export)
        }
        let verified = try measure(porter, ["verify", realmFile, export])
        record(
            "porter verify Realm vs SQLite", "flat", verified, bytes: diskSize(realmFile),
            reference: ("porter export --format sqlite", exported), target: 2)

        let small = "\(dir)/small.realm"
        let smallCount = max(1, objects / 10)
        _ = try child(["realmfile-write", String(smallCount), small], once: true)
        let readSmall = try child(["realmfile-dynamic-read", small])
        let readLarge = try child(["realmfile-dynamic-read", realmFile])
        let memory = Double(readLarge.peakRSSBytes) / Double(max(readSmall.peakRSSBytes, 1))
        let summary = String(
            format: "peak memory %.0f MB at %d objects vs %.0f MB at %d: %.2f× (target ≤ 1.5×)",
            Double(readLarge.peakRSSBytes) / 1_048_576, objects, Double(readSmall.peakRSSBytes) / 1_048_576,
            smallCount, memory)
        record("dynamic read (embeddable)", "flat", readLarge, bytes: diskSize(realmFile), note: summary)
        print("    " + summary)
    }
}
