import Foundation
import PorterModel

extension Database {
    /// Strings and data are limited to 16 MB, as in Realm.
    public static let maxBinarySize = 16 * 1024 * 1024

    /// The value a new object gets for `property` when none is given: the declared default, or
    /// the type's default (null when optional, an empty collection, 0, "", empty data, the epoch).
    public static func defaultValue(for property: Property) -> Value {
        if let value = property.defaultValue { return value }
        switch property.collection {
        case .list: return .list([])
        case .set: return .set([])
        case .map: return .map([:])
        case .none: break
        }
        if property.isOptional { return .null }
        switch property.type {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data(Data())
        case .date: return .date(Timestamp(microseconds: 0))
        case .decimal128: return .decimal128(Decimal128(high: 0x3040_0000_0000_0000, low: 0))
        case .objectId: return .objectId(ObjectId(bytes: [UInt8](repeating: 0, count: 12))!)
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .object, .mixed, .linkingObjects: return .null
        }
    }

    /// Rejects keys that name no stored property of the class.
    func checkKeys(_ plan: ClassPlan, _ values: [String: Value]) throws {
        for name in values.keys where plan.persistedIndex[name] == nil {
            if plan.schema.property(named: name)?.isComputed == true {
                throw PorterError(
                    .invalidValue, "linkingObjects property is read-only", location: "\(plan.schema.name).\(name)")
            }
            throw PorterError(
                .invalidValue, "unknown property (class '\(plan.schema.name)' has no property '\(name)')",
                location: "\(plan.schema.name).\(name)")
        }
    }

    /// Checks one value (a scalar, or one element of a collection) against `property` and turns
    /// nested objects into links: embedded ones are created, top-level ones created or updated by
    /// primary key under `policy`. Returns the value to store.
    func resolve(_ value: Value, for property: Property, in plan: ClassPlan, policy: UpdatePolicy) throws -> Value {
        // Built only for a message: interpolating it for every value cost more than the checks.
        var where_: String { plan.path(property) }
        if value.isNull {
            guard property.isOptional else {
                let what =
                    property.isCollection
                    ? "null is not allowed in a collection of required values" : "required property cannot be null"
                throw PorterError(.constraintViolation, what, location: where_)
            }
            return .null
        }
        func mismatch() -> PorterError {
            let expected =
                property.isCollection
                ? "an element of type '\(property.type == .object ? property.objectType ?? "" : property.type.rawValue)'"
                : "a value of type '\(property.typeShorthand)'"
            return PorterError(
                .invalidValue, "expected \(expected) but got \(describeWithKind(value))", location: where_)
        }
        switch (property.type, value) {
        case (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.date, .date),
            (.decimal128, .decimal128), (.objectId, .objectId), (.uuid, .uuid):
            return value
        case (.string, .string(let s)):
            if s.utf8.count > Database.maxBinarySize {
                throw PorterError(
                    .constraintViolation, "string of \(s.utf8.count) bytes exceeds the 16 MB limit", location: where_)
            }
            return value
        case (.data, .data(let d)):
            if d.count > Database.maxBinarySize {
                throw PorterError(
                    .constraintViolation, "data of \(d.count) bytes exceeds the 16 MB limit", location: where_)
            }
            return value
        case (.mixed, .list), (.mixed, .map):
            if property.collection == .set {
                throw PorterError(
                    .invalidValue,
                    "a set cannot hold a nested \(value.kindName) (as in Realm, only lists and dictionaries nest)",
                    location: where_)
            }
            return try resolveMixed(value, at: where_)
        case (.mixed, _):
            return try resolveMixed(value, at: where_)
        case (.object, _):
            return try resolveLink(value, for: property, in: plan, policy: policy)
        case (.linkingObjects, _):
            throw PorterError(.invalidValue, "linkingObjects property is read-only", location: where_)
        default:
            throw mismatch()
        }
    }

    /// Checks a value held by a `mixed` (or nested in one): scalars within size limits, links to
    /// existing top-level objects, and lists or dictionaries of such values, to any depth
    /// (Realm's nested collections in `AnyRealmValue`). `location` grows with the nesting path.
    func resolveMixed(_ value: Value, at location: String, depth: Int = 0) throws -> Value {
        switch value {
        case .null: return value
        case .string(let s):
            if s.utf8.count > Database.maxBinarySize {
                throw PorterError(
                    .constraintViolation, "string of \(s.utf8.count) bytes exceeds the 16 MB limit", location: location)
            }
            return value
        case .data(let d):
            if d.count > Database.maxBinarySize {
                throw PorterError(
                    .constraintViolation, "data of \(d.count) bytes exceeds the 16 MB limit", location: location)
            }
            return value
        case .link(let link):
            let target = try self.plan(for: link.className)
            if target.schema.isEmbedded {
                throw PorterError(
                    .invalidValue, "a mixed value cannot link to embedded class '\(link.className)'", location: location
                )
            }
            try requireExists(target, link.key, for: location)
            return value
        case .list where depth >= NestedMixedCodec.maxDepth, .map where depth >= NestedMixedCodec.maxDepth:
            throw PorterError(
                .constraintViolation,
                "collections nested in a mixed value may be at most \(NestedMixedCodec.maxDepth) levels deep",
                location: location)
        case .list(let items):
            return .list(
                try items.enumerated().map { try resolveMixed($1, at: "\(location)[\($0)]", depth: depth + 1) })
        case .map(let entries):
            var out: [String: Value] = [:]
            for (key, item) in entries {
                try checkMapKey(key, at: location)
                out[key] = try resolveMixed(item, at: "\(location)[\"\(key)\"]", depth: depth + 1)
            }
            return .map(out)
        default:
            guard value.scalarType != nil else {
                throw PorterError(.invalidValue, "a mixed value cannot hold a \(value.kindName)", location: location)
            }
            return value
        }
    }

    private func resolveLink(_ value: Value, for property: Property, in plan: ClassPlan, policy: UpdatePolicy) throws
        -> Value
    {
        let where_ = plan.path(property)
        let targetName = property.objectType ?? ""
        let target = try self.plan(for: targetName)
        switch value {
        case .object(let fields):
            let key: ObjectKey
            if target.schema.isEmbedded {
                try checkKeys(target, fields)
                key = try insert(target, fields, policy: policy)
            } else {
                key = try insertOrUpdate(target, fields, policy: policy)
            }
            return .link(ObjectLink(targetName, key))
        case .link(let link):
            if target.schema.isEmbedded {
                throw PorterError(
                    .invalidValue, "embedded objects are assigned by value, not linked (got a link to \(link))",
                    location: where_)
            }
            guard link.className == targetName else {
                throw PorterError(
                    .invalidValue, "expected a link to '\(targetName)' but got a link to '\(link.className)'",
                    location: where_)
            }
            try requireExists(target, link.key, for: where_)
            return value
        default:
            throw PorterError(
                .invalidValue, "expected a link to '\(targetName)' but got \(describeWithKind(value))", location: where_
            )
        }
    }

    /// Throws ``PorterError/Code/notFound`` unless the object exists.
    func requireExists(_ plan: ClassPlan, _ key: ObjectKey, for location: String) throws {
        guard try exists(plan, key) else {
            throw PorterError(.notFound, "link target \(plan.schema.name)(\(key)) does not exist", location: location)
        }
    }

    /// Whether an object with this key exists.
    func exists(_ plan: ClassPlan, _ key: ObjectKey) throws -> Bool {
        let stmt = try connection.cached(plan.existsSQL)
        stmt.bind(1, int: key.rawValue)
        defer { stmt.reset() }
        return try stmt.step()
    }

    /// Validates a map key: no `.`, not starting with `$` (realm-core's rule: they would break
    /// MongoDB paths; an empty key is allowed, as in realm-core), no NUL.
    func checkMapKey(_ key: String, _ plan: ClassPlan, _ property: Property) throws {
        try checkMapKey(key, at: plan.path(property))
    }

    /// Validates a map key (of a map property or of a dictionary nested in a `mixed`) at `location`.
    func checkMapKey(_ key: String, at location: String) throws {
        if key.contains(".") || key.hasPrefix("$") || key.contains("\0") {
            throw PorterError(
                .constraintViolation,
                "invalid map key '\(key)': keys must contain no '.' or NUL, and not start with '$'", location: location)
        }
    }
}
