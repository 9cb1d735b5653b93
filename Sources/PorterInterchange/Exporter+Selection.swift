import Foundation
import PorterModel
import PorterQuery
import PorterStore

/// What `porter export --class C` keeps of the class: `--query` (Realm Query Language, the typed
/// API's `filter` grammar and semantics), `--sort 'name,-age'`, `--skip N`, `--limit N` (after the
/// query and the sort) and `--fields a,b,owner.name` (a projection, through links and embedded
/// objects; the primary key, or `_key`, always kept).
public struct ExportSelection: Sendable, Equatable {
    /// The one class the selection applies to.
    public var className: String
    /// The Realm Query Language predicate.
    public var query: String?
    /// Comma-separated sort keys, `-` for descending.
    public var sort: String?
    /// Objects to leave out first (after the query and the sort).
    public var skip: Int
    /// At most this many objects.
    public var limit: Int?
    /// The fields to keep (dotted paths); empty: every field.
    public var fields: [String]

    /// Creates a selection of `className`.
    public init(
        className: String, query: String? = nil, sort: String? = nil, skip: Int = 0, limit: Int? = nil,
        fields: [String] = []
    ) {
        self.className = className
        self.query = query
        self.sort = sort
        self.skip = skip
        self.limit = limit
        self.fields = fields
    }

    /// Checks what needs no file: the query's and the sort keys' syntax, the signs of skip and limit.
    /// - Throws: ``PorterError/Code/usage`` starting with the option's name (`--query: … at 7`).
    public func checkSyntax() throws {
        if let query { _ = try Self.option("--query") { try QueryParser.parseQuery(query) } }
        if let sort { _ = try Self.option("--sort") { try QuerySortKey.parse(sort) } }
        if skip < 0 { throw PorterError(.usage, "--skip: \(skip) is negative (give 0 or more objects to skip)") }
        if let limit, limit < 0 {
            throw PorterError(.usage, "--limit: \(limit) is negative (give 0 or more objects to export)")
        }
        for field in fields where field.split(separator: ".", omittingEmptySubsequences: false).contains("") {
            throw PorterError(.usage, "--fields: '\(field)' has an empty property name")
        }
    }

    /// Runs `body`, prefixing the message of the ``PorterError`` it throws with `option: `.
    static func option<T>(_ option: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PorterError {
            throw PorterError(.usage, "\(option): \(error.message)", location: error.location)
        }
    }
}

/// An ``ExportSelection`` checked against the schema: the matcher, the sort keys, the projection.
final class CompiledSelection {
    let matcher: QueryMatcher
    let filters: Bool
    let sortKeys: [QuerySortKey]
    let skip: Int
    let limit: Int?
    let projection: ExportProjection?
    /// Reads what the query, the sort keys and the projection need beyond the streamed values.
    let reader: StreamedObjectReader
    /// The query's translation selecting the matching keys on the Porter database exported
    /// (``QueryTranslator/storageSelection(_:className:schema:)``), when it is used instead of
    /// the evaluator: an export into PostgreSQL with a query that has an exact translation.
    var keysSQL: String?

    /// `properties`: those the streamed values are parallel to.
    init(
        _ selection: ExportSelection, cls: ObjectSchema, schema: Schema, base: any QueryObjectReader,
        properties: [Property]
    ) throws {
        let predicate = try selection.query.map { query in
            try ExportSelection.option("--query") { try QueryParser.parseQuery(query) }
        }
        matcher = try ExportSelection.option("--query") {
            try QueryMatcher(predicate ?? .constant(true), className: cls.name, schema: schema)
        }
        filters = predicate != nil
        sortKeys = try ExportSelection.option("--sort") {
            let keys = try selection.sort.map(QuerySortKey.parse) ?? []
            for key in keys { try QueryMatcher.validate(key.path, from: cls, schema: schema, singleValued: true) }
            return keys
        }
        skip = selection.skip
        limit = selection.limit
        projection = try selection.fields.isEmpty ? nil : ExportProjection(selection.fields, cls: cls, schema: schema)
        reader = StreamedObjectReader(base: base, className: cls.name, properties: properties)
    }

    /// Whether anything but the projection applies.
    var selects: Bool { filters || !sortKeys.isEmpty || skip > 0 || limit != nil }
}

/// `--fields` as a tree: each node a property, with the fields kept below it (none: all of it).
final class ExportProjection {
    let property: Property?
    /// The stored properties of each embedded class (on the root): what a linked object's embedded
    /// objects are written with.
    private(set) var embeddedClasses: [String: [Property]] = [:]
    private(set) var children: [(name: String, node: ExportProjection)] = []

    init(property: Property?) { self.property = property }

    /// The tree of `fields` on `cls`, plus its primary key.
    /// - Throws: ``PorterError/Code/usage`` naming the field and the unknown property.
    convenience init(_ fields: [String], cls: ObjectSchema, schema: Schema) throws {
        self.init(property: nil)
        for embedded in schema.classes where embedded.isEmbedded {
            embeddedClasses[embedded.name] = embedded.persistedProperties
        }
        if let pk = cls.primaryKeyProperty { child(pk).wholeField = true }
        for field in fields {
            if field == "_key" && cls.primaryKey == nil { continue }
            var node = self
            var current = cls
            let names = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for (i, name) in names.enumerated() {
                guard let property = current.property(named: name), !property.isComputed else {
                    throw PorterError(.usage, "--fields: unknown property '\(current.name).\(name)' in '\(field)'")
                }
                node = node.child(property)
                guard i < names.count - 1 else {
                    node.wholeField = true
                    break
                }
                guard property.collection == .none, property.type == .object,
                    let target = property.objectType.flatMap({ schema[$0] })
                else {
                    throw PorterError(
                        .usage,
                        "--fields: '\(field)': \(current.name).\(name) is not an object, so it has no '\(names[i + 1])'"
                    )
                }
                current = target
            }
        }
    }

    /// The whole property was asked for (`owner` as well as `owner.name`: all of it).
    private(set) var wholeField = false

    /// The node of `property` below this one (made when new).
    private func child(_ property: Property) -> ExportProjection {
        if let found = children.first(where: { $0.name == property.name }) { return found.node }
        let node = ExportProjection(property: property)
        children.append((property.name, node))
        return node
    }

    /// The node of the field `name`, if it is kept.
    func node(_ name: String) -> ExportProjection? { children.first { $0.name == name }?.node }
}

/// Stops a stream once `--limit` objects were written.
private struct LimitReached: Error {}

extension Exporter {
    /// The reader of the exported file the query evaluator and the projection use.
    func queryReader() -> any QueryObjectReader {
        switch origin {
        case .database(let database): return DatabaseQueryReader(database: database)
        case .other(let origin): return origin.queryReader()
        }
    }

    /// The selection of `cls` streamed from `source`, checked against the schema; nil when there
    /// is none for it.
    func compiledSelection(for cls: ObjectSchema, source: ExportObjectSource) throws -> CompiledSelection? {
        guard let selection, selection.className == cls.name else { return nil }
        let compiled = try CompiledSelection(
            selection, cls: cls, schema: schema, base: queryReader(), properties: source.properties)
        if translatesQuery, case .database = origin, let query = selection.query {
            compiled.keysSQL = QueryTranslator.storageSelection(query, className: cls.name, schema: schema)
        }
        return compiled
    }

    /// Checks the selection against the schema before anything is written.
    public func checkSelection() throws {
        guard let selection else { return }
        guard let cls = schema[selection.className] else {
            throw PorterError(
                .notFound, "no class named '\(selection.className)' in the database's schema", location: path)
        }
        _ = try CompiledSelection(
            selection, cls: cls, schema: schema, base: queryReader(), properties: cls.persistedProperties)
    }

    /// Calls `body` with the selected objects of `source`, in their order: every object in key order
    /// without a selection; else those the query keeps, sorted, after `skip`, at most `limit`. Only
    /// a sort holds anything: the keys and sort values of the matching objects.
    func forEachSelected(
        _ source: ExportObjectSource, _ selected: CompiledSelection?, _ body: (ObjectKey, [Value]) throws -> Void
    ) throws {
        guard let selected, selected.selects else { return try source.forEachObject(body) }
        let reader = selected.reader
        let matcher = selected.matcher
        // The objects the query keeps, in key order: those its translation selects in the
        // database (read one by one), or every object the evaluator keeps.
        func forEachMatching(_ each: (ObjectKey, [Value]) throws -> Void) throws {
            if let sql = selected.keysSQL, case .database(let database) = origin {
                return try database.forEachKey(selectedBy: sql) { key in
                    guard let values = try source.object(at: key) else { return }
                    reader.move(to: key, values: values)
                    try each(key, values)
                }
            }
            try source.forEachObject { key, values in
                reader.move(to: key, values: values)
                if selected.filters, try !matcher.matches(key, reader: reader) { return }
                try each(key, values)
            }
        }
        if selected.sortKeys.isEmpty {
            var skipped = 0
            var taken = 0
            if selected.limit == 0 { return }
            do {
                try forEachMatching { key, values in
                    if skipped < selected.skip {
                        skipped += 1
                        return
                    }
                    try body(key, values)
                    taken += 1
                    if let limit = selected.limit, taken >= limit { throw LimitReached() }
                }
            } catch is LimitReached {}
            return
        }
        var rows: [(key: ObjectKey, values: [Value])] = []
        try forEachMatching { key, values in
            let object = ObjectLink(matcher.className, key)
            rows.append(
                (
                    key,
                    try selected.sortKeys.map {
                        try matcher.values($0.path, from: object, reader: reader).values.first ?? .null
                    }
                )
            )
        }
        rows.sort { QuerySortKey.less($0.values, $0.key, $1.values, $1.key, keys: selected.sortKeys) }
        var end = rows.count
        if let limit = selected.limit { end = min(end, selected.skip + limit) }
        guard selected.skip < end else { return }
        for row in rows[selected.skip..<end] {
            guard let values = try source.object(at: row.key) else { continue }
            try body(row.key, values)
        }
    }
}
