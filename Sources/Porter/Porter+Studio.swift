import Foundation

/// Realm Query Language over a class of a Porter database by class name, for `porter studio`
/// (no model classes: the same parser and evaluator as ``Results/filter(_:_:)``).
extension Database {
    /// The keys of the objects of `className` matching `query`, in key order.
    /// - Throws: ``PorterError/Code/parseError`` naming the position for a malformed query,
    ///   ``PorterError/Code/notFound`` for an unknown class or property.
    package func keys(matching query: String, in className: String) throws -> [ObjectKey] {
        guard let objectSchema = schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the database's schema", location: className)
        }
        let predicate = try QueryParser.parse(query, [])
        var evaluator = QueryEvaluator(database: self, schema: objectSchema, realm: Realm(openDatabase: self))
        return try read { try evaluator.keys(predicate).sorted() }
    }
}

extension Value {
    /// Realm's sort order of two values (`Results.sorted(byKeyPath:)`): -1, 0 or 1, nulls first.
    package static func sortOrder(_ a: Value, _ b: Value) -> Int { ValueOrder.sortCompare(a, b) }
}
