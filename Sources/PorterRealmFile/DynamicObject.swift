import PorterModel

/// An object of a Realm file read by property name, with its links followed on demand: what an
/// app's one-time migration reads once its Realm model classes and the Realm SDK are gone
/// (`object["name"]`, `try object.linked("owner")?["name"]`).
///
/// Values are ``RealmValue``s: lists, sets and dictionaries as Swift arrays, embedded objects
/// inline (``embedded(_:)`` reads one as an object), links as class and object key until followed.
public struct DynamicObject: Sendable {
    /// The file the object was read from.
    public let file: RealmFile
    /// Its class.
    public let table: RealmTable
    /// Its object key (for embedded objects, the key in the embedded class's table).
    public let key: Int64
    /// Its values, parallel to `table.properties`.
    public let values: [RealmValue]

    /// The class name.
    public var className: String { table.name }

    /// The value of the property `name`, or nil when the class has no such property.
    public subscript(name: String) -> RealmValue? {
        table.properties.firstIndex { $0.name == name }.map { values[$0] }
    }

    /// The object the link property `name` points to; nil for a null link or a link whose target
    /// is gone. A `mixed` property holding a link follows it too.
    /// - Throws: `PorterError` (`.invalidInput`) when `name` is not a property of the class, or
    ///   holds something else than a link.
    public func linked(_ name: String) throws -> DynamicObject? {
        switch try value(name) {
        case .null: return nil
        case .link(let className, let key): return try file.dynamicObject(ofClass: className, key: key)
        default: throw notA("a link", name)
        }
    }

    /// The objects a list or set of links (or a list of mixed values holding links) points to,
    /// in order; a null entry or one whose target is gone is nil.
    /// - Throws: `PorterError` (`.invalidInput`) when `name` is not a list or set of links.
    public func linkedList(_ name: String) throws -> [DynamicObject?] {
        let items: [RealmValue]
        switch try value(name) {
        case .list(let values), .set(let values): items = values
        default: throw notA("a list or set of links", name)
        }
        return try items.map { item in
            switch item {
            case .null: return nil
            case .link(let className, let key): return try file.dynamicObject(ofClass: className, key: key)
            default: throw notA("a list or set of links", name)
            }
        }
    }

    /// The embedded object the property `name` holds (nil when null).
    /// - Throws: `PorterError` (`.invalidInput`) when `name` holds something else.
    public func embedded(_ name: String) throws -> DynamicObject? {
        switch try value(name) {
        case .null: return nil
        case .embedded(let className, let key, let values):
            guard let table = file.table(named: className) else { throw notA("an embedded object", name) }
            return DynamicObject(file: file, table: table, key: key, values: values)
        default: throw notA("an embedded object", name)
        }
    }

    private func value(_ name: String) throws -> RealmValue {
        guard let value = self[name] else {
            throw PorterError(.invalidInput, "\(className) has no property '\(name)'", location: file.path)
        }
        return value
    }

    private func notA(_ kind: String, _ name: String) -> PorterError {
        PorterError(.invalidInput, "\(className).\(name) is not \(kind)", location: file.path)
    }
}

extension RealmFile {
    /// The object `key` of the class `className` read by property name; nil when it does not exist.
    /// - Throws: `PorterError` (`.notFound`) for a class the file does not have; a damaged
    ///   object as the reader reports it (file, `Class.property`).
    public func dynamicObject(ofClass className: String, key: Int64) throws -> DynamicObject? {
        let table = try dynamicTable(className)
        return try object(in: table, key: key).map {
            DynamicObject(file: self, table: table, key: $0.key, values: $0.values)
        }
    }

    /// Streams the objects of the class `className` in object-key order, in bounded memory, each
    /// read by property name.
    /// - Throws: as ``dynamicObject(ofClass:key:)``, and whatever `body` throws (which stops the walk).
    public func forEachDynamicObject(ofClass className: String, _ body: (DynamicObject) throws -> Void) throws {
        let table = try dynamicTable(className)
        try forEachObject(in: table) {
            try body(DynamicObject(file: self, table: table, key: $0.key, values: $0.values))
        }
    }

    private func dynamicTable(_ className: String) throws -> RealmTable {
        guard let table = table(named: className) else {
            throw PorterError(.notFound, "no class '\(className)' in the file", location: path)
        }
        return table
    }
}
