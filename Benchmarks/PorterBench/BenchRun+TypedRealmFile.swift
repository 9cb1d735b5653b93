import Foundation
import Porter

extension BenchRun {
    /// realm-core's read of every property of 1,000,000 flat objects, quoted from issue #22
    /// (realm-core 14.14 built from source on this kind of machine: 0.3–0.5 s; the faster figure).
    static let quotedRealmCoreReadAllSeconds = 0.3

    /// A Realm file written by Porter's writer, read through the typed API (natively, read-only)
    /// against realm-core's read-all (its own figure when the oracle is present, else the quoted
    /// one) and against PorterRealmFile reading the same file directly; opening it alone, whose
    /// peak memory shows that opening does not load the file.
    mutating func runTypedRealmFile() throws {
        let dir = "\(work)/typed-realmfile"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = "\(dir)/items.realm"
        _ = try child(["realmfile-write", String(objects), path], once: true)
        let typed = try child(["typed-realmfile-read", path])
        let direct = try child(["realmfile-read", path])
        let opened = try child(["typed-realmfile-open", path])
        var core = Measured(
            seconds: Self.quotedRealmCoreReadAllSeconds, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
        var note = "realm-core figure quoted from issue #22 (0.3–0.5 s at 1,000,000; realm-core is not on this machine)"
        if let figures = try realmCoreFigures(),
            let seconds = (figures["typedReadAllSeconds"] ?? figures["readAllSeconds"]) as? Double
        {
            core = Measured(seconds: seconds, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
            note = "realm-core 14.14.0 (realm-oracle bench)"
        }
        record(
            "typed reads Realm file vs realm-core", "flat", typed, bytes: diskSize(path),
            reference: ("realm-core read all properties", core),
            referenceObjects: figuresObjects(quoted: note.hasPrefix("realm-core figure quoted")), target: 2.0,
            note: note)
        record(
            "typed reads Realm file vs RealmFile", "flat", typed, bytes: diskSize(path),
            reference: ("PorterRealmFile forEachObject", direct))
        record(
            "typed open Realm file, count+first+last", "flat", opened, bytes: diskSize(path),
            note: "peak RSS of opening: the file is not loaded")
    }

    /// The object count a realm-core figure is for: the quoted one is for 1,000,000 objects.
    private func figuresObjects(quoted: Bool) -> Int { quoted ? 1_000_000 : objects }
}
