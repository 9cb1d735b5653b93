/// Finding cycles made only of links between embedded classes.
///
/// An embedded object lives inside exactly one parent, so if every class on a link cycle is
/// embedded, no object on it can have a top-level ancestor. realm-core rejects such schemas; so
/// does Porter. A cycle that passes through a top-level class is fine.
extension Schema {
    /// One line per embedded cycle: `A: embedded classes form a cycle: A.b.a`, where the path names
    /// the start class followed by each link property taken. A cycle is reported once, from its
    /// first class by name.
    func embeddedCycleErrors() -> [String] {
        let embedded = classes.filter(\.isEmbedded)
        let embeddedNames = Set(embedded.map(\.name))
        // Edges: link properties (to-one, list, set or map) from one embedded class to another.
        var edges: [String: [(property: String, target: String)]] = [:]
        for objectSchema in embedded where edges[objectSchema.name] == nil {
            edges[objectSchema.name] = objectSchema.properties.compactMap { property in
                guard property.type == .object, let target = property.objectType, embeddedNames.contains(target) else { return nil }
                return (property.name, target)
            }
        }
        var errors: [String] = []
        for start in embeddedNames.sorted() {
            // Search only classes after `start` by name, so each cycle is found from its first class.
            var visited: Set<String> = [start]
            var stack: [(node: String, path: [String], next: Int)] = [(start, [], 0)]
            search: while var top = stack.popLast() {
                let outgoing = edges[top.node] ?? []
                while top.next < outgoing.count {
                    let edge = outgoing[top.next]
                    top.next += 1
                    if edge.target == start {
                        let path = ([start] + top.path + [edge.property]).map(SchemaNames.display).joined(separator: ".")
                        errors.append("\(SchemaNames.display(start)): embedded classes form a cycle: \(path)")
                        break search
                    }
                    if edge.target > start, visited.insert(edge.target).inserted {
                        stack.append(top)
                        stack.append((edge.target, top.path + [edge.property], 0))
                        continue search
                    }
                }
            }
        }
        return errors
    }
}
