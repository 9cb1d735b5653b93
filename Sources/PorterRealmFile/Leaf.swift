import Foundation
import PorterModel

/// How the elements of a column or collection are stored: the column type plus what changes the
/// leaf class (nullability, enum keys, whether links are stored `key + 1`).
struct ValueSpec {
    var type: Int
    var nullable: Bool
    var target: UInt32?
    var enumKeysRef: Int64 = 0
    /// Links in list/set B+trees store the key itself (`ArrayKeyNonNullable`); column leaves key + 1.
    var linksPlusOne: Bool = true
}

/// One decoded leaf header set: the node(s) of a column leaf or B+tree leaf, checked once, then
/// read element by element (realm-core leaf classes chosen in `cluster.cpp` 119-200).
enum Leaf {
    case ints(Node, nullable: Bool)
    case bools(Node)
    case floats(Node, nullable: Bool)
    case doubles(Node, nullable: Bool)
    case strings(StringLeaf)
    case binaries(StringLeaf)
    case enumStrings(Node, keys: StringLeaf)
    case timestamps(seconds: Node, nanos: Node)
    case decimals(Node, nullable: Bool)
    case fixedBytes(Node, width: Int, count: Int)
    case links(Node, plusOne: Bool)
    case typedLinks(Node)
    // Boxed: the largest payload by far, and `Leaf` is copied for every value read.
    indirect case mixed(MixedLeaf)
    case refs(Node)

    var count: Int {
        switch self {
        case .ints(let n, let nullable): return nullable ? max(n.count - 1, 0) : n.count
        case .bools(let n), .floats(let n, _), .doubles(let n, _), .decimals(let n, _), .links(let n, _), .refs(let n):
            return n.count
        case .strings(let s), .binaries(let s): return s.count
        case .enumStrings(let n, _): return n.count
        case .timestamps(let s, _): return max(s.count - 1, 0)
        case .fixedBytes(_, _, let c): return c
        case .typedLinks(let n): return n.count / 2
        case .mixed(let m): return m.composite.count
        }
    }

    init(_ mem: Mem, node: Node, spec: ValueSpec, collectionRefs: Bool) throws(RealmFault) {
        let K = ColumnInfo.Kind.self
        if collectionRefs {
            guard node.widthType == 0 else {
                throw RealmFault("the collection refs at \(hex(Int64(node.ref))) are malformed")
            }
            self = .refs(node)
            return
        }
        switch spec.type {
        case K.int:
            try node.requireIntegers("int values")
            if spec.nullable && node.count == 0 {
                throw RealmFault("the nullable int leaf at \(hex(Int64(node.ref))) lacks its null value")
            }
            self = .ints(node, nullable: spec.nullable)
        case K.bool:
            try node.requireIntegers("bool values")
            self = .bools(node)
        case K.float, K.double:
            let width = spec.type == K.float ? 4 : 8
            guard node.widthType == 1 || node.count == 0, node.count == 0 || node.width == width else {
                throw RealmFault(
                    "the \(spec.type == K.float ? "float" : "double") leaf at \(hex(Int64(node.ref))) has width \(node.width)"
                )
            }
            self =
                spec.type == K.float ? .floats(node, nullable: spec.nullable) : .doubles(node, nullable: spec.nullable)
        case K.string:
            if spec.enumKeysRef != 0 && !node.hasRefs && node.widthType == 0 {
                self = .enumStrings(node, keys: try StringLeaf(mem, ref: spec.enumKeysRef))
            } else {
                self = .strings(try StringLeaf(mem, node: node))
            }
        case K.binary:
            self = .binaries(try StringLeaf(mem, node: node))
        case K.timestamp:
            guard node.hasRefs, node.count >= 2 else {
                throw RealmFault("the timestamp leaf at \(hex(Int64(node.ref))) is malformed")
            }
            let seconds = try mem.node(try node.ref(0)), nanos = try mem.node(try node.ref(1))
            try seconds.requireIntegers("timestamp seconds")
            try nanos.requireIntegers("timestamp nanoseconds")
            guard seconds.count >= 1, nanos.count >= seconds.count - 1 else {
                throw RealmFault(
                    "the timestamp leaf at \(hex(Int64(node.ref))) has \(seconds.count) seconds but \(nanos.count) nanoseconds"
                )
            }
            self = .timestamps(seconds: seconds, nanos: nanos)
        case K.decimal:
            guard node.widthType == 1 || node.width == 0, [0, 4, 8, 16].contains(node.width) else {
                throw RealmFault("the decimal leaf at \(hex(Int64(node.ref))) has width \(node.width)")
            }
            self = .decimals(node, nullable: spec.nullable)
        case K.objectId, K.uuid:
            let width = spec.type == K.objectId ? 12 : 16
            guard node.widthType == 1 || node.count == 0, node.count == 0 || node.width == 1 else {
                throw RealmFault(
                    "the \(width == 12 ? "objectId" : "uuid") leaf at \(hex(Int64(node.ref))) is malformed")
            }
            let blocks = (node.count + width * 8) / (width * 8 + 1)
            let count = (node.count - blocks) / width
            self = .fixedBytes(node, width: width, count: max(count, 0))
        case K.link:
            try node.requireIntegers("link keys")
            self = .links(node, plusOne: spec.linksPlusOne)
        case K.typedLink:
            try node.requireIntegers("typed links")
            self = .typedLinks(node)
        case K.mixed:
            self = .mixed(try MixedLeaf(mem, node: node))
        default:
            throw RealmFault("unsupported column type \(spec.type)")
        }
    }
}

/// An `ArrayMixed` leaf (realm-core `array_mixed.hpp` 105-136, `array_mixed.cpp`): a has-refs
/// array [composite, ints, int pairs, strings, refs, keys]; composite = `value << 8 |
/// payload index << 5 | (DataType + 1)`, 0 = null.
struct MixedLeaf {
    let composite: Node
    let ints: Node?
    let pairs: Node?
    let strings: StringLeaf?
    let refs: Node?

    init(_ mem: Mem, node: Node) throws(RealmFault) {
        guard node.hasRefs, node.count >= 1 else {
            throw RealmFault("the mixed leaf at \(hex(Int64(node.ref))) is malformed")
        }
        composite = try mem.node(try node.ref(0))
        try composite.requireIntegers("mixed types")
        func optional(_ i: Int) throws(RealmFault) -> Node? {
            guard i < node.count else { return nil }
            let r = try node.ref(i)
            guard r != 0 else { return nil }
            let n = try mem.node(r)
            try n.requireIntegers("mixed payload")
            return n
        }
        ints = try optional(1)
        pairs = try optional(2)
        let stringsRef: Int64 = node.count > 3 ? try node.ref(3) : 0
        strings = stringsRef != 0 ? try StringLeaf(mem, ref: stringsRef) : nil
        refs = try optional(4)
    }
}
