import Foundation
import PorterModel

/// The storage-shape checks of ``Database/checkConsistency()``: tables and columns against the
/// stored schema, storage classes of values, and collection rows without an owner.
extension Database {
    /// Tables and columns that the stored schema needs but the file lacks, and leftovers it does
    /// not explain (a half-applied schema change would show up here).
    func layoutProblems() throws -> [String] {
        var lines: [String] = []
        var expectedTables: Set<String> = []
        for cls in schema.classes {
            let table = StorageLayout.table(cls.name)
            expectedTables.insert(table)
            guard try storageTableExists(table) else {
                lines.append("\(cls.name): the class has no table '\(table)'")
                continue
            }
            let expected = cls.persistedProperties.filter { !$0.isCollection }.map(\.name)
            let actual = try storageColumns(cls.name)
            for name in expected where !actual.contains(name) {
                lines.append("\(cls.name).\(name): the property has no column in '\(table)'")
            }
            for name in actual where !expected.contains(name) {
                lines.append("\(cls.name): column '\(name)' of '\(table)' belongs to no property of the schema")
            }
            for property in cls.persistedProperties where property.isCollection {
                let collectionTable = StorageLayout.collectionTable(cls.name, property.name)
                expectedTables.insert(collectionTable)
                guard try storageTableExists(collectionTable) else {
                    lines.append(
                        "\(cls.name).\(property.name): the \(property.collection.rawValue) has no table '\(collectionTable)'"
                    )
                    continue
                }
                let wanted = Self.collectionColumns(property.collection)
                let columns = try tableColumns(collectionTable)
                if columns != wanted {
                    lines.append(
                        "\(cls.name).\(property.name): table '\(collectionTable)' has columns (\(columns.joined(separator: ", "))), expected (\(wanted.joined(separator: ", ")))"
                    )
                }
            }
        }
        let stmt = try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 6) = 'class_' ORDER BY name")
        while try stmt.step() {
            let name = stmt.text(0)
            if !expectedTables.contains(name) {
                lines.append("table '\(name)' belongs to no class or property of the schema")
            }
        }
        return lines
    }

    /// The columns of a list, set or map table, in order.
    static func collectionColumns(_ kind: CollectionKind) -> [String] {
        switch kind {
        case .list: return ["_owner", "_pos", "value"]
        case .set: return ["_owner", "value"]
        case .map: return ["_owner", "_key", "value"]
        case .none: return []
        }
    }

    /// Every column of a table, in order.
    func tableColumns(_ table: String) throws -> [String] {
        let stmt = try connection.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid")
        stmt.bind(1, text: table)
        var names: [String] = []
        while try stmt.step() { names.append(stmt.text(0)) }
        return names
    }

    /// The SQL condition a non-null value of `property` in column `c` (quoted) meets when it is
    /// stored as ``StorageCodec`` writes it; nil when the property stores nothing.
    func soundStorage(_ property: Property, column c: String) throws -> String? {
        switch property.type {
        case .bool: return "typeof(\(c)) = 'integer' AND \(c) IN (0, 1)"
        case .int, .object: return "typeof(\(c)) = 'integer'"
        case .date:
            // Format 1 kept microseconds as INTEGER (a read-only open leaves them so).
            let legacy = try connection.scalar("PRAGMA user_version") == .integer(1)
            return "(typeof(\(c)) = 'blob' AND length(\(c)) = 12)" + (legacy ? " OR typeof(\(c)) = 'integer'" : "")
        case .float: return "typeof(\(c)) = 'real' OR (typeof(\(c)) = 'blob' AND length(\(c)) = 4)"
        case .double: return "typeof(\(c)) = 'real' OR (typeof(\(c)) = 'blob' AND length(\(c)) = 8)"
        case .string: return "typeof(\(c)) = 'text'"
        case .data: return "typeof(\(c)) = 'blob'"
        case .decimal128, .uuid: return "typeof(\(c)) = 'blob' AND length(\(c)) = 16"
        case .objectId: return "typeof(\(c)) = 'blob' AND length(\(c)) = 12"
        case .mixed:
            // Native int, double and text, or a blob whose first byte is a known tag.
            return
                "typeof(\(c)) IN ('integer', 'real', 'text') OR (typeof(\(c)) = 'blob' AND hex(substr(\(c), 1, 1)) BETWEEN '01' AND '0B')"
        case .linkingObjects: return nil
        }
    }

    /// For each single-value property of `cls` stored in its table: how many objects hold null
    /// and how many hold a value not stored as its type, counted in one pass over the table, so
    /// the per-property queries that name the objects run only where something is wrong.
    func singleValueViolations(_ cls: ObjectSchema) throws -> [String: (nulls: Int, misstored: Int)] {
        let present = Set(try storageColumns(cls.name))
        var sums: [String] = []
        var names: [String] = []
        for property in cls.persistedProperties where !property.isCollection && present.contains(property.name) {
            let c = quoteIdentifier(property.name)
            guard let sound = try soundStorage(property, column: c) else { continue }
            sums.append("coalesce(sum(\(c) IS NULL), 0)")
            sums.append("coalesce(sum(\(c) IS NOT NULL AND NOT (\(sound))), 0)")
            names.append(property.name)
        }
        guard !names.isEmpty else { return [:] }
        let stmt = try connection.prepare(
            "SELECT \(sums.joined(separator: ", ")) FROM \(quoteIdentifier(StorageLayout.table(cls.name)))")
        guard try stmt.step() else { return [:] }
        var result: [String: (nulls: Int, misstored: Int)] = [:]
        for (i, name) in names.enumerated() {
            result[name] = (Int(stmt.int64(Int32(2 * i))), Int(stmt.int64(Int32(2 * i + 1))))
        }
        return result
    }

    /// Non-null values whose SQLite storage class (or blob length) is not the one
    /// ``StorageCodec`` writes for the property's type: the signature of a damaged or foreign write.
    func misstoredValues(_ className: String, _ property: Property) throws -> SampledCount {
        let (table, owner, column) =
            property.isCollection
            ? (StorageLayout.collectionTable(className, property.name), "_owner", "value")
            : (StorageLayout.table(className), "_key", property.name)
        let c = quoteIdentifier(column)
        guard let sound = try soundStorage(property, column: c) else { return SampledCount(count: 0) }
        let stmt = try connection.prepare(
            "SELECT \(owner), typeof(\(c)) FROM \(quoteIdentifier(table)) WHERE \(c) IS NOT NULL AND NOT (\(sound)) ORDER BY \(owner)"
        )
        var result = SampledCount(count: 0)
        while try stmt.step() {
            result.count += 1
            if result.sample.count < Database.sampleLimit {
                result.sample.append("\(className)(\(stmt.int64(0))) holds \(stmt.text(1))")
            }
        }
        return result
    }

    /// Rows of a collection table whose owner object does not exist.
    func orphanRows(_ className: String, _ property: Property) throws -> SampledCount {
        let table = quoteIdentifier(StorageLayout.collectionTable(className, property.name))
        let stmt = try connection.prepare(
            """
            SELECT _owner FROM \(table) WHERE _owner NOT IN (SELECT _key FROM \(quoteIdentifier(StorageLayout.table(className)))) ORDER BY _owner
            """)
        var result = SampledCount(count: 0)
        while try stmt.step() {
            result.count += 1
            if result.sample.count < Database.sampleLimit {
                result.sample.append("\(className)(\(stmt.int64(0)))")
            }
        }
        return result
    }
}
