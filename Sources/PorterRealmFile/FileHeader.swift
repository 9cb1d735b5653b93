/// The 24-byte file header and the streaming-form footer (realm-core `alloc_slab.hpp` 587-629):
/// two top refs, `T-DB`, two format bytes, a reserved byte, flags whose bit 0 selects the slot.
struct FileHeader {
    /// The current top ref (the selected slot, or the streaming footer's).
    let topRef: Int64
    /// The selected slot's file format.
    let fileFormat: Int
    /// Both slots as stored, and which one is selected.
    let slots: RealmHeaderSlots

    /// The streaming footer's cookie (`alloc_slab.hpp` 629).
    static let footerCookie: UInt64 = 0x3034_1252_37E5_26C8

    static func hasMnemonic(_ base: UnsafeRawPointer) -> Bool {
        base.load(fromByteOffset: 16, as: UInt8.self) == UInt8(ascii: "T")
            && base.load(fromByteOffset: 17, as: UInt8.self) == UInt8(ascii: "-")
            && base.load(fromByteOffset: 18, as: UInt8.self) == UInt8(ascii: "D")
            && base.load(fromByteOffset: 19, as: UInt8.self) == UInt8(ascii: "B")
    }

    /// Whether the rest of the header looks like a plaintext Realm header (reserved byte 0, a
    /// flags byte of 0/1, a plausible format and an aligned in-file top ref): tells a damaged
    /// mnemonic from an encrypted or foreign file.
    static func looksPlain(_ base: UnsafeRawPointer, size: Int) -> Bool {
        let flags = base.load(fromByteOffset: 23, as: UInt8.self)
        guard base.load(fromByteOffset: 22, as: UInt8.self) == 0, flags <= 1 else { return false }
        let select = Int(flags & 1)
        let format = base.load(fromByteOffset: 20 + select, as: UInt8.self)
        guard format > 0, format < 40 else { return false }
        let top = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8 * select, as: UInt64.self))
        if top == UInt64.max { return select == 0 }
        return top > 24 && top & 7 == 0 && top < UInt64(size)
    }

    /// Reads the header of a plaintext file (mnemonic already checked).
    init(_ mem: Mem) throws(RealmFault) {
        let base = mem.base
        let flags = base.load(fromByteOffset: 23, as: UInt8.self)
        let select = Int(flags & 1)
        fileFormat = Int(base.load(fromByteOffset: 20 + select, as: UInt8.self))
        let top = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8 * select, as: UInt64.self))
        if select == 0 && top == UInt64.max {
            // Streaming form: the top ref is in the 16-byte footer.
            guard mem.size >= 40 else {
                throw RealmFault("the streaming-form footer is missing: the file is truncated")
            }
            let footerTop = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: mem.size - 16, as: UInt64.self))
            let cookie = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: mem.size - 8, as: UInt64.self))
            guard cookie == Self.footerCookie else {
                throw RealmFault("the streaming-form footer has a bad cookie: the file is truncated or damaged")
            }
            guard footerTop < UInt64(mem.size - 16) else {
                throw RealmFault.refOutside(Int64(bitPattern: footerTop), size: mem.size)
            }
            topRef = Int64(footerTop)
        } else {
            // The top array is the last thing a commit writes: a file that ends before it was cut short.
            guard top < UInt64(mem.size) else {
                guard top < UInt64(Int64.max - 8) else {
                    throw RealmFault.refOutside(Int64(bitPattern: top), size: mem.size)
                }
                throw RealmFault.truncated(expected: Int64(top) + 8, size: mem.size)
            }
            topRef = Int64(top)
        }
        guard topRef & 7 == 0 else { throw RealmFault("the top ref \(hex(topRef)) is not 8-aligned") }
        slots = RealmHeaderSlots(base, currentTopRef: topRef)
    }
}

/// The header's two slots (top ref and file format each) and the flag selecting one: the current
/// snapshot and the one before it (realm-core writes the new top ref into the unselected slot, then flips).
public struct RealmHeaderSlots: Sendable, Hashable {
    /// The two stored top refs (slot 0, slot 1), as raw unsigned values.
    public let topRefs: [UInt64]
    /// The two stored file formats.
    public let fileFormats: [Int]
    /// The selected (current) slot: 0 or 1.
    public let selected: Int
    /// The top ref in use: the selected slot's, or in streaming form the footer's.
    public let currentTopRef: Int64
    /// Whether the file is in streaming form (slot 0 holds all ones; the top ref is in the footer).
    public var isStreaming: Bool { selected == 0 && topRefs[0] == UInt64.max }
    /// The other slot's top ref when it names a snapshot (not 0, not the streaming marker, not the current one).
    public var previousTopRef: Int64? {
        let other = topRefs[1 - selected]
        guard other != 0, other != UInt64.max, other < UInt64(Int64.max), Int64(other) != currentTopRef else {
            return nil
        }
        return Int64(other)
    }

    init(_ base: UnsafeRawPointer, currentTopRef: Int64) {
        self.currentTopRef = currentTopRef
        topRefs = [0, 8].map { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: $0, as: UInt64.self)) }
        fileFormats = [20, 21].map { Int(base.load(fromByteOffset: $0, as: UInt8.self)) }
        selected = Int(base.load(fromByteOffset: 23, as: UInt8.self) & 1)
    }
}
