import Foundation
import Porter

extension BenchRun {
    /// A Realm file written by Porter's writer, read through the typed API (natively, read-only)
    /// against realm-core's read-all in the same run (not measured without the oracle) and against PorterRealmFile reading the same file directly; opening it alone, whose
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
        if let figures = try realmCoreFigures(),
            let seconds = (figures["typedReadAllSeconds"] ?? figures["readAllSeconds"]) as? Double
        {
            record(
                "typed reads Realm file vs realm-core", "flat", typed, bytes: diskSize(path),
                reference: (
                    "realm-core read all properties",
                    Measured(seconds: seconds, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
                ), referenceObjects: objects, target: 2.0, note: "realm-core 14.14.0 (realm-oracle bench)")
        } else {
            // No realm-core in this run: not measured (a quoted figure is never a reference).
            record(
                "typed reads Realm file vs realm-core", "flat", typed, bytes: diskSize(path),
                note: "not measured: realm-oracle not found ($REALM_ORACLE)")
        }
        record(
            "typed reads Realm file vs RealmFile", "flat", typed, bytes: diskSize(path),
            reference: ("PorterRealmFile forEachObject", direct))
        record(
            "typed open Realm file, count+first+last", "flat", opened, bytes: diskSize(path),
            note: "peak RSS of opening: the file is not loaded")
    }
}
