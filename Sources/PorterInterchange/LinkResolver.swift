import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// A `_key` label of an object of a class without a primary key: any int or string, scoped to
/// one import.
enum ImportLabel: Hashable {
    case int(Int64)
    case string(String)

    var description: String {
        switch self {
        case .int(let i): return String(i)
        case .string(let s): return "'\(abbreviated(s))'"
        }
    }
}

/// How a document names a link target.
enum LinkKey: Hashable {
    /// The target's primary-key value (typed by the target's primary-key property).
    case primaryKey(Value)
    /// The target's `_key` label in this import.
    case label(ImportLabel)

    var description: String {
        switch self {
        case .primaryKey(let v): return "primary key \(describeKey(v))"
        case .label(let l): return "_key \(l.description)"
        }
    }
}

/// A link that could not be resolved when its document was read (a forward reference).
struct PendingReference {
    var targetClass: String
    var key: LinkKey
    /// Field path of the reference inside its document, for messages.
    var path: String
}

/// One element of a link-holding property whose value is completed at the end of the import.
enum LinkSlot {
    case value(Value)
    case reference(PendingReference)
    /// A list nested in a `mixed` value, with a pending reference somewhere inside.
    case nestedList([LinkSlot])
    /// A dictionary nested in a `mixed` value, with a pending reference somewhere inside.
    case nestedMap(keys: [String], slots: [LinkSlot])

    /// The value of a slot that waits for nothing (`.null` otherwise).
    var settled: Value { if case .value(let v) = self { return v } else { return .null } }
    /// Whether the slot waits for a link target.
    var isPending: Bool { if case .value = self { return false } else { return true } }
}

/// The shape of a property value waiting for its links.
enum PendingValue {
    case single(LinkSlot)
    case list([LinkSlot])
    case set([LinkSlot])
    case map([(String, LinkSlot)])
}

/// A step from a top-level object down to an embedded one.
enum PathStep: Hashable {
    case property(String)
    case index(Int)
    case key(String)
}

/// A property of an imported object that still needs links patched in.
struct DeferredProperty {
    /// Steps from the top-level object to the (embedded) object holding the property.
    var ownerSteps: [PathStep]
    var property: String
    var value: PendingValue
}

/// Maps link keys to objects: `_key` labels seen in this import, primary keys through the store.
/// Keeps the properties waiting for forward references, so memory grows only with what is unresolved.
final class LinkResolver {
    let database: Database
    // Unchecked exclusivity: read for every link, never reentrantly.
    @exclusivity(unchecked) private var labels: [String: [ImportLabel: ObjectKey]] = [:]
    fileprivate var lookups: [String: PrimaryKeyLookup] = [:]
    @exclusivity(unchecked) private var keyCache: [String: KeyCache] = [:]
    /// The cache of the class looked up last (links of a class file mostly target one class).
    @exclusivity(unchecked) private var lastCache: (className: String, cache: KeyCache)?
    @exclusivity(unchecked) private var keyCacheCount = 0
    private static let keyCacheLimit = 100_000
    /// Classes whose labels must be remembered: some property (or any mixed) can link to them.
    private let labelledClasses: Set<String>
    /// Classes with a primary key that some property (or any mixed) can link to.
    let primaryKeyTargets: Set<String>

    init(database: Database) {
        self.database = database
        let schema = database.schema
        let anyMixed = schema.classes.contains { $0.persistedProperties.contains { $0.type == .mixed } }
        if anyMixed {
            labelledClasses = Set(schema.classes.filter { $0.primaryKey == nil && !$0.isEmbedded }.map(\.name))
        } else {
            labelledClasses = Set(
                schema.classes.flatMap {
                    $0.persistedProperties.compactMap { $0.type == .object ? $0.objectType : nil }
                })
        }
        primaryKeyTargets = Set(
            schema.classes.filter { cls in
                cls.primaryKey != nil
                    && (anyMixed
                        || schema.classes.contains { $0.persistedProperties.contains { $0.objectType == cls.name } })
            }.map(\.name))
    }

    /// Records the object a `_key` label names; false when the label is already taken.
    func register(label: ImportLabel, className: String, key: ObjectKey) -> Bool {
        guard labelledClasses.contains(className) else { return true }
        return labels[className, default: [:]].updateValue(key, forKey: label) == nil
    }

    /// Whether a label is already used in a class.
    func hasLabel(_ label: ImportLabel, className: String) -> Bool {
        labels[className]?[label] != nil
    }

    /// The object a key names, if any: an object imported earlier, or one already in the database.
    ///
    /// An int `_key` this import does not define names the existing object with that object key
    /// (so one class file of an export re-imports into its database), but only once `final` says
    /// every document has been read: the import's own labels always win.
    func lookup(_ className: String, _ key: LinkKey, final: Bool) throws -> ObjectKey? {
        switch key {
        case .label(let label):
            if let found = labels[className]?[label] { return found }
            guard final, case .int(let raw) = label, try database.exists(className, ObjectKey(raw)) else { return nil }
            return ObjectKey(raw)
        case .primaryKey(let value):
            // Objects keep their keys for the whole import, so found keys can be remembered;
            // the cache is bounded, and emptied when full.
            // Swift compares strings by canonical equivalence, the database by bytes: only
            // ASCII strings (where the two agree) are cached.
            let cache = LinkResolver.cacheable(value) ? classCache(className) : nil
            if let cached = cache?.keys[value] { return cached }
            guard let found = try primaryKeyLookup(className).key(value) else { return nil }
            guard let cache else { return found }
            remember(found, for: value, in: cache)
            return found
        }
    }

    /// Remembers the key of an object this import wrote under `primaryKey`, so links to it find
    /// it without a query (only for classes something can link to).
    func wrote(_ className: String, primaryKey: Value, key: ObjectKey) {
        guard primaryKeyTargets.contains(className), LinkResolver.cacheable(primaryKey) else { return }
        remember(key, for: primaryKey, in: classCache(className))
    }

    /// Whether a primary key may be cached: Swift compares strings by canonical equivalence, the
    /// database by bytes, so only ASCII strings (where the two agree) are.
    private static func cacheable(_ value: Value) -> Bool {
        if case .string(let text) = value { return text.utf8.allSatisfy { $0 < 0x80 } }
        return true
    }

    /// Stores a found key; the cache is bounded, and emptied when full.
    private func remember(_ key: ObjectKey, for value: Value, in cache: KeyCache) {
        if keyCacheCount >= LinkResolver.keyCacheLimit {
            for entry in keyCache.values { entry.keys = [:] }
            keyCacheCount = 0
        }
        if cache.keys.updateValue(key, forKey: value) == nil { keyCacheCount += 1 }
    }
}

/// Found primary keys of one class (a class, so a lookup updates it in place).
final class KeyCache {
    @exclusivity(unchecked) var keys: [Value: ObjectKey] = [:]
}

extension LinkResolver {
    /// The key cache of a class.
    private func classCache(_ className: String) -> KeyCache {
        if let last = lastCache, last.className == className { return last.cache }
        let cache = keyCache[className] ?? KeyCache()
        keyCache[className] = cache
        lastCache = (className, cache)
        return cache
    }

    /// The prepared primary-key lookup of a class.
    func primaryKeyLookup(_ className: String) throws -> PrimaryKeyLookup {
        if let lookup = lookups[className] { return lookup }
        let lookup = try PrimaryKeyLookup(database: database, className: className)
        lookups[className] = lookup
        return lookup
    }
}

/// A key value as messages show it: strings quoted, ids with their type.
func describeKey(_ value: Value) -> String {
    switch value {
    case .string(let s): return "'\(abbreviated(s))'"
    case .int(let i): return String(i)
    case .objectId(let o): return "ObjectId('\(o.stringValue)')"
    case .uuid(let u): return "UUID('\(UUIDCodec.string(u))')"
    case .null: return "null"
    default: return value.kindName
    }
}
