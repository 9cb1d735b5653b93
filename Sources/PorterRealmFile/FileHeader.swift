/// The 24-byte file header and the streaming-form footer (realm-core `alloc_slab.hpp` 587-629):
/// two top refs, `T-DB`, two format bytes, a reserved byte, flags whose bit 0 selects the slot.
struct FileHeader {
    /// The current top ref (the selected slot, or the streaming footer's).
    let topRef: Int64
    /// The selected slot's file format.
    let fileFormat: Int

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
    }
}
