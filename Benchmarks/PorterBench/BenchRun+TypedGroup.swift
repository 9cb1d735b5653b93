import Foundation

extension BenchRun {
    /// Issue #22's rows alone (`--only typed`, `make bench ONLY=typed`): typed writes, typed reads
    /// and the sorted query of a flat class (with their SQLite loops), typed reads of a Realm file,
    /// the BSON import next to its in-process floor, and the 1,000-object fixture load; then the
    /// six rows side by side with their references and targets. realm-core's figures come from
    /// `realm-oracle bench` in the same run when `$REALM_ORACLE` (or ../shared/tools) has one.
    mutating func runTypedGroup() throws {
        if realmOracle == nil {
            print("  realm-oracle not found ($REALM_ORACLE): the rows beside realm-core are not measured")
        }
        try runTypedAndFixtures()
        try runTypedRealmFile()
        try runFlatBSONImport()
        printIssue22Summary()
    }

    /// Builds the flat dataset, exports it as BSON once, and measures `porter import` of that
    /// export next to the libbson+sqlite3 insert loop (``runBSONImportFloor(dir:source:importBSON:)``).
    private mutating func runFlatBSONImport() throws {
        let dir = try freshFolder("flat")
        let db = "\(dir)/source.porter"
        _ = try child(["build", Shape.flat.rawValue, String(objects), db], once: true)
        let out = "\(dir)/export-bson"
        _ = try measure(porter, ["export", db, "--out", out, "--format", "bson"], once: true)
        let target = "\(dir)/import-bson.porter"
        let imported = try measure(porter, ["import", target, out, "--create"]) { removeDatabase(target) }
        record("import bson", "flat", imported, bytes: diskSize(out))
        try runBSONImportFloor(dir: dir, source: db, importBSON: imported)
    }

    /// The six rows of issue #22 with their references, ratios and targets, as one table.
    private func printIssue22Summary() {
        func row(_ operation: String) -> ResultRow? { rows.last { $0.operation == operation } }
        let lines: [(label: String, operation: String)] = [
            ("add N objects in one write", "typed writes vs realm-core"),
            ("read every property", "typed reads vs realm-core"),
            ("count > 500 sorted by price, count+first", "typed query+sort vs realm-core"),
            ("typed read of a Realm file", "typed reads Realm file vs realm-core"),
            ("import bson vs in-process floor", "import bson vs in-process floor"),
        ]
        print("\nIssue #22, \(objects) objects (Porter | reference | ratio | target):")
        print("| operation | Porter | reference | ratio | target |")
        print("| --- | ---: | --- | ---: | --- |")
        for (label, operation) in lines {
            guard let r = row(operation), let ratio = r.ratio, let target = r.target else {
                print("| \(label) | – | not measured | – | – |")
                continue
            }
            // The reference's seconds scaled to this run's object count, as the ratio is.
            let scaled = (r.referenceSeconds ?? 0) * Double(r.objects) / Double(max(r.referenceObjects ?? r.objects, 1))
            let met = ratio <= target ? "met" : "not met"
            print(
                String(
                    format: "| %@ | %.2f s, %.0f MB | %@ %.3f s | %.2f× | ≤ %.0f× %@ |", label as NSString, r.seconds,
                    Double(r.peakRSSBytes) / 1_048_576, (r.reference ?? "") as NSString, scaled, ratio, target,
                    met as NSString))
        }
        if let fixture = row("fixture load (1,000 objects)") {
            // The fixture row's objects are 1,000 per load.
            let perLoad = fixture.seconds / Double(max(fixture.objects / 1000, 1)) * 1000
            print(
                String(
                    format: "| load a 1,000-object fixture | %.1f ms per load | – | – | ≤ 5 ms %@ |", perLoad,
                    (perLoad <= 5 ? "met" : "not met") as NSString))
        }
        if let note = row("typed writes vs realm-core")?.note { print("realm-core: \(note)") }
    }
}
