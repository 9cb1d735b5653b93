import Foundation
import Porter

extension BenchRun {
    /// `porter create` of schemas with 1,000 and 10,000 classes (each with an indexed string, a
    /// link, a list and a mixed: seven tables and indexes): the cost per class should stay flat.
    mutating func runCreateScaling() throws {
        let dir = try freshFolder("create")
        var perClass: [Int: Double] = [:]
        for count in [1_000, 10_000] {
            let classes = (0..<count).map { i in
                ObjectSchema(
                    name: "Class\(i)",
                    properties: [
                        Property(name: "_id", type: .objectId), Property(name: "name", type: .string, indexed: true),
                        Property(name: "next", type: .object, objectType: "Class\((i + 1) % count)", optional: true),
                        Property(name: "tags", type: .string, collection: .list), Property(name: "any", type: .mixed),
                    ], primaryKey: "_id")
            }
            let schemaPath = "\(dir)/schema-\(count).json"
            try Schema(version: 1, classes: classes).jsonString().write(
                toFile: schemaPath, atomically: true, encoding: .utf8)
            let db = "\(dir)/create-\(count).porter"
            let m = try measure(porter, ["create", db, "--schema", schemaPath]) { removeDatabase(db) }
            perClass[count] = m.seconds / Double(count) * 1000
            let flat =
                count == 10_000
                ? String(format: "; %.2f× the per-class cost of 1,000", perClass[count]! / perClass[1_000]!) : ""
            record(
                count == 1_000 ? "create 1,000 classes" : "create 10,000 classes", "schema", m, bytes: diskSize(db),
                objects: count,
                note: String(format: "%.3f ms per class", perClass[count]!) + flat)
        }
    }
}
