/// The mapped file: every read goes through `node(_:)`, which checks the ref and the payload
/// against the file size, so nothing downstream reads outside the mapping.
struct Mem: @unchecked Sendable {
    let base: UnsafeRawPointer
    let size: Int

    /// Decodes the node at `ref`.
    func node(_ ref: Int64) throws(RealmFault) -> Node {
        guard ref >= 24, ref <= Int64(size) - 8 else {
            if ref == 0 { throw RealmFault("a required ref is missing (0)") }
            throw RealmFault.refOutside(ref, size: size)
        }
        guard ref & 7 == 0 else { throw RealmFault("ref \(hex(ref)) is not 8-aligned") }
        let offset = Int(ref)
        let flags = base.load(fromByteOffset: offset + 4, as: UInt8.self)
        let count =
            Int(base.load(fromByteOffset: offset + 5, as: UInt8.self)) << 16
            | Int(base.load(fromByteOffset: offset + 6, as: UInt8.self)) << 8
            | Int(base.load(fromByteOffset: offset + 7, as: UInt8.self))
        let width = (1 << Int(flags & 7)) >> 1
        let byteCount: Int
        switch Int(flags >> 3) & 3 {
        case 0: byteCount = (count * width + 7) >> 3
        case 1: byteCount = count * width
        case 2: byteCount = count
        default:
            throw RealmFault(
                "the node at \(hex(ref)) uses an unknown encoding (width type 3, realm-core's unreleased format 25)")
        }
        guard byteCount <= size - offset - 8 else {
            throw RealmFault(
                "the node at \(hex(ref)) claims \(count) elements (\(byteCount) bytes), beyond the end of the file (size \(size)); the file may have changed while reading: copy it with the app closed"
            )
        }
        return Node(
            ref: offset, flags: flags, count: count, width: width, data: base + offset + 8, byteCount: byteCount)
    }

    /// The node at `ref`, which must be a has-refs array of at least `minimum` slots.
    func array(_ ref: Int64, minimum: Int, _ what: @autoclosure () -> String) throws(RealmFault) -> Node {
        let n = try node(ref)
        guard n.hasRefs, n.widthType == 0, n.count >= minimum else {
            throw RealmFault(
                "\(what()) at \(hex(ref)) is malformed (\(n.count) slots, expected at least \(minimum) refs)")
        }
        return n
    }
}
