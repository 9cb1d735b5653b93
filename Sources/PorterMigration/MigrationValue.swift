import Foundation
import PorterModel

/// Conversions between stored values and the Swift values Realm's migration API uses
/// (`oldObject["name"] as! String`, `newObject["fullName"] = "\(first) \(last)"`).
public enum MigrationValue {
    /// The Swift value of a stored one: `String`, `Int`, `Double`, `Float`, `Bool`, `Date`, `Data`,
    /// `ObjectId`, `Decimal128`, `UUID`, an array for a list or set, a dictionary for a map, and
    /// nil for null. Links and mixed values stay as they are stored (`Value.link`, …), since
    /// they need the migration to be read (see ``MigrationObject/linkedObject(_:)``).
    public static func swift(_ value: Value) -> Any? {
        switch value {
        case .null: return nil
        case .int(let i): return Int(exactly: i) ?? i
        case .bool(let b): return b
        case .float(let f): return f
        case .double(let d): return d
        case .string(let s): return s
        case .data(let d): return d
        case .date(let t): return t.date
        case .objectId(let o): return o
        case .decimal128(let d): return d
        case .uuid(let u): return u
        case .list(let items), .set(let items): return items.map { swift($0) as Any }
        case .map(let entries): return entries.mapValues { swift($0) as Any }
        case .link, .object: return value
        }
    }

    /// The stored value of a Swift one (the kinds ``swift(_:)`` gives, any integer width, a
    /// `Value`, an array or dictionary of them), or nil when it has no stored form.
    public static func stored(_ value: Any?) -> Value? {
        guard let value else { return .null }
        switch value {
        case let v as Value: return v
        case is NSNull: return .null
        case let v as String: return .string(v)
        case let v as Bool: return .bool(v)
        case let v as Int: return .int(Int64(v))
        case let v as Int64: return .int(v)
        case let v as Int32: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as Double: return .double(v)
        case let v as Float: return .float(v)
        case let v as Date: return .date(Timestamp(v))
        case let v as Data: return .data(v)
        case let v as ObjectId: return .objectId(v)
        case let v as Decimal128: return .decimal128(v)
        case let v as UUID: return .uuid(v)
        case let v as MigrationObject: return .link(ObjectLink(v.className, v.key))
        case let v as [Any]:
            let items = v.compactMap { stored($0) }
            return items.count == v.count ? .list(items) : nil
        case let v as [String: Any]:
            var out: [String: Value] = [:]
            for (key, item) in v {
                guard let converted = stored(item) else { return nil }
                out[key] = converted
            }
            return .map(out)
        default:
            if let optional = value as? _MigrationOptional { return optional._isNil ? .null : nil }
            return nil
        }
    }
}

/// Tells a nil held in an `Any` from a value.
protocol _MigrationOptional {
    var _isNil: Bool { get }
}

extension Optional: _MigrationOptional {
    var _isNil: Bool { self == nil }
}

extension MigrationObject {
    /// A property as a Swift value, as Realm's migration objects give it (see
    /// ``MigrationValue/swift(_:)``), or, for a new object, sets it from one. Errors fail the
    /// migration when the block returns. (The ``Value``-typed subscript is chosen where a
    /// `Value` is expected: `new["age"] = .int(3)`.)
    public subscript(_ property: String) -> Any? {
        get {
            do {
                let value = try value(forKey: property)
                if let list = try objectList(property, value) { return list }
                return MigrationValue.swift(value)
            } catch {
                recordError(error)
                return nil
            }
        }
        set {
            guard let stored = MigrationValue.stored(newValue) ?? newValue.flatMap(migration.links(of:)).map(Value.list)
            else {
                recordError(
                    PorterError(
                        .invalidValue,
                        "\(className).\(property): a \(newValue.map { "\(type(of: $0))" } ?? "nil") cannot be stored"))
                return
            }
            do { try setValue(stored, forKey: property) } catch { recordError(error) }
        }
    }
}
