import Foundation
import PorterModel

/// What salvaging one class recovered and lost.
package struct RealmSalvageClassReport: Sendable, Equatable {
    /// The class.
    package var className: String
    /// Objects read (whole, or with some values replaced).
    package var recovered = 0
    /// Object keys lost, as closed ranges (`nil` upper bound: up to the end of the tree).
    package var lostKeys: [String] = []
    /// Why each lost range was lost (the reader's message).
    package var lostBecause: [String] = []
    /// Per property, values that could not be read and were replaced by null (or the type's
    /// zero for a required property, an empty collection for a collection).
    package var nulled: [String: Int] = [:]
    /// Links to objects that were not recovered, nulled (or dropped from their collection).
    package var danglingLinks = 0
    /// Whether the whole class could not be read (its tree's root is unreadable).
    package var unreadable = false

    /// Creates an empty report for `className`.
    package init(className: String) { self.className = className }

    /// Whether anything of the class was lost.
    package var lostSomething: Bool { !lostKeys.isEmpty || !nulled.isEmpty || danglingLinks > 0 || unreadable }
}

/// Reading what can be read of a damaged file: unreadable cluster subtrees are skipped (their key
/// range reported), unreadable column leaves and values replaced.
extension RealmFile {
    /// Streams every readable object of `table` in key order, with the indexes of the values that
    /// were replaced, recording in `report` what could not be read.
    package func salvageObjects(
        in table: RealmTable, report: inout RealmSalvageClassReport,
        _ body: (RealmObject, _ replaced: Set<Int>) throws -> Void
    ) throws {
        let info = try self.info(table)
        defer { mapping.releaseResidentPages() }
        var visited = Set<Int64>()
        var previous: Int64?
        guard info.clusterRoot != 0 else { return }
        try salvageWalk(
            info, table: table, ref: info.clusterRoot, offset: 0, next: nil, depth: 0, visited: &visited,
            previous: &previous, report: &report, body)
    }

    private func salvageWalk(
        _ info: TableInfo, table: RealmTable, ref: Int64, offset: Int64, next: Int64?, depth: Int,
        visited: inout Set<Int64>, previous: inout Int64?, report: inout RealmSalvageClassReport,
        _ body: (RealmObject, Set<Int>) throws -> Void
    ) throws {
        func lose(_ why: String) {
            let upper = next.map { String($0 - 1) } ?? "end"
            report.lostKeys.append("\(offset)...\(upper)")
            report.lostBecause.append("keys \(offset)...\(upper): \(why)")
            if depth == 0 { report.unreadable = true }
        }
        guard depth <= maximumDepth, visited.insert(ref).inserted else {
            return lose("the node at \(hex(ref)) nests too deep or is reached twice")
        }
        let node: Node
        switch Result(catching: { () throws(RealmFault) -> Node in try mem.node(ref) }) {
        case .success(let n): node = n
        case .failure(let fault): return lose(fault.message)
        }
        if node.isInner {
            let inner: InnerCluster
            switch Result(catching: { () throws(RealmFault) -> InnerCluster in try InnerCluster(mem, node) }) {
            case .success(let n): inner = n
            case .failure(let fault): return lose(fault.message)
            }
            for i in 0..<inner.childCount {
                let childNext =
                    (try? inner.offset(i + 1, base: offset)).flatMap { i + 1 < inner.childCount ? $0 : nil } ?? next
                guard let childOffset = try? inner.offset(i, base: offset), let child = try? inner.child(i) else {
                    report.lostKeys.append("child \(i) of \(hex(ref))")
                    report.lostBecause.append(
                        "child \(i) of the inner node at \(hex(ref)): its ref or key offset is unreadable")
                    continue
                }
                try salvageWalk(
                    info, table: table, ref: child, offset: childOffset, next: childNext, depth: depth + 1,
                    visited: &visited, previous: &previous, report: &report, body)
            }
            return
        }
        let leaf: ClusterLeaf
        switch Result(catching: { () throws(RealmFault) -> ClusterLeaf in try mem.clusterLeaf(node, offset: offset) }) {
        case .success(let l): leaf = l
        case .failure(let fault): return lose(fault.message)
        }
        // Each column leaf on its own: one unreadable column costs that column, not the objects.
        var leaves: [Leaf?] = []
        for c in info.columns.indices {
            do {
                leaves.append(try columnLeaves(info, leaf, only: c)[c])
            } catch {
                leaves.append(nil)
            }
        }
        let walk = Walk(mem)
        for row in 0..<leaf.count {
            let key = leaf.key(row)
            if let previous, key <= previous {
                report.lostKeys.append("\(key)")
                report.lostBecause.append("key \(key): out of order in the cluster at \(hex(ref))")
                continue
            }
            previous = key
            var values: [RealmValue] = []
            var replaced = Set<Int>()
            for (c, column) in info.columns.enumerated() {
                let property = table.properties[c]
                guard let l = leaves[c] else {
                    replaced.insert(c)
                    report.nulled["\(table.name).\(column.name)", default: 0] += 1
                    values.append(Self.replacement(for: property))
                    continue
                }
                do {
                    values.append(try columnValue(info, c, l, row, walk: walk))
                } catch {
                    replaced.insert(c)
                    report.nulled["\(table.name).\(column.name)", default: 0] += 1
                    values.append(Self.replacement(for: property))
                }
            }
            report.recovered += 1
            try body(RealmObject(key: key, values: values), replaced)
        }
    }

    /// What stands in for a value that could not be read: null, or the zero of a required type,
    /// or an empty collection.
    package static func replacement(for property: Property) -> RealmValue {
        switch property.collection {
        case .list: return .list([])
        case .set: return .set([])
        case .map: return .dictionary([])
        default: break
        }
        if property.isOptional || property.type == .object || property.type == .mixed { return .null }
        switch property.type {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .binary(Data())
        case .date: return .timestamp(seconds: 0, nanoseconds: 0)
        case .decimal128: return .decimal128(Decimal128(high: 0x3040_0000_0000_0000, low: 0))
        case .objectId: return ObjectId(bytes: [UInt8](repeating: 0, count: 12)).map { .objectId($0) } ?? .null
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        default: return .null
        }
    }

    /// Opens the previous snapshot (the header slot not selected) of a plaintext file: a private,
    /// unlinked copy with the other slot selected. Nil when the file is encrypted, the other slot
    /// is empty or it does not open. The file itself is only read.
    ///
    /// A file cut short is read as far as it goes: the copy is cut to whole 8-byte words and the
    /// size the top array records is not required, so the previous snapshot of a file whose last
    /// commit was lost with its tail opens, and salvage reports the nodes past the end as lost.
    package static func previousSnapshot(of path: String) -> RealmFile? { snapshot(of: path, previous: true) }

    /// Opens the current snapshot (`previous` false) or the previous one of a plaintext file that
    /// may be cut short, from a private unlinked copy (see `previousSnapshot(of:)`); nil when it does not open.
    package static func snapshot(of path: String, previous: Bool) -> RealmFile? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        let head = [UInt8]((try? handle.read(upToCount: 24)) ?? Data())
        try? handle.close()
        guard head.count == 24, head[16..<20].elementsEqual("T-DB".utf8) else { return nil }
        let other = Int(head[23] & 1) ^ (previous ? 1 : 0)
        let top = (0..<8).reduce(UInt64(0)) { $0 | UInt64(head[8 * other + $1]) << (8 * UInt64($1)) }
        guard !previous || (top != 0 && top != UInt64.max && head[20 + other] != 0) else { return nil }
        let temporary =
            NSTemporaryDirectory() + "/porter-snapshot-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).realm"
        defer { unlink(temporary) }  // the mapping keeps the bytes; nothing is left behind
        guard (try? FileManager.default.copyItem(atPath: path, toPath: temporary)) != nil else { return nil }
        let fd = open(temporary, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var flags = (head[23] & ~1) | UInt8(other)
        let written = pwrite(fd, &flags, 1, 23)
        var info = stat()
        // A tail cut mid-word: the last partial word can hold no whole node.
        let cut =
            fstat(fd, &info) == 0 && (info.st_size % 8 == 0 || ftruncate(fd, info.st_size - info.st_size % 8) == 0)
        close(fd)
        guard written == 1, cut else { return nil }
        return try? RealmFile(path: temporary, encryptionKey: nil, allowingShortFile: true)
    }
}
