import Foundation
import PorterModel

/// Decoding single values from leaves (realm-core leaf classes, see the reference §1.8).
extension RealmFile {
    /// Value `i` of `leaf`. Links resolve to `.link`, embedded targets inline; unresolved links
    /// (tombstones) read as `.null`.
    func value(_ leaf: Leaf, _ i: Int, walk: Walk, target: UInt32?) throws -> RealmValue {
        guard i >= 0, i < leaf.count else { throw RealmFault("value \(i) is beyond the leaf's \(leaf.count) values") }
        switch leaf {
        case .links(let n, let plusOne):
            let stored = n.int(i)
            if plusOne && stored == 0 { return .null }
            let key = plusOne ? stored &- 1 : stored
            guard let target else { throw RealmFault("a link column has no target table") }
            return try link(table: target, key: key, walk: walk)
        case .typedLinks(let n):
            let tableRaw = n.int(2 * i), objectRaw = n.int(2 * i + 1)
            if tableRaw == 0 || objectRaw == 0 { return .null }
            return try link(
                table: UInt32(truncatingIfNeeded: (tableRaw &- 1) & 0x7FFF_FFFF), key: objectRaw &- 1, walk: walk)
        case .mixed(let m):
            return try mixed(m, i, walk: walk)
        case .refs:
            throw RealmFault("collection refs read as a value")
        default:
            return try leaf.scalar(i, mem)
        }
    }

    /// A link to `key` in table `table`: `.null` when unresolved, the embedded object inline when
    /// the target is embedded.
    func link(table: UInt32, key: Int64, walk: Walk) throws -> RealmValue {
        if key < 0 { return .null }
        guard let target = infoByKey[table] else {
            throw RealmFault("a link points to table key \(table), which the file does not have")
        }
        guard target.tableType == 1 else { return .link(className: target.name, key: key) }
        guard walk.depth < maximumDepth else {
            throw RealmFault("embedded objects nest deeper than \(maximumDepth) levels (a cycle?)")
        }
        guard let values = try objectValues(target, key: key, walk: walk.deeper()) else {
            throw RealmFault("the embedded \(target.name) object \(key) does not exist")
        }
        return .embedded(className: target.name, key: key, values: values)
    }

    /// Value `i` of a mixed leaf (`array_mixed.cpp` `get`).
    func mixed(_ m: MixedLeaf, _ i: Int, walk: Walk) throws -> RealmValue {
        let v = m.composite.int(i)
        if v == 0 { return .null }
        let type = Int(v & 0x1F) - 1
        let inPayload = (v >> 5) & 7 != 0
        let data = v >> 8
        func payload(_ node: Node?, _ name: String) throws -> Node {
            guard let node else { throw RealmFault("a mixed value refers to a missing \(name) array") }
            return node
        }
        func int(_ index: Int64) throws -> Int64 {
            let ints = try payload(m.ints, "int")
            guard index >= 0, index < Int64(ints.count) else {
                throw RealmFault("a mixed value's payload index \(index) is out of range")
            }
            return ints.int(Int(index))
        }
        func pair(_ index: Int64) throws -> (Int64, Int64) {
            let pairs = try payload(m.pairs, "int pair")
            guard index >= 0, index < Int64(pairs.count / 2) else {
                throw RealmFault("a mixed value's payload index \(index) is out of range")
            }
            return (pairs.int(Int(index) * 2), pairs.int(Int(index) * 2 + 1))
        }
        func bytes(_ index: Int64, _ body: (UnsafeRawBufferPointer) throws -> RealmValue) throws -> RealmValue {
            guard let strings = m.strings else { throw RealmFault("a mixed value refers to a missing string array") }
            guard index >= 0, index < Int64(strings.count) else {
                throw RealmFault("a mixed value's payload index \(index) is out of range")
            }
            switch try strings.bytes(Int(index), mem, stripNul: true) {
            case .null: return .null
            case .slice(let b): return try body(b)
            case .owned(let b): return try b.withUnsafeBytes(body)
            }
        }
        let D = ColumnInfo.Kind.self
        switch type {
        case D.int: return .int(inPayload ? try int(data) : data)
        case D.bool: return .bool(data != 0)
        case D.float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: try int(data))))
        case D.double: return .double(Double(bitPattern: UInt64(bitPattern: try int(data))))
        case D.string: return try bytes(data) { .string(String(decoding: $0, as: UTF8.self)) }
        case D.binary: return try bytes(data) { .binary(Data($0)) }
        case D.timestamp:
            let (s, n) = try pair(data)
            return .timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: n))
        case D.decimal:
            let (low, high) = try pair(data)
            return .decimal128(Decimal128(high: UInt64(bitPattern: high), low: UInt64(bitPattern: low)))
        case D.objectId:
            return try bytes(data) { b in
                guard b.count >= 12 else { throw RealmFault("a mixed objectId has \(b.count) bytes") }
                return ObjectId(rawBytes: UnsafeRawBufferPointer(rebasing: b.prefix(12))).map(RealmValue.objectId)
                    ?? .null
            }
        case D.uuid:
            return try bytes(data) { b in
                guard b.count >= 16 else { throw RealmFault("a mixed uuid has \(b.count) bytes") }
                return .uuid(Leaf.uuid(b))
            }
        case D.typedLink:
            let (table, key) = try pair(data)
            return try link(table: UInt32(truncatingIfNeeded: table), key: key, walk: walk)
        case D.link:
            return .null  // an untyped link has no target class: realm-core never stores one in a mixed
        case 19, 20, 21:
            // A nested collection (format 24): a ref in the refs array.
            let refs = try payload(m.refs, "ref")
            guard data >= 0, data < Int64(refs.count) else {
                throw RealmFault("a nested collection's index \(data) is out of range")
            }
            let ref = refs.int(Int(data))
            guard ref & 1 == 0 else { throw RealmFault("a nested collection's ref is a number") }
            guard walk.depth < maximumNesting else {
                throw RealmFault("nested collections nest deeper than \(maximumNesting) levels")
            }
            if type == 21 { return .dictionary(try dictionary(ref, layout23: true, walk: walk.deeper())) }
            let elements = try elements(
                ref, spec: ValueSpec(type: D.mixed, nullable: true, target: nil), walk: walk.deeper(), skipNulls: false)
            return type == 20 ? .set(elements) : .list(elements)
        default:
            throw RealmFault("a mixed value has the unknown type \(type)")
        }
    }
}
