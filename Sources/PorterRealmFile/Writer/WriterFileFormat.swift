import Foundation
import PorterModel

/// What the writer does differently for the older file formats an app built with an older SDK
/// opens: 23 (realm-core 13, Realm Swift 10.35–10.48) and 22 (realm-core 11–12, Realm Swift
/// 10.8–10.34). realm-core 14 upgrades such files in `Transaction::upgrade_file_format`
/// (core `transaction.cpp`); the writer produces what that upgrade starts from:
/// - List<Object> columns have column type 13 (`LinkList`) in their ColKey, the Spec and the
///   opposite-column keys (undone by `Table::migrate_col_keys`);
/// - Decimal128 leaves are always 16 bytes wide; `ArrayMixed` has four slots, no nested collections;
/// - a backlink list is one plain array of keys, not a B+tree;
/// - sets of strings and binaries and dictionary keys are ordered by signed bytes (C++ `char` on
///   every platform the SDKs shipped except Linux/Android ARM); `migrate_set_orderings` re-sorts the
///   sets, but nothing re-sorts format 23's dictionary keys (realm-core 14.14 checked: a key differing
///   first at a byte ≥ 0x80 is not found after its upgrade, in realm-core 13's own files too);
/// - format 22 stores a dictionary as a cluster tree keyed by key hashes (`migrate_sets_and_dictionaries`).
///
/// What a format cannot hold is refused, naming the class and property.
package enum WriterFileFormat {
    /// The format written by default (realm-core 14).
    package static let current = 24
    /// The formats the writer can produce.
    package static let supported = [22, 23, 24]

    /// realm-core's `LinkList` column type, used for List<Object> before format 24.
    static let linkListType: Int64 = 13

    /// The column type stored in the ColKey and the Spec for `column`.
    static func columnType(_ column: WriterColumn, fileFormat: Int) -> Int64 {
        if fileFormat < 24, column.type == .link, column.attributes & 32 != 0 { return linkListType }
        return column.type.rawValue
    }

    /// Refuses a search index the format cannot hold: an index on a list of strings came with
    /// realm-core 14 (format 24).
    static func checkIndex(_ property: Property, fileFormat: Int, location: String) throws {
        if fileFormat < 24, property.collection == .list {
            throw PorterError(
                .invalidSchema,
                "file format \(fileFormat) cannot index a list (\(property.typeShorthand)): indexed lists came with format 24; migrate to a schema without that index first",
                location: location)
        }
    }

    /// Refuses a value of a mixed property, or a set of mixed, that the format cannot hold.
    static func checkMixed(_ value: RealmValue, fileFormat: Int, location: WriterLocation) throws {
        guard fileFormat < 24 else { return }
        switch value {
        case .list, .dictionary:
            throw PorterError(
                .invalidValue,
                "file format \(fileFormat) cannot hold a list or dictionary inside a mixed value (format 24 can)",
                location: location.text)
        default: return
        }
    }

    /// Refuses a set of mixed values whose order in the format Porter cannot reproduce: realm-core
    /// 13 and earlier order two strings in a `Set<Mixed>` by its own collation table
    /// (`utf8_compare`), and format 22 compares a string and a binary by their bytes alone.
    /// `givenOrder`: the strings come in realm-core 13's order (``WriterTablePlan/mixedSetStringsInCoreOrder``).
    static func checkMixedSet(
        _ elements: [RealmValue], fileFormat: Int, givenOrder: Bool, location: WriterLocation
    ) throws {
        guard fileFormat < 24 else { return }
        var strings = Set<String>()
        for case .string(let s) in elements { strings.insert(s) }
        if strings.count > 1 && !givenOrder {
            throw PorterError(
                .invalidValue,
                "file format \(fileFormat) orders the strings of a set of mixed by realm-core 13's collation, which Porter does not reproduce: this set holds \(strings.count) different strings",
                location: location.text)
        }
        guard fileFormat < 23 else { return }
        // Every string is compared (the first of an unordered set made the refusal depend on the run).
        var binaries = Set<[UInt8]>()
        for case .binary(let d) in elements { binaries.insert([UInt8](d)) }
        if let twin = strings.sorted().first(where: { binaries.contains(Array($0.utf8)) }) {
            throw PorterError(
                .invalidValue,
                "file format 22 cannot hold a string and a binary of the same bytes in one set of mixed (\"\(twin.count > 40 ? twin.prefix(40) + "…" : twin)\")",
                location: location.text)
        }
    }

    /// Order of two dictionary keys: signed bytes before format 24, unsigned from 24.
    static func keyPrecedes(_ a: String, _ b: String, fileFormat: Int) -> Bool {
        fileFormat < 24 ? signedBytes(Array(a.utf8), Array(b.utf8)) < 0 : a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// C++ `std::lexicographical_compare` over `char` (signed): realm-core 13's `StringData` and
    /// `BinaryData` `operator<`.
    static func signedBytes<C: Collection>(_ a: C, _ b: C) -> Int where C.Element == UInt8 {
        var i = a.startIndex
        var j = b.startIndex
        while i != a.endIndex && j != b.endIndex {
            let x = Int8(bitPattern: a[i]), y = Int8(bitPattern: b[j])
            if x != y { return x < y ? -1 : 1 }
            a.formIndex(after: &i)
            b.formIndex(after: &j)
        }
        if i == a.endIndex { return j == b.endIndex ? 0 : -1 }
        return 1
    }

    /// Set order before format 24 (core 13 `SetElementLessThan`): strings and binaries by signed
    /// bytes in typed sets; in a set of mixed, strings before binaries (23) and binaries by
    /// `memcmp` (unsigned); in format 22 a string and a binary compare by their bytes.
    /// Everything else orders as in format 24.
    /// `stringOrder`: in a set of mixed, each string's position in the order realm-core gave it.
    static func legacySetCompare(
        _ a: RealmValue, _ b: RealmValue, fileFormat: Int, mixed: Bool = false, stringOrder: [String: Int] = [:]
    ) -> Int {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            if mixed, x != y, let i = stringOrder[x], let j = stringOrder[y] { return i < j ? -1 : 1 }
            return mixed ? unsigned(Array(x.utf8), Array(y.utf8)) : signedBytes(Array(x.utf8), Array(y.utf8))
        case (.binary(let x), .binary(let y)):
            return mixed ? unsigned([UInt8](x), [UInt8](y)) : signedBytes([UInt8](x), [UInt8](y))
        case (.string(let x), .binary(let y)) where fileFormat < 23: return unsigned(Array(x.utf8), [UInt8](y))
        case (.binary(let x), .string(let y)) where fileFormat < 23: return unsigned([UInt8](x), Array(y.utf8))
        default: return WriterSetOrder.compare(a, b)
        }
    }

    private static func unsigned(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.lexicographicallyPrecedes(b) { return -1 }
        return b.lexicographicallyPrecedes(a) ? 1 : 0
    }
}
