extension Mem {
    /// Visits every leaf of the B+tree at `root` in order (realm-core `bplustree.cpp` 55-170):
    /// inner nodes are [offsets or tagged count, children…, tagged total size].
    func forEachBPlusLeaf(_ root: Int64, _ body: (Node) throws -> Void) throws {
        guard root != 0 else { return }
        var visited = Set<Int64>()
        try walkBPlus(root, depth: 0, visited: &visited, body)
    }

    private func walkBPlus(_ ref: Int64, depth: Int, visited: inout Set<Int64>, _ body: (Node) throws -> Void) throws {
        guard depth <= maximumDepth else {
            throw RealmFault("the node at \(hex(ref)) nests deeper than \(maximumDepth) levels")
        }
        guard visited.insert(ref).inserted else {
            throw RealmFault("the node at \(hex(ref)) is reached twice (a cycle or shared subtree)")
        }
        let node = try self.node(ref)
        guard node.isInner else { return try body(node) }
        guard node.hasRefs, node.count >= 2, node.widthType == 0 else {
            throw RealmFault("the inner B+tree node at \(hex(ref)) is malformed")
        }
        for i in 1..<(node.count - 1) {
            try walkBPlus(try node.ref(i), depth: depth + 1, visited: &visited, body)
        }
    }
}
