import Foundation

/// A string or binary leaf (realm-core `array_string.cpp` 36-79, `array_binary.cpp`): short
/// (fixed-width slots), medium (`ArraySmallBlobs`: end offsets, blob, nulls) or big
/// (`ArrayBigBlobs`: one ref per value to a blob, chained beyond 16 MB).
struct StringLeaf {
    // Indirect: a leaf is copied for every value read; boxing keeps `Leaf` small (profiled).
    indirect enum Layout {
        case short(Node)
        case small(offsets: Node, blob: Node, nulls: Node?)
        case big(Node)
    }
    let layout: Layout
    let count: Int
    let nullable: Bool

    /// Bytes of one value: a slice of the mapping, or a copy when a big blob is chained.
    enum Bytes {
        case null
        case slice(UnsafeRawBufferPointer)
        case owned([UInt8])
    }

    init(_ mem: Mem, ref: Int64, nullable: Bool = true) throws(RealmFault) {
        try self.init(mem, node: try mem.node(ref), nullable: nullable)
    }

    init(_ mem: Mem, node: Node, nullable: Bool = true) throws(RealmFault) {
        self.nullable = nullable
        if !node.hasRefs {
            guard node.widthType == 1 || (node.widthType == 0 && node.width == 0) else {
                throw RealmFault("the string leaf at \(hex(Int64(node.ref))) has an unexpected encoding")
            }
            layout = .short(node)
            count = node.count
        } else if !node.context {
            guard node.count >= 2, node.widthType == 0 else {
                throw RealmFault("the string leaf at \(hex(Int64(node.ref))) is malformed")
            }
            let offsets = try mem.node(try node.ref(0))
            try offsets.requireIntegers("string offsets")
            let blob = try mem.node(try node.ref(1))
            let nullsRef: Int64 = node.count > 2 ? try node.ref(2) : 0
            let nulls: Node? = nullsRef != 0 ? try mem.node(nullsRef) : nil
            try nulls?.requireIntegers("string nulls")
            if let nulls, nulls.count < offsets.count {
                throw RealmFault(
                    "the string leaf at \(hex(Int64(node.ref))) has \(offsets.count) values but \(nulls.count) null flags"
                )
            }
            layout = .small(offsets: offsets, blob: blob, nulls: nulls)
            count = offsets.count
        } else {
            guard node.widthType == 0 else { throw RealmFault("the blob leaf at \(hex(Int64(node.ref))) is malformed") }
            layout = .big(node)
            count = node.count
        }
    }

    /// Value `i`; `stripNul` removes the terminating NUL that medium and big *strings* carry.
    func bytes(_ i: Int, _ mem: Mem, stripNul: Bool) throws(RealmFault) -> Bytes {
        guard i >= 0, i < count else { throw RealmFault("string index \(i) is beyond the leaf's \(count) values") }
        switch layout {
        case .short(let node):
            let w = node.width
            if w == 0 { return nullable ? .null : .slice(UnsafeRawBufferPointer(start: node.data, count: 0)) }
            let slot = node.data + i * w
            let last = Int(slot.load(fromByteOffset: w - 1, as: UInt8.self))
            if last == w { return nullable ? .null : .slice(UnsafeRawBufferPointer(start: slot, count: 0)) }
            guard last < w else { throw RealmFault("a short string at \(hex(Int64(node.ref))) has a bad length byte") }
            return .slice(UnsafeRawBufferPointer(start: slot, count: w - 1 - last))
        case .small(let offsets, let blob, let nulls):
            if let nulls, nulls.int(i) != 0 { return .null }
            let begin = i == 0 ? 0 : offsets.int(i - 1), end = offsets.int(i)
            guard begin >= 0, begin <= end, end <= Int64(blob.byteCount) else {
                throw RealmFault("string \(i) of the leaf at \(hex(Int64(offsets.ref))) lies outside its blob")
            }
            var length = Int(end - begin)
            if stripNul {
                guard length >= 1 else {
                    throw RealmFault("string \(i) of the leaf at \(hex(Int64(offsets.ref))) lacks its terminating NUL")
                }
                length -= 1
            }
            return .slice(UnsafeRawBufferPointer(start: blob.data + Int(begin), count: length))
        case .big(let node):
            let ref = node.int(i)
            if ref == 0 { return .null }
            guard ref & 1 == 0 else {
                throw RealmFault("the blob list at \(hex(Int64(node.ref))) holds a number where a ref belongs")
            }
            let blob = try mem.node(ref)
            if blob.context && blob.hasRefs {
                // Chained: a blob over 16 MB is a list of refs to chunks (`array_blob.cpp` 26-63).
                var out: [UInt8] = []
                for c in 0..<blob.count {
                    let chunk = try mem.node(try blob.ref(c))
                    guard chunk.widthType == 2 else {
                        throw RealmFault("a blob chunk at \(hex(Int64(chunk.ref))) is malformed")
                    }
                    out.append(contentsOf: UnsafeRawBufferPointer(start: chunk.data, count: chunk.count))
                }
                if stripNul {
                    guard !out.isEmpty else { throw RealmFault("a chained string lacks its terminating NUL") }
                    out.removeLast()
                }
                return .owned(out)
            }
            guard blob.widthType == 2 else { throw RealmFault("the blob at \(hex(ref)) is malformed") }
            var length = blob.count
            if stripNul {
                guard length >= 1 else { throw RealmFault("the string blob at \(hex(ref)) lacks its terminating NUL") }
                length -= 1
            }
            return .slice(UnsafeRawBufferPointer(start: blob.data, count: length))
        }
    }

    /// Value `i` as a string (nil = null). Invalid UTF-8 is repaired (U+FFFD), as text has to be.
    func string(_ i: Int, _ mem: Mem) throws(RealmFault) -> String? {
        switch try bytes(i, mem, stripNul: true) {
        case .null: return nil
        case .slice(let b): return String(decoding: b, as: UTF8.self)
        case .owned(let b): return String(decoding: b, as: UTF8.self)
        }
    }

    /// Value `i` as binary data (nil = null).
    func data(_ i: Int, _ mem: Mem) throws(RealmFault) -> Data? {
        switch try bytes(i, mem, stripNul: false) {
        case .null: return nil
        case .slice(let b): return Data(b)
        case .owned(let b): return Data(b)
        }
    }
}
