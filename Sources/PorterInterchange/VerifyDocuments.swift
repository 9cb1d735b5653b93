import Foundation
import PorterDocument
import PorterModel

/// A document as `porter verify` compares it: the tree an export's mapper writes (fields in
/// schema order, links as the target's key, sets sorted, maps by key), with the values the compared
/// formats cannot tell apart made equal first (``VerifyEncoder``).
indirect enum VerifyNode {
    case scalar(Value)
    case document(names: [String], nodes: [VerifyNode])
    case array([VerifyNode])

    /// The field `name` of a document (nil for anything else or a missing field).
    func field(_ name: String) -> VerifyNode? {
        guard case .document(let names, let nodes) = self, let i = names.firstIndex(of: name) else { return nil }
        return nodes[i]
    }

    /// An unambiguous byte spelling (kind tags, lengths, bit patterns): equal bytes, equal nodes,
    /// with NaN equal to the same NaN and -0 different from 0, as the files store them.
    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    private func append(to out: inout [UInt8]) {
        func int(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func text(_ s: String) {
            int(UInt64(s.utf8.count))
            out.append(contentsOf: s.utf8)
        }
        switch self {
        case .document(let names, let nodes):
            out.append(0xD0)
            int(UInt64(names.count))
            for (name, node) in zip(names, nodes) {
                text(name)
                node.append(to: &out)
            }
        case .array(let nodes):
            out.append(0xA0)
            int(UInt64(nodes.count))
            for node in nodes { node.append(to: &out) }
        case .scalar(let value):
            switch value {
            case .null: out.append(0)
            case .bool(let b): out.append(b ? 2 : 1)
            case .int(let i):
                out.append(3)
                int(UInt64(bitPattern: i))
            case .float(let f):
                out.append(4)
                int(UInt64(f.bitPattern))
            case .double(let d):
                out.append(5)
                int(d.bitPattern)
            case .string(let s):
                out.append(6)
                text(s)
            case .data(let d):
                out.append(7)
                int(UInt64(d.count))
                out.append(contentsOf: d)
            case .date(let t):
                out.append(8)
                int(UInt64(bitPattern: t.seconds))
                int(UInt64(UInt32(bitPattern: t.nanoseconds)))
            case .decimal128(let d):
                out.append(9)
                int(d.high)
                int(d.low)
            case .objectId(let o):
                out.append(10)
                text(o.stringValue)
            case .uuid(let u):
                out.append(11)
                text(u.uuidString)
            default:
                // The mapper writes scalars only; anything else is spelled by its description.
                out.append(12)
                text(String(describing: value))
            }
        }
    }

    /// How a value is shown in the first line of a failed verification.
    var display: String {
        switch self {
        case .document(let names, _): return "{\(names.count) field\(names.count == 1 ? "" : "s")}"
        case .array(let nodes): return "[\(nodes.count) element\(nodes.count == 1 ? "" : "s")]"
        case .scalar(let value):
            switch value {
            case .decimal128(let d): return "\(d)"
            case .data(let d):
                let hex = d.prefix(16).map { hexByte($0) }.joined()
                return "data(\(d.count) bytes: \(hex)\(d.count > 16 ? "…" : ""))"
            case .date(let t): return t.iso8601(minimumFractionDigits: t.nanoseconds == 0 ? 0 : 9)
            case .string(let s): return "'\(s.count > 80 ? String(s.prefix(80)) + "…" : s)'"
            default: return value.messageText
            }
        }
    }

    /// The first place where `self` (the source's) and `other` (the target's) differ: the path
    /// below `path` (`owner.name`, `tags[2]`) and both sides' values (nil: absent), or nil when equal.
    func firstDifference(from other: VerifyNode, path: String) -> (
        path: String, source: VerifyNode?, target: VerifyNode?
    )? {
        switch (self, other) {
        case (.document(let names, let nodes), .document(let otherNames, let otherNodes)):
            for (name, node) in zip(names, nodes) {
                let below = path.isEmpty ? name : path + "." + name
                guard let i = otherNames.firstIndex(of: name) else { return (below, node, nil) }
                if let found = node.firstDifference(from: otherNodes[i], path: below) { return found }
            }
            for (name, node) in zip(otherNames, otherNodes) where !names.contains(name) {
                return (path.isEmpty ? name : path + "." + name, nil, node)
            }
            return nil
        case (.array(let nodes), .array(let otherNodes)):
            for (i, (node, otherNode)) in zip(nodes, otherNodes).enumerated() {
                if let found = node.firstDifference(from: otherNode, path: "\(path)[\(i)]") { return found }
            }
            return nodes.count == otherNodes.count ? nil : (path, self, other)
        default:
            return bytes() == other.bytes() ? nil : (path, self, other)
        }
    }
}

/// Builds ``VerifyNode`` trees from an export's mapper, making equal what a compared format
/// cannot tell apart: dates floored to the millisecond where one side holds milliseconds (BSON,
/// Extended JSON), and a float in a `mixed` widened to a double where one side went through an
/// import (every import stores it so).
final class VerifyEncoder: DocumentEncoder {
    private let floorsDates: Bool
    private let widensMixedFloats: Bool
    private var stack: [(key: String?, names: [String], nodes: [VerifyNode])] = []
    /// The last document finished.
    private(set) var document = VerifyNode.document(names: [], nodes: [])

    init(floorsDates: Bool, widensMixedFloats: Bool) {
        self.floorsDates = floorsDates
        self.widensMixedFloats = widensMixedFloats
    }

    func beginDocument() throws { stack = [(nil, [], [])] }

    func endDocument() throws {
        let top = stack.removeLast()
        document = .document(names: top.names, nodes: top.nodes)
    }

    func openDocument(_ key: String?) throws { stack.append((key, [], [])) }

    func closeDocument() throws {
        let top = stack.removeLast()
        add(top.key, .document(names: top.names, nodes: top.nodes))
    }

    func openArray(_ key: String?) throws { stack.append((key, [], [])) }

    func closeArray() throws {
        let top = stack.removeLast()
        add(top.key, .array(top.nodes))
    }

    func write(_ key: String?, _ value: Value, mixed: Bool) throws {
        switch value {
        case .date(let t) where floorsDates:
            let ns = Int64(t.nanoseconds)
            let below = ns % 1_000_000
            let floored = below < 0 ? ns - below - 1_000_000 : ns - below
            add(key, .scalar(.date(Timestamp(seconds: t.seconds, nanoseconds: Int32(floored)))))
        case .float(let f) where mixed && widensMixedFloats:
            add(key, .scalar(.double(Double(f))))
        default:
            add(key, .scalar(value))
        }
    }

    func finish() throws {}

    var flooredDates: Int { 0 }

    private func add(_ key: String?, _ node: VerifyNode) {
        stack[stack.count - 1].names.append(key ?? "")
        stack[stack.count - 1].nodes.append(node)
    }
}

/// A 128-bit digest of bytes from two differently prefixed SipHash lanes (Swift's `Hasher`,
/// seeded per process): the verification's table holds digests, never the values themselves, so
/// nothing of an encrypted file's content reaches the disk.
func verifyDigest(_ bytes: [UInt8]) -> [UInt8] {
    var lanes: [UInt8] = []
    for lane in [UInt8(0x5A), 0xA5] {
        var hasher = Hasher()
        hasher.combine(lane)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        withUnsafeBytes(of: UInt64(bitPattern: Int64(hasher.finalize())).littleEndian) {
            lanes.append(contentsOf: $0)
        }
    }
    return lanes
}
