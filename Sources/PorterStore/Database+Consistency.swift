import Foundation
import PorterModel

extension Database {
    /// Checks that the file is sound and that its objects obey the schema it stores; returns one
    /// line per problem (empty when everything holds). Backs `porter check`.
    ///
    /// The checks, in order: SQLite's `integrity_check`; every class and collection property has
    /// its table with exactly the expected columns (and no class table is left over); primary-key
    /// values are unique and enforced by their unique index; required values and required
    /// collection elements are non-null; values have the storage class of their type; every link
    /// (to-one, collection, or held in a `mixed`) resolves; every collection row has an owner; every
    /// embedded object has exactly one parent.
    ///
    /// Everything is read in one read transaction (a consistent snapshot, so a concurrent writer
    /// cannot produce false alarms) and streamed with SQL: memory does not grow with the data.
    /// A check that cannot even run (a damaged table) is reported as a problem, not thrown, so the
    /// remaining checks still run.
    /// - Throws: only when the snapshot itself cannot be taken (an I/O error, a busy file).
    public func checkConsistency() throws -> [String] {
        try read {
            var report = ConsistencyReport()
            report.run("integrity_check") {
                try sqliteIntegrityCheck().prefix(ConsistencyReport.lineLimit).map { "SQLite integrity_check: \($0)" }
            }
            report.run("storage layout") { try layoutProblems() }
            report.run("schema objects") { try untrustedSchemaProblems() }
            for cls in schema.classes {
                // A class whose table is missing was reported by the layout check already.
                guard (try? storageTableExists(StorageLayout.table(cls.name))) == true else { continue }
                // Values first: a damaged blob is named precisely here even when it stops a check below.
                report.run("\(cls.name) values") {
                    try cls.persistedProperties.filter { try storageExists(cls.name, $0) }
                        .flatMap { try valueProblems(cls.name, $0) }
                }
                report.run(cls.name) { try objectProblems(cls) }
            }
            return report.lines
        }
    }

    /// Problems of the objects of one class: keys, required values, storage classes, links,
    /// collection owners, parents of embedded objects.
    func objectProblems(_ cls: ObjectSchema) throws -> [String] {
        let s = ConsistencyReport.plural, sample = ConsistencyReport.sample
        var lines: [String] = []
        if let pk = cls.primaryKeyProperty, !pk.isCollection {
            let duplicates = try duplicateValues(cls.name, pk, sampleLimit: Database.sampleLimit)
            if duplicates.count > 0 {
                lines.append(
                    "\(cls.name).\(pk.name): primary key has \(duplicates.count) duplicate value\(s(duplicates.count)): \(sample(duplicates))"
                )
            }
            if try !hasPrimaryKeyIndex(cls.name) {
                lines.append("\(cls.name).\(pk.name): the unique index that enforces the primary key is missing")
            }
        }
        // One pass for the nulls and storage classes of every single value; the queries that name
        // the objects below run only for the properties this pass found something wrong with.
        let counted = try singleValueViolations(cls)
        for property in cls.persistedProperties {
            let path = "\(cls.name).\(property.name)"
            guard try storageExists(cls.name, property) else { continue }
            let quick = property.isCollection ? nil : counted[property.name]
            // Required links cannot be null by construction (to-one links are optional); a list
            // or set of links holds no null element, a map of links may.
            let nullsForbidden =
                !property.isOptional
                && (property.type != .object || property.collection == .list || property.collection == .set)
            if nullsForbidden && (quick.map { $0.nulls > 0 } ?? true) {
                let nulls = try nullValues(cls.name, property)
                if nulls.count > 0 {
                    let what =
                        property.isCollection
                        ? "null element\(s(nulls.count)) in a collection of required values"
                        : "object\(s(nulls.count)) without a value for a required property"
                    lines.append("\(path): \(nulls.count) \(what): \(sample(nulls))")
                }
            }
            let misstored =
                quick.map { $0.misstored > 0 } ?? true
                ? try misstoredValues(cls.name, property) : SampledCount(count: 0)
            if misstored.count > 0 {
                lines.append(
                    "\(path): \(misstored.count) value\(s(misstored.count)) not stored as '\(property.type.rawValue)': \(sample(misstored))"
                )
            }
            if property.type == .object || property.type == .mixed {
                let dangling = try danglingLinks(cls.name, property)
                if dangling.count > 0 {
                    lines.append(
                        "\(path): \(dangling.count) link\(s(dangling.count)) to objects that do not exist: \(sample(dangling))"
                    )
                }
            }
            if property.isCollection {
                let orphans = try orphanRows(cls.name, property)
                if orphans.count > 0 {
                    lines.append(
                        "\(path): \(orphans.count) collection element\(s(orphans.count)) whose owner does not exist: \(sample(orphans))"
                    )
                }
            }
        }
        if cls.isEmbedded {
            let sources = schema.classes.flatMap { source in
                source.persistedProperties.filter {
                    ($0.type == .object && $0.objectType == cls.name) || $0.type == .mixed
                }
                .map { LinkSource(className: source.name, property: $0) }
            }
            let counts = try embeddingCounts(cls.name, sources: sources, sampleLimit: Database.sampleLimit)
            if counts.orphans > 0 || counts.multiplyLinked > 0 {
                lines.append(
                    "\(cls.name): embedded objects must have exactly one parent, but \(counts.orphans) \(counts.orphans == 1 ? "has" : "have") none and \(counts.multiplyLinked) more than one"
                )
            }
            if counts.mixedLinks.count > 0 {
                lines.append(
                    "\(cls.name): \(counts.mixedLinks.count) mixed value\(s(counts.mixedLinks.count)) link to embedded objects: \(sample(counts.mixedLinks))"
                )
            }
        }
        return lines
    }

    /// Whether a property has its column or collection table (a missing one is a layout problem).
    func storageExists(_ className: String, _ property: Property) throws -> Bool {
        property.isCollection
            ? try storageTableExists(StorageLayout.collectionTable(className, property.name))
            : try storageColumns(className).contains(property.name)
    }
}

/// Problem lines collected by ``Database/checkConsistency()``; a check that throws becomes a line.
struct ConsistencyReport {
    /// At most this many lines per check (a badly damaged file must not flood the terminal).
    static let lineLimit = 50
    private(set) var lines: [String] = []

    /// `n` → "" or "s".
    static func plural(_ n: Int) -> String { n == 1 ? "" : "s" }

    /// The sample of a count as text, with `…` when there are more.
    static func sample(_ s: SampledCount) -> String {
        s.sample.joined(separator: ", ") + (s.count > s.sample.count ? ", …" : "")
    }

    mutating func run(_ what: String, _ check: () throws -> [String]) {
        do {
            let found = try check()
            lines += found.prefix(Self.lineLimit)
            if found.count > Self.lineLimit {
                lines.append("\(what): … and \(found.count - Self.lineLimit) more problems")
            }
        } catch let error as PorterError {
            lines.append("\(what): the check could not run: \(error.message)")
        } catch {
            lines.append("\(what): the check could not run: \(error)")
        }
    }
}
