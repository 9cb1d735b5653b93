import Foundation
import PorterCommands
import PorterModel
import PorterRealmFile
import PorterTestSupport
import Testing

/// `porter salvage` on a seeded corpus of damaged files: every object of the intact file is either
/// recovered (equal to the intact one, but for values reported nulled) or inside a key range the
/// report names; the recovered file passes `porter check`; the input is never written.
@Suite struct SalvageCorpusTests {
    /// Objects `Owner {id pk, name, pets: [Pet]}` and `Pet {name, age}` (links), `count` owners.
    struct Linked: RealmWriteSource {
        var count: Int
        func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
            for i in 0..<count {
                if className == "Pet" {
                    try body(Int64(i), [.string("pet \(i)"), .int(Int64(i % 17))])
                } else {
                    try body(
                        Int64(i),
                        [
                            .int(Int64(i)), .string("owner \(i)"),
                            .list([
                                .link(className: "Pet", key: Int64(i)),
                                .link(className: "Pet", key: Int64((i * 7) % count)),
                            ]),
                        ])
                }
            }
        }
    }

    /// The intact fixtures: two of Fixtures/realm, three written by Porter.
    static func fixtures(in dir: URL) throws -> [String] {
        let realmDir = RealmFileCareTests.realmDir
        var out = [
            realmDir.appendingPathComponent("every-type.realm").path,
            realmDir.appendingPathComponent("inner-nodes.realm").path,
        ]
        let items = dir.appendingPathComponent("items.realm").path
        let itemSchema = try Schema(
            jsonString: """
                {"schemaVersion": 3, "classes": [{"name": "Item", "properties": {"id": "int", "label": "string", "tags": "string[]"}}]}
                """)
        try RealmFileWriter(schema: itemSchema, schemaVersion: 3).write(
            to: items, source: RealmFileCareKillTests.Items(count: 4000))
        let linked = dir.appendingPathComponent("linked.realm").path
        let linkedSchema = try Schema(
            jsonString: """
                {"schemaVersion": 1, "classes": [{"name": "Owner", "primaryKey": "id", "properties": {"id": "int", "name": "string", "pets": "Pet[]"}},
                 {"name": "Pet", "properties": {"name": "string", "age": "int"}}]}
                """)
        try RealmFileWriter(schema: linkedSchema, schemaVersion: 1).write(to: linked, source: Linked(count: 2500))
        let rewritten = dir.appendingPathComponent("every-type-rewritten.realm").path
        let export = CapturedOutput.run(["export", out[0], "--format", "realm", "--out", rewritten])
        #expect(export.status == 0, "\(export.output.stderr)")
        out += [items, linked, rewritten]
        return out
    }

    enum Damage: String, CaseIterable {
        case zeroedPage, corruptedLeaf, brokenNode, truncatedTail, damagedTopArray
    }

    static func topRef(_ bytes: [UInt8]) -> Int {
        let select = Int(bytes[23] & 1)
        return (0..<8).reduce(0) { $0 | Int(bytes[8 * select + $1]) << (8 * $1) }
    }

    /// One damaged copy: `kind` applied at a seeded place.
    static func damage(_ bytes: [UInt8], _ kind: Damage, _ g: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        let top = topRef(bytes)
        switch kind {
        case .zeroedPage:
            let pages = max(1, (bytes.count - 24) / 4096)
            let start = 24 + Int.random(in: 0..<pages, using: &g) * 4096 / 8 * 8
            for i in start..<min(bytes.count, start + 4096) where i < top || i >= top + 64 { out[i] = 0 }
        case .corruptedLeaf:
            let start = Int.random(in: 3..<max(4, top / 8), using: &g) * 8
            for i in start..<min(top, start + 48) { out[i] = UInt8.random(in: 0...255, using: &g) }
        case .brokenNode:
            // A node header: the "AAAA" checksum bytes precede every header realm-core writes.
            var headers: [Int] = []
            var i = 24
            while i + 8 <= top {
                if bytes[i] == 0x41 && bytes[i + 1] == 0x41 && bytes[i + 2] == 0x41 && bytes[i + 3] == 0x41 {
                    headers.append(i)
                }; i += 8
            }
            if let at = headers.randomElement(using: &g) {
                out[at + 4] = 0xC7  // inner + has-refs, width 64
                out[at + 5] = 0xFF
            }
        case .truncatedTail:
            out = Array(bytes.prefix(Int.random(in: bytes.count / 2..<bytes.count, using: &g) / 8 * 8))
        case .damagedTopArray:
            // Two snapshots: the file's bytes again after it (refs still point into the first copy),
            // the current top ref in the copy; then the current top array is broken.
            let shift = bytes.count - 24
            out = bytes + Array(bytes[24...])
            let select = Int(out[23] & 1)
            let current = top + shift
            for b in 0..<8 { out[8 * select + b] = UInt8(truncatingIfNeeded: current >> (8 * b)) }
            for b in 0..<8 { out[8 * (select ^ 1) + b] = UInt8(truncatingIfNeeded: top >> (8 * b)) }
            out[20 + (select ^ 1)] = out[20 + select]
            for b in current + 8..<min(out.count, current + 40) { out[b] = 0xEE }
        }
        return out
    }

    /// Whether Porter's reader refuses the file (opening, checking or reading every object).
    static func refused(_ path: String) -> Bool {
        guard let file = try? RealmFile(path: path) else { return true }
        guard let problems = try? file.check(), problems.isEmpty else { return true }
        for table in file.tables where !table.isEmbedded {
            if (try? file.forEachObject(in: table) { _ in }) == nil { return true }
        }
        return false
    }

    /// Lost key ranges ("a...b", "a...end", "k") contain `key`.
    static func covers(_ lost: [String], _ key: Int64) -> Bool {
        lost.contains { range in
            let parts = range.components(separatedBy: "...")
            guard let low = Int64(parts[0]) else { return range.hasPrefix("child") }
            if parts.count == 1 { return key == low }
            return key >= low && (parts[1] == "end" || Int64(parts[1]).map { key <= $0 } ?? false)
        }
    }

    @Test func aSeededCorpusOfDamagedFilesIsSalvaged() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        var g = SeededGenerator(seed: 2121)
        var made = 0
        var outcomes: [String: Int] = [:]
        for (f, fixture) in try Self.fixtures(in: dir).enumerated() {
            let intact = try RealmFile(path: fixture)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture)))
            for kind in Damage.allCases {
                var kept = 0, attempts = 0
                while kept < 3 && attempts < 40 {
                    attempts += 1
                    let damaged = Self.damage(bytes, kind, &g)
                    let path = dir.appendingPathComponent("d\(f)-\(kind.rawValue)-\(attempts).realm").path
                    try Data(damaged).write(to: URL(fileURLWithPath: path))
                    guard Self.refused(path) else { try FileManager.default.removeItem(atPath: path); continue }
                    kept += 1
                    made += 1
                    outcomes[try salvage(path, intact: intact, kind: kind, damaged: Data(damaged)), default: 0] += 1
                }
            }
        }
        print("salvage corpus: \(made) damaged files, outcomes \(outcomes)")
        #expect(made >= 50, "only \(made) damaged files the reader refuses")
        #expect((outcomes["lost"] ?? 0) > 0 && (outcomes["previous"] ?? 0) >= 5, "\(outcomes)")
    }

    /// Salvages one damaged file and checks the outcome against the intact file. Returns what happened.
    func salvage(_ path: String, intact: RealmFile, kind: Damage, damaged: Data) throws -> String {
        let out = path + ".recovered.realm"
        let run = CapturedOutput.run(["salvage", path, "--out", out])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged, "the input was written")
        if run.status == 1 {
            #expect(run.output.stderr.contains("nothing readable"), "\(path): \(run.output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(
                kind == .truncatedTail || kind == .corruptedLeaf || kind == .zeroedPage || kind == .brokenNode,
                "\(path): nothing readable after \(kind)")
            return "nothing"
        }
        #expect(run.status == 0 || run.status == 3, "\(path): \(run.output.stderr)")
        #expect(CapturedOutput.run(["check", out]).status == 0, "\(path): the recovered file does not pass check")
        // The snapshot salvage took, read again through the API with the original keys.
        let current = try? RealmFile(path: path)
        let previous = RealmFile.previousSnapshot(of: path)
        if kind == .damagedTopArray {
            #expect(run.output.stdout.contains("previous snapshot"), "\(path): \(run.output.stdout)")
        }
        var anyLost = false
        for table in intact.tables where !table.isEmbedded {
            let usesPrevious =
                run.output.stdout.contains("  \(table.name): ")
                && run.output.stdout.split(separator: "\n")
                    .first { $0.hasPrefix("  \(table.name): ") }?.contains("previous snapshot") == true
            guard let file = usesPrevious ? previous : (current ?? previous),
                let damagedTable = file.table(named: table.name)
            else { continue }
            var report = RealmSalvageClassReport(className: table.name)
            var seen = Set<Int64>()
            var differing = 0
            try file.salvageObjects(in: damagedTable, report: &report) { object, replaced in
                seen.insert(object.key)
                guard let original = try intact.object(in: table, key: object.key) else {
                    Issue.record("\(path): \(table.name) key \(object.key) is not in the intact file")
                    return
                }
                for (i, value) in object.values.enumerated()
                where !replaced.contains(i) && !value.isSameStoredValue(as: original.values[i]) {
                    differing += 1
                    break
                }
            }
            anyLost = anyLost || report.lostSomething
            // Every intact object is recovered or named as lost.
            var unaccounted = 0
            try intact.forEachObject(in: table) { object in
                if !seen.contains(object.key) && !Self.covers(report.lostKeys, object.key) { unaccounted += 1 }
            }
            #expect(
                unaccounted == 0, "\(path): \(unaccounted) objects of \(table.name) neither recovered nor reported lost"
            )
            if kind == .damagedTopArray { #expect(differing == 0 && !report.lostSomething, "\(path): \(table.name)") }
            if report.lostSomething {
                #expect(run.output.stdout.contains(table.name), "\(path): the report does not name \(table.name)")
            }
        }
        #expect(!anyLost || run.status == 3, "\(path): status \(run.status), lost \(anyLost)")
        if kind == .damagedTopArray { return "previous" }
        return run.status == 3 ? "lost" : "whole"
    }
}
