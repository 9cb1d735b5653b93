import Foundation
import Porter

/// The migration measured by `make bench`: rename `Item.name` → `title`, add `Item.rank`, and
/// convert `Item.count` from int to string (Porter converts it without loss).
enum MigrationScenario {
    /// Writes the v2 schema of `shape` into `dir`; returns its path.
    static func writeFiles(_ shape: Shape, dir: String) throws -> String {
        let v1 = try Schema(jsonString: shape.schemaJSON)
        guard var item = v1["Item"] else { throw BenchError("shape \(shape) has no Item class") }
        item.properties = item.properties.map { property in
            var p = property
            if p.name == "name" { p.name = "title" }
            if p.name == "count" { p.type = .string }
            return p
        }
        item.properties.append(Property(name: "rank", type: .int))
        var v2 = v1
        v2.version = 2
        v2.upsert(item)
        let path = "\(dir)/v2.json"
        try v2.jsonString().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The `porter migrate` arguments for the scenario.
    static func arguments(database: String, target: String) -> [String] {
        ["migrate", database, "--to", target, "--rename", "Item.name=title"]
    }
}
