import Foundation

/// Shared plumbing of the live collections (`List`, `MutableSet`, `Map`, `LinkingObjects`) and
/// `Results`: reads that fall back and record errors, changes that follow the write rules, and
/// a cache that is valid as long as the database has not changed.
extension _ManagedProperty {
    /// The database.
    var database: Database { realm.database }
    /// What objects are read through (see ``ObjectReadBackend``).
    var reader: any ObjectReadBackend { realm.reader }

    /// Runs a read of this property; a failure gives `fallback` and is kept in ``Realm/lastReadError``.
    func read<T>(fallback: T, _ body: () throws -> T) -> T {
        realm.read(location, fallback: fallback, body)
    }

    /// Runs a change of this property under the realm's write rules (see ``Realm/pendingWriteError``).
    func change(_ body: (_PorterWriter) throws -> Void) {
        realm.change(location, body)
    }

    /// The stored value of every element, in stored order (empty after a failed read).
    func storedElements() -> [Value] {
        read(fallback: []) {
            switch try storedValue() {
            case .list(let items), .set(let items): return items
            default: return []
            }
        }
    }

    /// Decodes stored elements; an element that does not fit is left out and reported.
    func decode<Element: _Persistable>(_ values: [Value], as type: Element.Type) -> [Element] {
        values.compactMap { value in
            read(fallback: nil) { try Element._porterDecode(value, realm) }
        }
    }

    /// A query-mode encoding of `value` (managed objects only), or nil when it cannot be one.
    func queryValue<Element: _Persistable>(_ value: Element) -> Value? {
        try? value._porterEncode(_PorterWriter(realm: realm, mode: .query))
    }
}

/// A value computed from the database, recomputed only when the database has changed since.
final class LiveCache<T> {
    private var token: DatabaseChangeToken?
    private var cached: T?

    /// The cached value while `database` is unchanged, else a fresh one from `compute`.
    func value(_ database: Database, _ compute: () -> T) -> T {
        let now = database.changeToken
        if let cached, token == now { return cached }
        let fresh = compute()
        cached = fresh
        token = now
        return fresh
    }
}
