/// Finding cycles made only of links between embedded classes.
///
/// An embedded object lives inside exactly one parent, so if every class on a link cycle is
/// embedded, no object on it can have a top-level ancestor. realm-core rejects such schemas; so
/// does Porter. A cycle that passes through a top-level class is fine.
extension Schema {
    /// One line per embedded cycle: `A: embedded classes form a cycle: A.b.a`, where the path names
    /// the start class followed by each link property taken. A cycle is reported once, from its
    /// first class by name (a class reports the first cycle through it, in declared property
    /// order, that visits only classes after it by name).
    ///
    /// Hostile schemas (thousands of embedded classes in a chain or a ring) must stay cheap. As in
    /// Johnson's cycle search, classes are taken in name order and each is removed from the graph
    /// once searched; a search runs only when the class still lies in a strongly connected
    /// component of the remaining graph (else no cycle can pass through it), and only within it.
    func embeddedCycleErrors() -> [String] {
        let embedded = classes.filter(\.isEmbedded)
        let embeddedNames = Set(embedded.map(\.name))
        // Edges: link properties (to-one, list, set or map) from one embedded class to another.
        var edges: [String: [(property: String, target: String)]] = [:]
        for objectSchema in embedded where edges[objectSchema.name] == nil {
            edges[objectSchema.name] = objectSchema.properties.compactMap { property in
                guard property.type == .object, let target = property.objectType, embeddedNames.contains(target) else {
                    return nil
                }
                return (property.name, target)
            }
        }
        var components = CycleComponents(edges: edges, nodes: Set(edges.keys))
        var errors: [String] = []
        for start in edges.keys.sorted() {
            defer { components.remove(start) }
            guard let members = components.cyclicComponent(of: start) else { continue }
            if let path = Self.cyclePath(from: start, within: members, edges: edges) {
                errors.append(
                    "\(SchemaNames.display(start)): embedded classes form a cycle: \(path.map(SchemaNames.display).joined(separator: "."))"
                )
            }
        }
        return errors
    }

    /// The first cycle from `start` back to it through `members` (depth first, in declared
    /// property order), as the start class followed by the properties taken. The path lives in
    /// the stack frames, so a step never copies it.
    private static func cyclePath(
        from start: String, within members: Set<String>,
        edges: [String: [(property: String, target: String)]]
    ) -> [String]? {
        var visited: Set<String> = [start]
        var stack: [(node: String, via: String, next: Int)] = [(start, "", 0)]
        search: while !stack.isEmpty {
            let top = stack.count - 1
            let outgoing = edges[stack[top].node] ?? []
            while stack[top].next < outgoing.count {
                let edge = outgoing[stack[top].next]
                stack[top].next += 1
                if edge.target == start { return [start] + stack.dropFirst().map(\.via) + [edge.property] }
                if members.contains(edge.target), visited.insert(edge.target).inserted {
                    stack.append((edge.target, edge.property, 0))
                    continue search
                }
            }
            stack.removeLast()
        }
        return nil
    }
}

/// Strongly connected components of a shrinking graph (iterative Tarjan): removing a node
/// recomputes only the component it belonged to.
struct CycleComponents {
    private let edges: [String: [(property: String, target: String)]]
    private var nodes: Set<String>
    private var componentOf: [String: Int] = [:]
    private var members: [Int: Set<String>] = [:]
    private var nextID = 0

    init(edges: [String: [(property: String, target: String)]], nodes: Set<String>) {
        self.edges = edges
        self.nodes = nodes
        assign(nodes)
    }

    /// The component of `node` when a cycle can pass through it (more than one member, or a
    /// link to itself); nil otherwise.
    func cyclicComponent(of node: String) -> Set<String>? {
        guard let id = componentOf[node], let set = members[id] else { return nil }
        if set.count > 1 || (edges[node] ?? []).contains(where: { $0.target == node }) { return set }
        return nil
    }

    /// Removes `node`, splitting its component as needed.
    mutating func remove(_ node: String) {
        guard nodes.remove(node) != nil, let id = componentOf.removeValue(forKey: node),
            var set = members.removeValue(forKey: id)
        else { return }
        set.remove(node)
        assign(set)
    }

    /// Tarjan's algorithm over `subset` (edges leaving it are ignored), without recursion.
    private mutating func assign(_ subset: Set<String>) {
        var index: [String: Int] = [:], low: [String: Int] = [:]
        var onStack: Set<String> = [], stack: [String] = []
        var counter = 0
        for root in subset.sorted() where index[root] == nil {
            var work: [(node: String, next: Int)] = [(root, 0)]
            index[root] = counter; low[root] = counter; counter += 1
            stack.append(root); onStack.insert(root)
            while let (node, next) = work.last {
                let outgoing = edges[node] ?? []
                if next < outgoing.count {
                    work[work.count - 1].next += 1
                    let target = outgoing[next].target
                    guard subset.contains(target) else { continue }
                    if index[target] == nil {
                        index[target] = counter; low[target] = counter; counter += 1
                        stack.append(target); onStack.insert(target)
                        work.append((target, 0))
                    } else if onStack.contains(target) {
                        low[node] = min(low[node]!, index[target]!)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last { low[parent.node] = min(low[parent.node]!, low[node]!) }
                guard low[node] == index[node] else { continue }
                var component: Set<String> = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.insert(member)
                    if member == node { break }
                }
                for member in component { componentOf[member] = nextID }
                members[nextID] = component
                nextID += 1
            }
        }
    }
}
