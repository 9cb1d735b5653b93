import PorterModel
import PorterStore

/// The checks that run after every step, before the transaction commits: primary keys unique,
/// required values present, links resolvable, embedded objects with exactly one parent. Each
/// failure names objects; any failure rolls the migration back.
enum MigrationChecks {
    static func run(_ db: Database, schema: Schema, progress: (@Sendable (MigrationProgress) -> Void)?) throws {
        let storage = MigrationStorage(db)
        var problems: [String] = []
        func sample(_ s: SampledCount) -> String {
            s.sample.joined(separator: ", ") + (s.count > s.sample.count ? ", …" : "")
        }
        for (index, cls) in schema.classes.enumerated() {
            progress?(MigrationProgress(phase: "check", className: cls.name, done: index, total: schema.classes.count))
            // A unique index already guarantees distinct keys; without one, look for duplicates.
            if let pk = cls.primaryKeyProperty, try !storage.hasPrimaryKeyIndex(cls.name) {
                let duplicates = try db.duplicateValues(cls.name, pk, sampleLimit: MigrationStorage.sampleLimit)
                if duplicates.count > 0 {
                    problems.append(
                        "Primary key property '\(cls.name).\(pk.name)' has duplicate values after migration: \(sample(duplicates))"
                    )
                }
            }
            // Required values: one pass over the table counts every column's nulls; only a column
            // that has some is scanned again for examples.
            let required = cls.persistedProperties.filter { !$0.isOptional && $0.type != .object }
            let single = required.filter { !$0.isCollection }
            let counts = try storage.nullCounts(cls.name, single)
            for property in zip(single, counts).filter({ $0.1 > 0 }).map(\.0) + required.filter(\.isCollection) {
                let nulls = try storage.nullValues(cls.name, property, byIdentity: true)
                if nulls.count > 0 {
                    let what = property.isCollection ? "hold null elements" : "have no value"
                    problems.append(
                        "Property '\(cls.name).\(property.name)' is required but \(nulls.count) object\(nulls.count == 1 ? "" : "s") \(what) (give a fill value: --fill \(cls.name).\(property.name)=VALUE or a fill operation): \(sample(nulls))"
                    )
                }
            }
            for property in cls.persistedProperties where property.type == .object || property.type == .mixed {
                let dangling = try storage.danglingLinks(cls.name, property)
                if dangling.count > 0 {
                    problems.append(
                        "Property '\(cls.name).\(property.name)' has \(dangling.count) link\(dangling.count == 1 ? "" : "s") to objects that do not exist: \(sample(dangling))"
                    )
                }
            }
            if cls.isEmbedded {
                let sources = StepRunner.linkSources(to: cls.name, in: schema).filter { $0.property.type == .object }
                let counts = try db.embeddingCounts(cls.name, sources: sources, sampleLimit: 0)
                if counts.orphans > 0 || counts.multiplyLinked > 0 {
                    problems.append(
                        "Embedded class '\(cls.name)' must have exactly one parent per object: \(counts.orphans) object\(counts.orphans == 1 ? " has" : "s have") none, \(counts.multiplyLinked) more than one"
                    )
                }
            }
        }
        progress?(
            MigrationProgress(phase: "check", className: "", done: schema.classes.count, total: schema.classes.count))
        if !problems.isEmpty {
            throw PorterError(
                .migrationFailed,
                "The migrated data fails \(problems.count) check\(problems.count == 1 ? "" : "s"); nothing was changed.",
                details: problems)
        }
    }
}
