/// B+trees of collection elements, backlink lists and search-index key lists (core `bplustree.cpp`):
/// leaves of at most 1000 elements; an inner node is `[tagged elements-per-child, child refs…,
/// tagged total size]` (compact form: every child but the last holds exactly that many).
enum WriterBPlusTree {
    /// `REALM_MAX_BPNODE_SIZE`.
    static let nodeSize = 1000

    /// Writes `count` elements in leaves made by `writeLeaf(range)`, plus inner nodes; returns the root.
    static func write(count: Int, out: WriterOutput, writeLeaf: (Range<Int>) throws -> Int64) throws -> Int64 {
        if count <= nodeSize { return try writeLeaf(0..<count) }
        var level: [Int64] = []
        var start = 0
        while start < count {
            let end = min(start + nodeSize, count)
            level.append(try writeLeaf(start..<end))
            start = end
        }
        var perChild = nodeSize
        while level.count > 1 {
            var next: [Int64] = []
            var i = 0
            while i < level.count {
                let children = level[i..<min(i + nodeSize, level.count)]
                let elements = min(perChild * children.count, count - i * perChild)
                var node = [WriterNode.tagged(Int64(perChild))]
                node.append(contentsOf: children)
                node.append(WriterNode.tagged(Int64(elements)))
                next.append(try out.append(WriterNode.integers(node, flags: .init(isInner: true, hasRefs: true))))
                i += nodeSize
            }
            level = next
            perChild *= nodeSize
        }
        return level[0]
    }

    /// A B+tree of plain integers (object keys).
    static func integers(_ values: [Int64], out: WriterOutput) throws -> Int64 {
        try write(count: values.count, out: out) { range in
            try out.append(WriterNode.integers(Array(values[range])))
        }
    }
}
