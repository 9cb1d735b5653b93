import Foundation
import PorterModel

/// Writes one leaf of values of one type (a cluster column leaf, or a collection B+tree leaf) and
/// returns its ref. Values are already checked against the column and links are translated to
/// object keys (`.link(className:key:)` with the realm-core ObjKey).
struct WriterLeafEncoder {
    let out: WriterOutput
    /// The table key of each class (typed links in mixed values and dictionaries of links).
    let tableKeys: [String: Int]
    /// The file format written (decimal leaves and mixed arrays differ before 24).
    var fileFormat: Int = WriterFileFormat.current
    /// ``WriterTablePlan/mixedSetStringsInCoreOrder``.
    var mixedSetStringsInCoreOrder = false

    /// Writes a leaf for `values` of `type`. `inCollection`: list/set leaves store link keys as is.
    func write(_ values: ArraySlice<RealmValue>, type: WriterColumnType, nullable: Bool, inCollection: Bool = false)
        throws -> Int64
    {
        switch type {
        case .int:
            return try out.append(
                nullable ? Self.intNull(values.map(\.writerInt)) : WriterNode.integers(values.map { $0.writerInt ?? 0 })
            )
        case .bool:
            return try out.append(
                WriterNode.integers(
                    values.map { v in
                        if case .bool(let b) = v { return b ? 1 : 0 }
                        return nullable ? 3 : 0
                    }))
        case .float: return try out.append(Self.floats(values))
        case .double: return try out.append(Self.doubles(values))
        case .string: return try writeBlobs(values.map(\.writerBytes), isString: true)
        case .binary: return try writeBlobs(values.map(\.writerBytes), isString: false)
        case .timestamp: return try writeTimestamps(values)
        case .decimal: return try out.append(WriterDecimal.leaf(values, nullable: nullable, fullWidth: fileFormat < 24))
        case .objectId: return try out.append(Self.fixedBytes(values, width: 12))
        case .uuid: return try out.append(Self.fixedBytes(values, width: 16))
        case .link:
            return try out.append(
                WriterNode.integers(
                    values.map { v in
                        if case .link(_, let key) = v { return inCollection ? key : key + 1 }
                        return 0
                    }))
        case .mixed: return try WriterMixedEncoder(leaf: self).write(values)
        case .typedLink, .backlink:
            preconditionFailure("no leaf of this type is written from values")
        }
    }

    /// `ArrayIntNull`: element 0 is a value no element uses, standing for null.
    static func intNull(_ values: [Int64?]) -> [UInt8] {
        var lo: Int64 = 0, hi: Int64 = 0
        for case let v? in values {
            if v < lo { lo = v }
            if v > hi { hi = v }
        }
        var w = WriterNode.width(min: lo, max: hi)
        var sentinel: Int64 = 0
        while true {
            sentinel = w == 0 ? 0 : (w < 8 ? (1 << Int64(w)) - 1 : Int64.max >> Int64(64 - w))
            if w == 64 || !values.contains(sentinel) { break }
            w = w == 0 ? 1 : w * 2
        }
        if w == 64 && values.contains(sentinel) {
            // Every width-limited candidate is taken: find any value nobody uses.
            let used = Set(values.compactMap { $0 })
            sentinel = Int64.min
            while used.contains(sentinel) { sentinel += 1 }
        }
        var all = [sentinel]
        all.reserveCapacity(values.count + 1)
        for v in values { all.append(v ?? sentinel) }
        return WriterNode.integers(all, width: w)
    }

    private static func floats(_ values: ArraySlice<RealmValue>) -> [UInt8] {
        var payload = [UInt8]()
        payload.reserveCapacity(values.count * 4)
        for v in values {
            var bits: UInt32 = 0x7FC0_00AA
            if case .float(let f) = v { bits = f.bitPattern }
            withUnsafeBytes(of: bits.littleEndian) { payload.append(contentsOf: $0) }
        }
        return WriterNode.bytes(payload, widthType: .multiply, width: 4, size: values.count)
    }

    private static func doubles(_ values: ArraySlice<RealmValue>) -> [UInt8] {
        var payload = [UInt8]()
        payload.reserveCapacity(values.count * 8)
        for v in values {
            var bits: UInt64 = 0x7FF8_0000_0000_00AA
            if case .double(let d) = v { bits = d.bitPattern }
            withUnsafeBytes(of: bits.littleEndian) { payload.append(contentsOf: $0) }
        }
        return WriterNode.bytes(payload, widthType: .multiply, width: 8, size: values.count)
    }

    /// `ArrayFixedBytes`: blocks of one null-bit byte and 8 values (ObjectId 12 bytes, UUID 16).
    static func fixedBytes(_ values: ArraySlice<RealmValue>, width: Int) -> [UInt8] {
        var payload = [UInt8]()
        let n = values.count
        payload.reserveCapacity(n * width + n / 8 + 1)
        var i = 0
        for v in values {
            if i % 8 == 0 {
                var nulls: UInt8 = 0
                var j = 0
                for w in values.dropFirst(i).prefix(8) {
                    if case .null = w { nulls |= 1 << UInt8(j) }
                    j += 1
                }
                payload.append(nulls)
            }
            switch v {
            case .objectId(let oid): payload.append(contentsOf: oid.bytes)
            case .uuid(let u): withUnsafeBytes(of: u.uuid) { payload.append(contentsOf: $0) }
            default:
                // realm-core's filler under a null: 0xDEAD… (ObjectId), 0xDEADBEEF… (UUID).
                let filler: [UInt8] = width == 12 ? [0xDE, 0xAD] : [0xDE, 0xAD, 0xBE, 0xEF]
                for k in 0..<width { payload.append(filler[k % filler.count]) }
            }
            i += 1
        }
        return WriterNode.bytes(payload, widthType: .multiply, width: 1, size: payload.count)
    }

    /// `ArrayString` / `ArrayBinary`: short strings (≤ 15 bytes) in fixed slots, medium values
    /// (≤ 63 / 64 bytes) as small blobs, longer ones as one blob each. `nil` is null.
    func writeBlobs(_ values: [[UInt8]?], isString: Bool) throws -> Int64 {
        var longest = 0
        for case let v? in values where v.count > longest { longest = v.count }
        if isString && longest <= 15 { return try out.append(Self.shortStrings(values, longest: longest)) }
        if longest <= (isString ? 63 : 64) {
            var ends = [Int64]()
            var blob = [UInt8]()
            var nulls = [Int64]()
            for v in values {
                if let v {
                    blob.append(contentsOf: v)
                    if isString { blob.append(0) }
                    nulls.append(0)
                } else {
                    if isString { blob.append(0) }
                    nulls.append(1)
                }
                ends.append(Int64(blob.count))
            }
            let refs = [
                try out.append(WriterNode.integers(ends)),
                try out.append(WriterNode.bytes(blob, widthType: .ignore, width: 1, size: blob.count)),
                try out.append(WriterNode.integers(nulls)),
            ]
            return try out.append(WriterNode.integers(refs, flags: .init(hasRefs: true)))
        }
        var refs = [Int64]()
        refs.reserveCapacity(values.count)
        for v in values {
            guard var v else { refs.append(0); continue }
            if isString { v.append(0) }
            refs.append(try writeBigBlob(v))
        }
        return try out.append(WriterNode.integers(refs, flags: .init(hasRefs: true, context: true)))
    }

    /// One `ArrayBlob` (values are at most `WriterLimits.maxBinary` bytes, so one node holds any).
    private func writeBigBlob(_ bytes: [UInt8]) throws -> Int64 {
        try out.append(WriterNode.bytes(bytes, widthType: .ignore, width: 1, size: bytes.count))
    }

    /// `ArrayStringShort`: slots of a power-of-two width; the last byte of a slot is
    /// `width - 1 - length`, or `width` for null.
    static func shortStrings(_ values: [[UInt8]?], longest: Int) -> [UInt8] {
        var w = 0
        if !values.isEmpty {
            w = 1
            while w < longest + 1 { w *= 2 }
        }
        var payload = [UInt8]()
        payload.reserveCapacity(values.count * w)
        for v in values {
            if let v {
                payload.append(contentsOf: v)
                payload.append(contentsOf: repeatElement(0, count: w - 1 - v.count))
                payload.append(UInt8(w - 1 - v.count))
            } else {
                payload.append(contentsOf: repeatElement(0, count: w - 1))
                payload.append(UInt8(w))
            }
        }
        return WriterNode.bytes(payload, widthType: .multiply, width: w, size: values.count)
    }

    /// `ArrayTimestamp`: [seconds as `ArrayIntNull`, nanoseconds].
    private func writeTimestamps(_ values: ArraySlice<RealmValue>) throws -> Int64 {
        var seconds = [Int64?]()
        var nanos = [Int64]()
        for v in values {
            if case .timestamp(let s, let n) = v {
                seconds.append(s)
                nanos.append(Int64(n))
            } else {
                seconds.append(nil)
                nanos.append(0)
            }
        }
        let refs = [try out.append(Self.intNull(seconds)), try out.append(WriterNode.integers(nanos))]
        return try out.append(WriterNode.integers(refs, flags: .init(hasRefs: true)))
    }
}
