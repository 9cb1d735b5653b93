import ArgumentParser
import Foundation
import Porter
import PorterRealm

/// `porter salvage damaged.realm --out recovered.realm`: recovers everything readable of a damaged
/// Realm file and says exactly what was lost. The input is only read.
public struct SalvageCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "salvage",
        abstract: "Recover everything readable of a damaged Realm file into a new file, and say what was lost.",
        discussion: """
            Tries the current snapshot and the previous one (the header's other slot) and takes, per class, \
            the more complete; skips unreadable parts of a class's tree and unreadable columns; nulls links to \
            objects that were not recovered. Writes a new Realm file (format 24) or, with --format, an export \
            folder. The input is never written. Exit status: 0 nothing lost, 3 something lost, 1 nothing readable.
            """)
    /// The damaged file.
    @Argument(help: "The damaged Realm file (only read).") public var file: String
    /// The key of an encrypted file.
    @OptionGroup public var encryption: EncryptionOptions
    /// Where to write.
    @Option(name: .long, help: "The recovered Realm file, or with --format a folder (must not exist).") public var out:
        String
    /// The output format.
    @Option(name: .long, help: "realm (a Realm file), or an export format.")
    public var format: SalvageFormat = .realm
    /// `--file-format`: the format of the recovered Realm file.
    @OptionGroup public var fileFormat: FileFormatOption
    /// ArgumentParser requirement.
    public init() {}

    /// `--file-format` without a Realm file to write is an argument error (exit 64).
    public func validate() throws {
        do { try fileFormat.check(writesRealmFile: format == .realm, what: "salvage") } catch let error as PorterError {
            throw ValidationError(error.headline)
        }
    }

    /// One snapshot that could be opened, and what salvaging each class from it gives.
    struct Snapshot {
        var name: String
        var file: RealmFile
        var reports: [String: RealmSalvageClassReport] = [:]
    }

    /// Salvages the file, prints the report and exits 0, 3 or 1.
    public func run(output: CommandOutput) throws {
        guard !FileManager.default.fileExists(atPath: out) else {
            throw PorterError(.io, "already exists: salvage does not overwrite; choose another --out", location: out)
        }
        try fileFormat.check(writesRealmFile: format == .realm, what: "salvage")
        guard FileManager.default.fileExists(atPath: file) else {
            throw PorterError(.io, "no such file", location: file)
        }
        let key = try encryption.key()
        var snapshots: [Snapshot] = []
        var currentError: String?
        do {
            snapshots.append(Snapshot(name: "current snapshot", file: try StoreFile.openRealm(file, key: key)))
        } catch let error as PorterError {
            currentError = error.message
            // A file cut short whose newest top array survived: read what remains of it.
            if key == nil, let short = RealmFile.snapshot(of: file, previous: false) {
                snapshots.append(Snapshot(name: "current snapshot", file: short))
            }
        }
        let currentRead = !snapshots.isEmpty
        if key == nil, let previous = RealmFile.previousSnapshot(of: file) {
            snapshots.append(Snapshot(name: "previous snapshot", file: previous))
        }
        guard !snapshots.isEmpty else {
            throw PorterError(
                .notADatabase,
                "nothing readable: \(currentError ?? "the file does not open")"
                    + " (and no previous snapshot opens)", location: file)
        }
        if let currentError {
            output.err(
                currentRead
                    ? "porter: the current snapshot does not open whole (\(currentError)); reading what remains of it"
                    : "porter: the current snapshot does not open (\(currentError)); using the previous one")
        }
        // What each snapshot gives, per class; the more complete one is taken.
        let schema = snapshots[0].file.schema
        do {
            try schema.validate()
        } catch let error as PorterError {
            // Damage in the tables' descriptions reads as an impossible schema: no object can be trusted.
            throw PorterError(
                .notADatabase, "nothing readable: the stored schema is damaged (\(error.message))", location: file)
        }
        for s in snapshots.indices {
            for table in snapshots[s].file.tables where !table.isEmbedded {
                var report = RealmSalvageClassReport(className: table.name)
                try? snapshots[s].file.salvageObjects(in: table, report: &report) { _, _ in }
                snapshots[s].reports[table.name] = report
            }
        }
        var chosen: [String: Int] = [:]
        for cls in schema.classes where !cls.isEmbedded {
            let candidates = snapshots.indices.filter { snapshots[$0].file.table(named: cls.name) != nil }
            chosen[cls.name] = candidates.max { a, b in
                let ra = snapshots[a].reports[cls.name], rb = snapshots[b].reports[cls.name]
                let sa = (ra?.recovered ?? 0, -(ra?.nulled.values.reduce(0, +) ?? 0), -a)
                let sb = (rb?.recovered ?? 0, -(rb?.nulled.values.reduce(0, +) ?? 0), -b)
                return sa < sb
            }
        }
        let source = SalvageSource(snapshots: snapshots.map(\.file), chosen: chosen, schema: schema)
        var reports = try source.collectKeys()
        let nothingRead = !reports.isEmpty && reports.values.allSatisfy { $0.unreadable && $0.recovered == 0 }
        guard !nothingRead else {
            throw PorterError(.notADatabase, "nothing readable: every class's tree is damaged", location: file)
        }
        let version = snapshots[0].file.schemaVersion.map { UInt64(max(0, $0)) } ?? schema.version
        if format == .realm {
            try RealmFileWriter(schema: schema, schemaVersion: version, fileFormat: fileFormat.value).write(
                to: out, source: source)
        } else {
            let url = URL(fileURLWithPath: out)
            let temporary =
                url.deletingLastPathComponent().path + "/." + url.lastPathComponent
                + ".porter-salvage-\(getpid()).realm"
            defer { unlink(temporary) }
            try RealmFileWriter(schema: schema, schemaVersion: version).write(to: temporary, source: source)
            let export = try ExportCommand.parse([temporary, "--out", out, "--format", format.rawValue])
            try export.run(output: CommandOutput(out: { _ in }, err: output.err))
        }
        var lost = false
        output.out("Salvaged \(file) into \(out):")
        if !currentRead {
            // Everything the last commit wrote is only in the current snapshot.
            lost = true
            output.out(
                "  The current snapshot (the last commit) could not be read; recovered from the previous snapshot: "
                    + "what the last commit changed is lost.")
        }
        for cls in schema.classes where !cls.isEmbedded {
            guard let report = reports[cls.name], let s = chosen[cls.name] else { continue }
            lost = lost || report.lostSomething
            var line = "  \(cls.name): \(report.recovered) object\(report.recovered == 1 ? "" : "s") recovered"
            if snapshots.count > 1 || currentError != nil { line += " (from the \(snapshots[s].name))" }
            if report.unreadable { line += "; the class's tree is unreadable" }
            if !report.lostKeys.isEmpty { line += "; keys lost: \(report.lostKeys.joined(separator: ", "))" }
            for (property, count) in report.nulled.sorted(by: { $0.key < $1.key }) {
                line += "; \(property): \(count) value\(count == 1 ? "" : "s") unreadable, nulled"
            }
            if report.danglingLinks > 0 {
                line += "; \(report.danglingLinks) dangling link\(report.danglingLinks == 1 ? "" : "s") nulled"
            }
            output.out(line)
            for why in report.lostBecause { output.out("    lost \(why)") }
        }
        if lost {
            output.out("Something was lost (exit status 3); everything else is in \(out).")
            throw ExitCode(3)
        }
        output.out("Nothing was lost.")
    }
}

/// The recovered objects, as the Realm writer reads them: per class from the chosen snapshot,
/// links to objects not recovered nulled (dropped from collections), objects whose primary key
/// could not be read left out.
struct SalvageSource: RealmWriteSource {
    let snapshots: [RealmFile]
    let chosen: [String: Int]
    let schema: Schema
    /// Per class, the keys recovered (filled by ``collectKeys()``).
    private let keys = KeySets()

    final class KeySets: @unchecked Sendable {
        var byClass: [String: Set<Int64>] = [:]
    }

    init(snapshots: [RealmFile], chosen: [String: Int], schema: Schema) {
        self.snapshots = snapshots
        self.chosen = chosen
        self.schema = schema
    }

    /// Reads every class once: the keys recovered, then the dangling links. Returns the reports.
    func collectKeys() throws -> [String: RealmSalvageClassReport] {
        var reports: [String: RealmSalvageClassReport] = [:]
        for (name, s) in chosen {
            guard let table = snapshots[s].table(named: name) else { continue }
            var report = RealmSalvageClassReport(className: name)
            var set = Set<Int64>()
            let pk = table.primaryKey.flatMap { p in table.properties.firstIndex { $0.name == p } }
            var dropped: [Int64] = []
            try snapshots[s].salvageObjects(in: table, report: &report) { object, replaced in
                if let pk, replaced.contains(pk) { return dropped.append(object.key) }
                set.insert(object.key)
            }
            for key in dropped {
                report.recovered -= 1
                report.lostKeys.append("\(key)")
                report.lostBecause.append("key \(key): its primary key could not be read")
            }
            keys.byClass[name] = set
            reports[name] = report
        }
        for (name, s) in chosen {
            guard let table = snapshots[s].table(named: name) else { continue }
            var dangling = 0
            var ignored = RealmSalvageClassReport(className: name)
            let recovered = keys.byClass[name] ?? []
            try snapshots[s].salvageObjects(in: table, report: &ignored) { object, _ in
                guard recovered.contains(object.key) else { return }
                for value in object.values { dangling += countDangling(value) }
            }
            reports[name]?.danglingLinks = dangling
        }
        return reports
    }

    func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        guard let s = chosen[className], let table = snapshots[s].table(named: className) else { return }
        var report = RealmSalvageClassReport(className: className)
        let recovered = keys.byClass[className] ?? []
        try snapshots[s].salvageObjects(in: table, report: &report) { object, _ in
            guard recovered.contains(object.key) else { return }
            try body(object.key, object.values.map(resolve))
        }
    }

    /// Whether a link's target was recovered.
    private func resolves(_ className: String, _ key: Int64) -> Bool {
        keys.byClass[className]?.contains(key) ?? false
    }

    /// The value with links to unrecovered objects nulled (dropped from lists and sets).
    private func resolve(_ value: RealmValue) -> RealmValue {
        switch value {
        case .link(let c, let k): return resolves(c, k) ? value : .null
        case .embedded(let c, let k, let values): return .embedded(className: c, key: k, values: values.map(resolve))
        case .list(let items): return .list(items.compactMap(resolveElement))
        case .set(let items): return .set(items.compactMap(resolveElement))
        case .dictionary(let entries):
            return .dictionary(entries.map { RealmDictionaryEntry(key: $0.key, value: resolve($0.value)) })
        default: return value
        }
    }

    private func resolveElement(_ value: RealmValue) -> RealmValue? {
        if case .link(let c, let k) = value, !resolves(c, k) { return nil }
        return resolve(value)
    }

    private func countDangling(_ value: RealmValue) -> Int {
        switch value {
        case .link(let c, let k): return resolves(c, k) ? 0 : 1
        case .embedded(_, _, let values): return values.reduce(0) { $0 + countDangling($1) }
        case .list(let items), .set(let items): return items.reduce(0) { $0 + countDangling($1) }
        case .dictionary(let entries): return entries.reduce(0) { $0 + countDangling($1.value) }
        default: return 0
        }
    }
}
