/// Cluster trees (realm-core `cluster.hpp` 200-340, `cluster_tree.cpp` 48-225): leaves hold the
/// objects (slot 0 a tagged count for keys 0..n-1 or a ref to the keys, slot `leaf index + 1`
/// each column's leaf); inner nodes hold [key offsets or 0, tagged depth, tagged size, children…].
struct ClusterLeaf {
    let node: Node
    let count: Int
    /// The keys array, or nil when the keys are 0..<count (compact form).
    let keys: Node?
    /// Added to every key of this leaf (the inner nodes' accumulated offsets).
    let offset: Int64

    func key(_ i: Int) -> Int64 {
        let relative = keys.map { Int64(bitPattern: $0.unsigned(i)) } ?? Int64(i)
        return relative &+ offset
    }

    /// The row holding `key`, if any.
    func row(of key: Int64) -> Int? {
        let (relative, overflow) = key.subtractingReportingOverflow(offset)
        guard !overflow, relative >= 0 else { return nil }
        guard let keys else { return relative < Int64(count) ? Int(relative) : nil }
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if Int64(bitPattern: keys.unsigned(mid)) < relative { low = mid + 1 } else { high = mid }
        }
        return low < count && Int64(bitPattern: keys.unsigned(low)) == relative ? low : nil
    }

    /// The column leaf at cluster slot `leafIndex + 1`.
    func columnRef(_ leafIndex: Int) throws(RealmFault) -> Int64 {
        guard leafIndex + 1 < node.count else {
            throw RealmFault("the cluster at \(hex(Int64(node.ref))) has no slot for column leaf \(leafIndex)")
        }
        return try node.ref(leafIndex + 1)
    }
}

extension Mem {
    /// Realm's compact inner nodes place child i at `i << (depth × 8)` (`cluster.hpp` 217-223,
    /// `node_shift_factor` 8 in every SDK build).
    static let nodeShiftFactor = 8

    func clusterLeaf(_ node: Node, offset: Int64) throws(RealmFault) -> ClusterLeaf {
        guard node.hasRefs, node.count >= 1, node.widthType == 0 else {
            throw RealmFault("the cluster at \(hex(Int64(node.ref))) is malformed")
        }
        let first = node.int(0)
        if first & 1 == 1 {
            let n = first >> 1
            guard n >= 0, n <= Int64(maximumLeafSize) * 4 else {
                throw RealmFault("the cluster at \(hex(Int64(node.ref))) claims \(n) objects")
            }
            return ClusterLeaf(node: node, count: Int(n), keys: nil, offset: offset)
        }
        let keys = try self.node(first)
        try keys.requireIntegers("object keys")
        guard keys.count <= maximumLeafSize * 4 else {
            throw RealmFault("the cluster at \(hex(Int64(node.ref))) claims \(keys.count) objects")
        }
        return ClusterLeaf(node: node, count: keys.count, keys: keys, offset: offset)
    }

    /// Visits every leaf of the cluster tree at `root` in key order. `visited` catches shared
    /// or cyclic nodes; the depth limit catches runaway nesting.
    func forEachClusterLeaf(_ root: Int64, _ body: (ClusterLeaf) throws -> Void) throws {
        guard root != 0 else { return }
        var visited = Set<Int64>()
        try walkCluster(root, offset: 0, depth: 0, visited: &visited, body)
    }

    private func walkCluster(
        _ ref: Int64, offset: Int64, depth: Int, visited: inout Set<Int64>, _ body: (ClusterLeaf) throws -> Void
    ) throws {
        guard depth <= maximumDepth else {
            throw RealmFault("the node at \(hex(ref)) nests deeper than \(maximumDepth) levels")
        }
        guard visited.insert(ref).inserted else {
            throw RealmFault("the node at \(hex(ref)) is reached twice (a cycle or shared subtree)")
        }
        let node = try self.node(ref)
        guard node.isInner else { return try body(clusterLeaf(node, offset: offset)) }
        let inner = try InnerCluster(self, node)
        for i in 0..<inner.childCount {
            try walkCluster(
                try inner.child(i), offset: try inner.offset(i, base: offset), depth: depth + 1, visited: &visited, body
            )
        }
    }

    /// The leaf holding `key`, by descent.
    func findClusterLeaf(_ root: Int64, key: Int64) throws -> ClusterLeaf? {
        guard root != 0 else { return nil }
        var ref = root, offset: Int64 = 0
        for _ in 0...maximumDepth {
            let node = try self.node(ref)
            guard node.isInner else { return try clusterLeaf(node, offset: offset) }
            let inner = try InnerCluster(self, node)
            guard inner.childCount > 0 else { return nil }
            // The last child whose first key is <= key.
            var low = 0, high = inner.childCount
            while high - low > 1 {
                let mid = (low + high) / 2
                if try inner.offset(mid, base: offset) <= key { low = mid } else { high = mid }
            }
            offset = try inner.offset(low, base: offset)
            ref = try inner.child(low)
        }
        throw RealmFault("the cluster tree at \(hex(root)) nests deeper than \(maximumDepth) levels")
    }
}

/// An inner cluster node's offsets and children.
struct InnerCluster {
    let node: Node
    let keys: Node?
    let shift: Int64
    var childCount: Int { node.count - 3 }

    init(_ mem: Mem, _ node: Node) throws(RealmFault) {
        guard node.hasRefs, node.count >= 3, node.widthType == 0 else {
            throw RealmFault("the inner cluster node at \(hex(Int64(node.ref))) is malformed")
        }
        self.node = node
        let keysRef = try node.ref(0)
        keys = keysRef != 0 ? try mem.node(keysRef) : nil
        try keys?.requireIntegers("key offsets")
        if let keys, keys.count < node.count - 3 {
            throw RealmFault(
                "the inner cluster node at \(hex(Int64(node.ref))) has \(node.count - 3) children but \(keys.count) offsets"
            )
        }
        let depth = try node.tagged(1)
        guard depth >= 1, depth <= 7 else {
            throw RealmFault("the inner cluster node at \(hex(Int64(node.ref))) has depth \(depth)")
        }
        shift = depth * Int64(Mem.nodeShiftFactor)
    }

    func child(_ i: Int) throws(RealmFault) -> Int64 { try node.ref(i + 3) }

    func offset(_ i: Int, base: Int64) throws(RealmFault) -> Int64 {
        let relative: Int64 = keys.map { Int64(bitPattern: $0.unsigned(i)) } ?? (Int64(i) << shift)
        let (sum, overflow) = base.addingReportingOverflow(relative)
        guard !overflow, relative >= 0 else {
            throw RealmFault("the inner cluster node at \(hex(Int64(node.ref))) has an impossible key offset")
        }
        return sum
    }
}
