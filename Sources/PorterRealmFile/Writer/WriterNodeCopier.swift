import PorterModel

/// Copies a subtree of nodes from a mapped Realm file into the file being written: leaves byte
/// for byte, has-refs arrays with their refs replaced by those of the copied children.
///
/// A well-formed file reaches every node once, so the bytes copied never exceed the source's
/// size; a shared or cyclic subtree (a damaged or hostile file) exhausts that budget and is refused
/// instead of being copied over and over.
struct WriterNodeCopier {
    let mem: Mem
    let out: WriterOutput
    private var budget: Int

    init(mem: Mem, out: WriterOutput) {
        self.mem = mem
        self.out = out
        budget = mem.size
    }

    /// Copies the node at `ref` and everything it refers to; returns the copy's ref.
    mutating func copy(_ ref: Int64) throws -> Int64 {
        try copy(ref, depth: 0)
    }

    private mutating func copy(_ ref: Int64, depth: Int) throws -> Int64 {
        guard depth <= maximumDepth else {
            throw RealmFault("the node at \(hex(ref)) nests deeper than \(maximumDepth) levels")
        }
        let node = try mem.node(ref)
        let length = 8 + ((node.byteCount + 7) & ~7)
        budget -= length
        guard budget >= 0 else {
            throw RealmFault("the node at \(hex(ref)) is reached more than once (a cycle or shared subtree)")
        }
        guard node.hasRefs else {
            // The payload's padding is part of the node in the file (nodes are 8-aligned).
            return try out.append(
                raw: UnsafeRawBufferPointer(start: mem.base + node.ref, count: min(length, mem.size - node.ref)))
        }
        guard node.widthType == 0 else {
            throw RealmFault("the array at \(hex(ref)) has refs but is not an integer array")
        }
        var slots: [Int64] = []
        slots.reserveCapacity(node.count)
        for i in 0..<node.count {
            let slot = node.int(i)
            // In a has-refs array an even non-zero slot is a ref, an odd one a tagged integer.
            slots.append(slot != 0 && slot & 1 == 0 ? try copy(slot, depth: depth + 1) : slot)
        }
        return try out.append(
            WriterNode.integers(slots, flags: .init(isInner: node.isInner, hasRefs: true, context: node.context)))
    }
}
