import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// One side of a verification (`porter verify`): its objects as an export reads them, and what
/// its format keeps.
package struct VerifySide {
    /// Reads the side's objects (a Porter database, a Realm file, or the private copy of a dump).
    package let exporter: Exporter
    /// What the side is, for the report (`Realm file`, `BSON dump folder`, …).
    package let kind: String
    /// Whether the side's format holds dates to the millisecond only (BSON, Extended JSON).
    package let millisecondDates: Bool
    /// Whether a float in a `mixed` was widened to a double on the way in (every import does).
    package let widenedMixedFloats: Bool

    /// Creates a side.
    package init(exporter: Exporter, kind: String, millisecondDates: Bool, widenedMixedFloats: Bool) {
        self.exporter = exporter
        self.kind = kind
        self.millisecondDates = millisecondDates
        self.widenedMixedFloats = widenedMixedFloats
    }
}

/// What `porter verify` found: per class the counts, the objects matched by key and equal, those
/// matched but different; and the first difference, named.
public struct VerifyReport: Sendable, Equatable {
    /// One class.
    public struct ClassRow: Sendable, Equatable {
        /// The class.
        public var className: String
        /// Objects in the source and in the target.
        public var sourceCount: Int
        /// Objects in the target.
        public var targetCount: Int
        /// Objects found on both sides by key, equal value by value.
        public var matched: Int
        /// Objects found on both sides by key, with at least one different value.
        public var differing: Int
        /// Source objects the target lacks.
        public var missing: Int { sourceCount - matched - differing }
        /// Target objects the source lacks.
        public var extra: Int { targetCount - matched - differing }
    }

    /// The top-level classes of both sides, source order first.
    public var classes: [ClassRow] = []
    /// The first difference (`Dog[_id=3].age: source 3, target 4`), nil when everything matched.
    public var firstDifference: String?
    /// What was made equal because a side's format cannot hold it (dates to the millisecond, …).
    public var notes: [String] = []

    /// Whether every object of every class is in both sides, equal.
    public var passed: Bool { firstDifference == nil }

    /// The table: class, source, target, matched, differing, missing, extra.
    public var tableLines: [String] {
        let header = ["class", "source", "target", "matched", "differing", "missing", "extra"]
        let rows = classes.map {
            [$0.className]
                + [$0.sourceCount, $0.targetCount, $0.matched, $0.differing, $0.missing, $0.extra].map(String.init)
        }
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.indices.map { i in
                i == 0
                    ? row[i].padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - row[i].count) + row[i]
            }.joined(separator: "  ")
        }
    }
}

/// Compares every object of two files class by class, in bounded memory: each side's objects are
/// written as documents by the export's own mapper, and a digest of each object's key and of its
/// document goes into a private SQLite file; SQL then counts what matched, and only the first
/// problem's two objects are read again to name the field.
package final class Verifier {
    let source: VerifySide
    let target: VerifySide
    private let table: PlainSQLiteFile
    private let floorsDates: Bool
    private let widensMixedFloats: Bool

    /// A verifier keeping its digests in the empty file `scratchFile` (in a private folder the
    /// caller removes).
    package init(source: VerifySide, target: VerifySide, scratchFile: String) throws {
        self.source = source
        self.target = target
        table = try PlainSQLiteFile(fillingEmpty: scratchFile, displayPath: scratchFile)
        floorsDates = source.millisecondDates || target.millisecondDates
        widensMixedFloats = source.widenedMixedFloats || target.widenedMixedFloats
    }

    /// Compares every top-level class of both sides.
    /// - Throws: ``PorterError`` when a side cannot be read (the report says what differs).
    package func run() throws -> VerifyReport {
        var report = VerifyReport()
        if floorsDates {
            let side = source.millisecondDates ? "source (\(source.kind))" : "target (\(target.kind))"
            report.notes.append(
                "note: dates compared to the millisecond: the \(side) holds milliseconds")
        }
        let holdsMixed = source.exporter.schema.classes.contains { $0.properties.contains { $0.type == .mixed } }
        if widensMixedFloats && holdsMixed {
            report.notes.append("note: floats in mixed values compared as doubles (an import stores them so)")
        }
        do {
            try source.exporter.read {
                try target.exporter.read {
                    let sourceClasses = try source.exporter.exportedClasses().map(\.name)
                    let targetClasses = try target.exporter.exportedClasses().map(\.name)
                    for name in sourceClasses + targetClasses.filter({ !sourceClasses.contains($0) }) {
                        let row = try compare(name, report: &report)
                        report.classes.append(row)
                    }
                }
            }
        } catch let unreadable as UnreadableSide {
            // A relational export read in place names its row and field: said as it is.
            throw unreadable.error
        }
        return report
    }

    /// Fills the digests of one class, counts, and names the first problem when none is named yet.
    private func compare(_ name: String, report: inout VerifyReport) throws -> VerifyReport.ClassRow {
        try table.execute(
            """
            DROP TABLE IF EXISTS s; DROP TABLE IF EXISTS t;
            CREATE TABLE s(k BLOB NOT NULL, h BLOB NOT NULL, o INTEGER NOT NULL);
            CREATE TABLE t(k BLOB NOT NULL, h BLOB NOT NULL, o INTEGER NOT NULL);
            """)
        let sourceClass = source.exporter.schema[name].flatMap { $0.isEmbedded ? nil : $0 }
        let targetClass = target.exporter.schema[name].flatMap { $0.isEmbedded ? nil : $0 }
        if let sourceClass { try fill("s", from: source, sourceClass) }
        if let targetClass { try fill("t", from: target, targetClass) }
        for (side, tableName) in [("source", "s"), ("target", "t")] {
            // Key and digest in one index, read in key order by the duplicate check and the join
            // below (a join probing a key index in the rows' order jumps about the file: at a
            // million objects it took longer than reading both sides).
            try table.execute("CREATE INDEX \(tableName)_kh ON \(tableName)(k, h)")
            let duplicate = try table.rows(
                "SELECT 1 FROM \(tableName) INDEXED BY \(tableName)_kh GROUP BY k HAVING count(*) > 1 LIMIT 1")
            if !duplicate.isEmpty {
                throw PorterError(
                    .invalidInput, "class \(name) of the \(side) holds two objects with one key",
                    location: side == "source" ? source.exporter.path : target.exporter.path)
            }
        }
        let counts =
            try table.rows(
                """
                SELECT (SELECT count(*) FROM s), (SELECT count(*) FROM t), count(*), total(t.h = s.h)
                FROM s INDEXED BY s_kh JOIN t INDEXED BY t_kh ON t.k = s.k
                """
            ).first?.map { cell -> Int in
                switch cell {
                case .integer(let n): return Int(n)
                case .real(let d): return Int(d)
                default: return 0
                }
            } ?? [0, 0, 0, 0]
        // Objects on both sides: those with equal digests matched, the rest differ.
        let row = VerifyReport.ClassRow(
            className: name, sourceCount: counts[0], targetCount: counts[1], matched: counts[3],
            differing: counts[2] - counts[3])
        guard report.firstDifference == nil, row.matched != row.sourceCount || row.matched != row.targetCount else {
            return row
        }
        if targetClass == nil {
            report.firstDifference =
                "\(name): no such class in the target (\(row.sourceCount) object\(row.sourceCount == 1 ? "" : "s") in the source)"
            return row
        }
        if sourceClass == nil {
            report.firstDifference =
                "\(name): no such class in the source (\(row.targetCount) object\(row.targetCount == 1 ? "" : "s") in the target)"
            return row
        }
        let first = try table.rows(
            "SELECT s.o, t.o FROM s LEFT JOIN t ON t.k = s.k WHERE t.k IS NULL OR t.h <> s.h ORDER BY s.rowid LIMIT 1")
        if let pair = first.first, case .integer(let sourceKey) = pair[0] {
            var targetKey: Int64?
            if case .integer(let key) = pair[1] { targetKey = key }
            report.firstDifference = try describe(name, sourceKey: sourceKey, targetKey: targetKey)
            return row
        }
        let extra = try table.rows(
            "SELECT t.o FROM t LEFT JOIN s ON s.k = t.k WHERE s.k IS NULL ORDER BY t.rowid LIMIT 1")
        if let cell = extra.first?.first, case .integer(let targetKey) = cell {
            report.firstDifference = try describe(name, sourceKey: nil, targetKey: targetKey)
        }
        return row
    }

    /// The key field of a class's documents: its primary key, or `_key` (the object key an export writes).
    private func keyField(_ cls: ObjectSchema) -> String { cls.primaryKey ?? "_key" }

    private func encoder() -> VerifyEncoder {
        VerifyEncoder(floorsDates: floorsDates, widensMixedFloats: widensMixedFloats)
    }

    /// Writes the key and document digests of every object of `cls` of one side into `tableName`.
    private func fill(_ tableName: String, from side: VerifySide, _ cls: ObjectSchema) throws {
        let cursor = try side.exporter.source(for: cls)
        let mapper = ExportMapper(cursor: cursor)
        let encoder = encoder()
        let keyName = keyField(cls)
        let insert = try table.prepare("INSERT INTO \(tableName)(k, h, o) VALUES (?, ?, ?)")
        try table.execute("BEGIN")
        do {
            try cursor.forEachObject { key, values in
                try mapper.writeDocument(cls, key: key, values: values, to: encoder)
                let document = encoder.document
                let keyBytes = document.field(keyName)?.bytes() ?? []
                try insert.run([
                    .blob(Data(verifyDigest(keyBytes))), .blob(Data(verifyDigest(document.bytes()))),
                    .integer(key.rawValue),
                ])
            }
            try table.execute("COMMIT")
        } catch let error as PorterError {
            try? table.execute("ROLLBACK")
            // A stored link to nothing, a damaged object: said with the class it was found in.
            throw PorterError(
                error.code, "\(cls.name): \(error.message)", location: error.location ?? side.exporter.path)
        } catch {
            try? table.execute("ROLLBACK")
            throw error
        }
    }

    /// The document of the object `key` of one side, or nil when it is gone.
    private func document(_ side: VerifySide, _ cls: ObjectSchema, _ key: Int64) throws -> VerifyNode? {
        let cursor = try side.exporter.source(for: cls)
        guard let values = try cursor.object(at: ObjectKey(key)) else { return nil }
        let encoder = encoder()
        try ExportMapper(cursor: cursor).writeDocument(cls, key: ObjectKey(key), values: values, to: encoder)
        return encoder.document
    }

    /// The first line of a failed verification for one object: a differing field, or an object
    /// on one side only.
    private func describe(_ name: String, sourceKey: Int64?, targetKey: Int64?) throws -> String {
        guard let sourceClass = source.exporter.schema[name], let targetClass = target.exporter.schema[name] else {
            return "\(name): differs"
        }
        let sourceDocument = try sourceKey.flatMap { try document(source, sourceClass, $0) }
        let targetDocument = try targetKey.flatMap { try document(target, targetClass, $0) }
        let keyName = keyField(sourceClass)
        let keyValue = (sourceDocument ?? targetDocument)?.field(keyName)?.display ?? "?"
        let label = "\(name)[\(keyName)=\(keyValue)]"
        guard let sourceDocument else { return "\(label): in the target only, not in the source" }
        guard let targetDocument else { return "\(label): missing in the target" }
        guard let (path, sourceValue, targetValue) = sourceDocument.firstDifference(from: targetDocument, path: "")
        else {
            return "\(label): differs"
        }
        return
            "\(label).\(path): source \(sourceValue?.display ?? "(absent)"), target \(targetValue?.display ?? "(absent)")"
    }
}
