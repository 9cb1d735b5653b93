import PorterCSQLite
import PorterModel

/// Memory for the text and blob parameters of the flat insert (``Database/createRow(_:_:)``),
/// bound `SQLITE_STATIC`: SQLite's copy of every string and blob bound `SQLITE_TRANSIENT` cost an
/// allocation and a release per value of every object added. Each parameter has its own buffer,
/// kept from object to object and written again only when that parameter is bound again (SQLite
/// reads it until then; a statement is never run with a parameter left from another row: every
/// parameter is bound before each run).
final class ParameterScratch {
    // Unchecked: read per text, ObjectId and date value of every object added (a dynamic
    // exclusivity check each, about 1k instructions per object); used by one statement's binding only.
    @exclusivity(unchecked) private var buffers: [UnsafeMutableRawPointer?] = []
    @exclusivity(unchecked) private var capacities: [Int] = []

    deinit {
        for buffer in buffers { buffer?.deallocate() }
    }

    /// Binds `value` to parameter `index` of `stmt` when it is a string, ObjectId or date of a
    /// column of that type (the encoding ``StorageCodec/bind(_:type:to:at:)`` gives them);
    /// false when it is not one of those (the caller binds it through ``StorageCodec``).
    func bind(_ value: Value, type: PropertyType, to stmt: SQLiteStatement, at index: Int32) -> Bool {
        switch (type, value) {
        case (.string, .string(var text)):
            return text.withUTF8 { bytes in
                let target = buffer(index, bytes.count)
                if let base = bytes.baseAddress, bytes.count > 0 {
                    target.copyMemory(from: base, byteCount: bytes.count)
                }
                // A zero-length string still binds a non-null pointer (nil would bind NULL).
                sqlite3_bind_text(
                    stmt.handle, index, target.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
                return true
            }
        case (.objectId, .objectId(let id)):
            let target = buffer(index, 12)
            id.copyBytes(to: target)
            sqlite3_bind_blob(stmt.handle, index, target, 12, nil)
            return true
        case (.date, .date(let t)):
            // As StorageCodec stores a date: seconds and nanoseconds big-endian, sign bits flipped.
            let target = buffer(index, 12)
            target.storeBytes(
                of: (UInt64(bitPattern: t.seconds) ^ (1 << 63)).bigEndian, toByteOffset: 0, as: UInt64.self)
            target.storeBytes(
                of: (UInt32(bitPattern: t.nanoseconds) ^ (1 << 31)).bigEndian, toByteOffset: 8, as: UInt32.self)
            sqlite3_bind_blob(stmt.handle, index, target, 12, nil)
            return true
        default:
            return false
        }
    }

    /// The buffer of parameter `index`, holding at least `count` bytes (at least 1).
    private func buffer(_ index: Int32, _ count: Int) -> UnsafeMutableRawPointer {
        let slot = Int(index)
        while buffers.count <= slot {
            buffers.append(nil)
            capacities.append(0)
        }
        if let buffer = buffers[slot], capacities[slot] >= count { return buffer }
        buffers[slot]?.deallocate()
        let capacity = max(32, count)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        buffers[slot] = buffer
        capacities[slot] = capacity
        return buffer
    }
}
