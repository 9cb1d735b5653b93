import PorterModel

/// Lists, sets and dictionaries (reference §1.9).
extension RealmFile {
    /// The elements of the B+tree at `ref` (0 = empty). `skipNulls` leaves out unresolved links
    /// of link lists and sets.
    func elements(_ ref: Int64, spec: ValueSpec, walk: Walk, skipNulls: Bool) throws -> [RealmValue] {
        var out: [RealmValue] = []
        let mem = self.mem
        try mem.forEachBPlusLeaf(ref) { node in
            let leaf = try Leaf(mem, node: node, spec: spec, collectionRefs: false)
            guard leaf.count <= maximumLeafSize else {
                throw RealmFault("the collection leaf at \(hex(Int64(node.ref))) claims \(leaf.count) elements")
            }
            try walk.budget.spend(leaf.count)
            // Geometric growth by append: an exact reserve per leaf would copy the whole array per leaf.
            for i in 0..<leaf.count {
                let v = try value(leaf, i, walk: walk, target: spec.target)
                if skipNulls && v == .null { continue }
                out.append(v)
            }
        }
        return out
    }

    /// The entries of a dictionary: formats 23+ a has-refs array [keys B+tree, values B+tree];
    /// formats 21–22 a cluster tree whose column 0 holds the keys and column 1 the values.
    func dictionary(_ ref: Int64, layout23: Bool, walk: Walk) throws -> [RealmDictionaryEntry] {
        guard ref != 0 else { return [] }
        let mem = self.mem
        let keySpec = ValueSpec(type: ColumnInfo.Kind.string, nullable: true, target: nil)
        let valueSpec = ValueSpec(type: ColumnInfo.Kind.mixed, nullable: true, target: nil)
        var entries: [RealmDictionaryEntry] = []
        if layout23 {
            let top = try mem.array(ref, minimum: 2, "the dictionary")
            let keys = try elements(try top.ref(0), spec: keySpec, walk: walk, skipNulls: false)
            let values = try elements(try top.ref(1), spec: valueSpec, walk: walk, skipNulls: false)
            guard keys.count == values.count else {
                throw RealmFault("the dictionary at \(hex(ref)) has \(keys.count) keys but \(values.count) values")
            }
            for (k, v) in zip(keys, values) {
                guard case .string(let key) = k else {
                    throw RealmFault("the dictionary at \(hex(ref)) has a null key")
                }
                entries.append(RealmDictionaryEntry(key: key, value: v))
            }
            return entries
        }
        try mem.forEachClusterLeaf(ref) { leaf in
            let keys = try Leaf(mem, node: try mem.node(try leaf.columnRef(0)), spec: keySpec, collectionRefs: false)
            let values = try Leaf(
                mem, node: try mem.node(try leaf.columnRef(1)), spec: valueSpec, collectionRefs: false)
            guard keys.count >= leaf.count, values.count >= leaf.count else {
                throw RealmFault(
                    "the dictionary cluster at \(hex(Int64(leaf.node.ref))) holds fewer keys or values than entries")
            }
            try walk.budget.spend(leaf.count)
            for i in 0..<leaf.count {
                guard case .string(let key) = try value(keys, i, walk: walk, target: nil) else {
                    throw RealmFault("the dictionary at \(hex(ref)) has a null key")
                }
                entries.append(RealmDictionaryEntry(key: key, value: try value(values, i, walk: walk, target: nil)))
            }
        }
        return entries
    }

    /// The value of a collection column for one object (`ref` from its `ArrayRef` leaf).
    func collection(_ ref: Int64, _ column: ColumnInfo, walk: Walk) throws -> RealmValue {
        guard ref & 1 == 0 else { throw RealmFault("a collection ref is a number") }
        if column.isDictionary {
            return .dictionary(try dictionary(ref, layout23: layoutFormat >= 23, walk: walk))
        }
        var spec = column.valueSpec
        spec.linksPlusOne = false
        let values = try elements(ref, spec: spec, walk: walk, skipNulls: column.type == ColumnInfo.Kind.link)
        return column.isSet ? .set(values) : .list(values)
    }
}

extension ColumnInfo {
    /// How this column's values (or collection elements) are stored.
    var valueSpec: ValueSpec {
        ValueSpec(type: type, nullable: isNullable, target: targetTable, enumKeysRef: enumKeysRef)
    }
}
