/// Finding cycles made only of links between embedded classes.
///
/// An embedded object lives inside exactly one parent, so if every class on a link cycle is
/// embedded, no object on it can have a top-level ancestor. realm-core rejects such schemas; so
/// does Porter. A cycle that passes through a top-level class is fine.
extension Schema {
    /// One line per embedded cycle: `A: embedded classes form a cycle: A.b.a`, where the path names
    /// the start class followed by each link property taken. A cycle is reported once, from its
    /// first class by name.
    ///
    /// Hostile schemas (thousands of embedded classes in a chain or a ring) must stay cheap: classes
    /// that cannot lie on a cycle are peeled off first in linear time, and each search keeps its
    /// path in its stack frames instead of copying it at every step.
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
        let onCycles = Self.nodesThatMayLieOnCycles(edges)
        var errors: [String] = []
        for start in onCycles.sorted() {
            // Search only classes after `start` by name, so each cycle is found from its first class.
            // Each frame: the class, the property that led to it, the next edge to try.
            var visited: Set<String> = [start]
            var stack: [(node: String, via: String, next: Int)] = [(start, "", 0)]
            search: while !stack.isEmpty {
                let top = stack.count - 1
                let outgoing = edges[stack[top].node] ?? []
                while stack[top].next < outgoing.count {
                    let edge = outgoing[stack[top].next]
                    stack[top].next += 1
                    if edge.target == start {
                        let path = [start] + stack.dropFirst().map(\.via) + [edge.property]
                        errors.append("\(SchemaNames.display(start)): embedded classes form a cycle: \(path.map(SchemaNames.display).joined(separator: "."))")
                        break search
                    }
                    if edge.target > start, onCycles.contains(edge.target), visited.insert(edge.target).inserted {
                        stack.append((edge.target, edge.property, 0))
                        continue search
                    }
                }
                stack.removeLast()
            }
        }
        return errors
    }

    /// The classes left after repeatedly removing those without incoming or without outgoing
    /// edges: every class on a cycle remains (a superset, in linear time).
    private static func nodesThatMayLieOnCycles(_ edges: [String: [(property: String, target: String)]]) -> Set<String> {
        var incoming: [String: Int] = [:], outgoing: [String: Int] = [:]
        var predecessors: [String: [String]] = [:]
        for (node, out) in edges {
            outgoing[node] = out.count
            incoming[node, default: 0] += 0
            for edge in out {
                incoming[edge.target, default: 0] += 1
                predecessors[edge.target, default: []].append(node)
            }
        }
        var remaining = Set(edges.keys)
        var queue = remaining.filter { incoming[$0] == 0 || outgoing[$0] == 0 }
        while let node = queue.popFirst() {
            guard remaining.remove(node) != nil else { continue }
            for edge in edges[node] ?? [] where remaining.contains(edge.target) {
                incoming[edge.target]! -= 1
                if incoming[edge.target] == 0 { queue.insert(edge.target) }
            }
            for predecessor in predecessors[node] ?? [] where remaining.contains(predecessor) {
                outgoing[predecessor]! -= 1
                if outgoing[predecessor] == 0 { queue.insert(predecessor) }
            }
        }
        return remaining
    }
}
