import Foundation

/// Reads one column of the pre-cluster layout row by row: the column's B+tree leaves are listed
/// once (a start row per leaf, about one entry per 1,000 values), then each leaf is decoded when
/// the rows reach it, with the leaf classes of the cluster reader (the leaf encodings did not
/// change in realm-core 6, only what holds them).
struct LegacyColumnReader {
    let mem: Mem
    let column: LegacyLayout.Column
    /// The class a link column's values point to.
    let targetClass: String?

    /// One B+tree of the column (a Timestamp column has two: seconds and nanoseconds).
    private struct Part {
        var starts: [Int] = []
        var refs: [Int64] = []
        var spec: ValueSpec
        var refsLeaf = false
        var current: (index: Int, leaf: Leaf)?
    }
    private var state: [Part]

    init(_ mem: Mem, column: LegacyLayout.Column, targetClass: String?) throws(RealmFault) {
        self.mem = mem
        self.column = column
        self.targetClass = targetClass
        let K = LegacyLayout.Kind.self, C = ColumnInfo.Kind.self
        var parts: [Part] = []
        switch column.type {
        case K.int, K.bool, K.oldDateTime:
            parts = [Part(spec: ValueSpec(type: C.int, nullable: column.isNullable, target: nil))]
            try Self.list(mem, column.root, &parts[0])
        case K.timestamp:
            let top = try mem.array(column.root, minimum: 2, "the timestamp column")
            parts = [
                Part(spec: ValueSpec(type: C.int, nullable: true, target: nil)),
                Part(spec: ValueSpec(type: C.int, nullable: false, target: nil)),
            ]
            try Self.list(mem, try top.ref(0), &parts[0])
            try Self.list(mem, try top.ref(1), &parts[1])
        case K.float, K.double:
            let type = column.type == K.float ? C.float : C.double
            parts = [Part(spec: ValueSpec(type: type, nullable: column.isNullable, target: nil))]
            try Self.list(mem, column.root, &parts[0])
        case K.string:
            parts = [Part(spec: ValueSpec(type: C.string, nullable: column.isNullable, target: nil))]
            try Self.list(mem, column.root, &parts[0])
        case K.stringEnum:
            parts = [
                Part(
                    spec: ValueSpec(
                        type: C.string, nullable: column.isNullable, target: nil, enumKeysRef: column.enumKeys))
            ]
            try Self.list(mem, column.root, &parts[0])
        case K.binary:
            parts = [Part(spec: ValueSpec(type: C.binary, nullable: column.isNullable, target: nil))]
            try Self.list(mem, column.root, &parts[0])
        case K.link:
            parts = [Part(spec: ValueSpec(type: C.int, nullable: false, target: nil))]
            try Self.list(mem, column.root, &parts[0])
        case K.linkList, K.table:
            parts = [Part(spec: ValueSpec(type: C.int, nullable: false, target: nil), refsLeaf: true)]
            try Self.list(mem, column.root, &parts[0])
        case K.mixed:
            throw RealmFault("the old Mixed column type (realm-core 5 and older) is not read yet")
        default:
            throw RealmFault("unknown column type \(column.type)")
        }
        state = parts
    }

    /// Lists the leaves of the B+tree at `root` with the row each starts at.
    private static func list(_ mem: Mem, _ root: Int64, _ part: inout Part) throws(RealmFault) {
        var start = 0
        var starts: [Int] = [], refs: [Int64] = []
        let spec = part.spec, refsLeaf = part.refsLeaf
        do {
            try mem.forEachBPlusLeaf(root) { node in
                let leaf = try Leaf(mem, node: node, spec: spec, collectionRefs: refsLeaf)
                starts.append(start)
                refs.append(Int64(node.ref))
                start += leaf.count
            }
        } catch let fault as RealmFault {
            throw fault
        } catch {
            throw RealmFault("\(error)")
        }
        part.starts = starts
        part.refs = refs
    }

    /// The decoded leaf holding `row` of part `p`, and the row's index in it.
    private mutating func leaf(_ p: Int, _ row: Int) throws(RealmFault) -> (Leaf, Int) {
        if let current = state[p].current {
            let start = state[p].starts[current.index]
            if row >= start && row < start + current.leaf.count { return (current.leaf, row - start) }
        }
        let starts = state[p].starts
        // The last leaf starting at or before `row`.
        var low = 0, high = starts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if starts[mid] <= row { low = mid } else { high = mid }
        }
        guard low < starts.count, starts[low] <= row else {
            throw RealmFault("row \(row) is beyond the column's values")
        }
        let leaf = try Leaf(
            mem, node: try mem.node(state[p].refs[low]), spec: state[p].spec, collectionRefs: state[p].refsLeaf)
        guard row - starts[low] < leaf.count else { throw RealmFault("row \(row) is beyond the column's values") }
        state[p].current = (low, leaf)
        return (leaf, row - starts[low])
    }

    /// The value of `row`, as realm-core 6's upgrade would have converted it.
    mutating func value(_ row: Int) throws(RealmFault) -> RealmValue {
        let K = LegacyLayout.Kind.self
        switch column.type {
        case K.int:
            let (leaf, i) = try leaf(0, row)
            return try scalar(leaf, i)
        case K.bool:
            let (leaf, i) = try leaf(0, row)
            guard case .int(let v) = try scalar(leaf, i) else { return .null }
            return .bool(v != 0)
        case K.oldDateTime:
            // realm-core 5's upgrade from format 4: DateTime seconds become Timestamp(seconds, 0).
            let (leaf, i) = try leaf(0, row)
            guard case .int(let v) = try scalar(leaf, i) else { return .null }
            return .timestamp(seconds: v, nanoseconds: 0)
        case K.timestamp:
            let (seconds, i) = try leaf(0, row)
            guard case .int(let s) = try scalar(seconds, i) else {
                return column.isNullable ? .null : .timestamp(seconds: 0, nanoseconds: 0)
            }
            let (nanos, j) = try leaf(1, row)
            guard case .int(let n) = try scalar(nanos, j) else { return .timestamp(seconds: s, nanoseconds: 0) }
            return .timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: n))
        case K.string, K.stringEnum:
            let (leaf, i) = try leaf(0, row)
            let v = try scalar(leaf, i)
            return v == .null && !column.isNullable ? .string("") : v
        case K.binary:
            let (leaf, i) = try leaf(0, row)
            let v = try scalar(leaf, i)
            return v == .null && !column.isNullable ? .binary(Data()) : v
        case K.float, K.double:
            let (leaf, i) = try leaf(0, row)
            return try scalar(leaf, i)
        case K.link:
            let (leaf, i) = try leaf(0, row)
            guard case .int(let v) = try scalar(leaf, i), v != 0 else { return .null }
            return .link(className: targetClass ?? "", key: v &- 1)
        case K.linkList:
            let ref = try collectionRef(row)
            guard ref != 0 else { return .list([]) }
            return .list(
                try elements(ref, ValueSpec(type: ColumnInfo.Kind.int, nullable: false, target: nil)).map {
                    guard case .int(let v) = $0 else { return .null }
                    return .link(className: targetClass ?? "", key: v)
                })
        case K.table:
            let ref = try collectionRef(row)
            guard ref != 0, let element = column.element else { return .list([]) }
            // The subtable's columns array: its first column is the list (realm-core 6's upgrade).
            let columns = try mem.array(ref, minimum: 0, "the subtable")
            guard columns.count > 0 else { return .list([]) }
            let sub = LegacyLayout.Column(
                name: "", storedName: "", type: element.type, attrs: element.nullable ? LegacyLayout.Attr.nullable : 0,
                root: try columns.ref(0))
            var reader = try LegacyColumnReader(mem, column: sub, targetClass: nil)
            let count = try LegacyLayout.size(mem, sub)
            var values: [RealmValue] = []
            values.reserveCapacity(count)
            for r in 0..<count { values.append(try reader.value(r)) }
            return .list(values)
        default:
            throw RealmFault("unknown column type \(column.type)")
        }
    }

    private mutating func collectionRef(_ row: Int) throws(RealmFault) -> Int64 {
        let (leaf, i) = try leaf(0, row)
        guard case .refs(let node) = leaf else { throw RealmFault("collection refs expected") }
        let v = node.int(i)
        guard v & 1 == 0 else { throw RealmFault("a collection ref of row \(row) is a number") }
        return v
    }

    /// Every value of the B+tree at `root` (a link list's target rows).
    private func elements(_ root: Int64, _ spec: ValueSpec) throws(RealmFault) -> [RealmValue] {
        var out: [RealmValue] = []
        do {
            try mem.forEachBPlusLeaf(root) { node in
                let leaf = try Leaf(mem, node: node, spec: spec, collectionRefs: false)
                for i in 0..<leaf.count { out.append(try leaf.scalar(i, mem)) }
            }
        } catch let fault as RealmFault {
            throw fault
        } catch {
            throw RealmFault("\(error)")
        }
        return out
    }

    private func scalar(_ leaf: Leaf, _ i: Int) throws(RealmFault) -> RealmValue {
        do {
            return try leaf.scalar(i, mem)
        } catch let fault as RealmFault {
            throw fault
        } catch {
            throw RealmFault("\(error)")
        }
    }
}
