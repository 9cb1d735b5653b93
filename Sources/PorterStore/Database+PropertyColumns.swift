import PorterCSQLite
import Foundation
import PorterModel

extension Database {
    /// The values of several single-value stored properties for every object of a class, in key
    /// order, from one statement: ``propertyValues(_:_:)`` for each of `properties` at once (a
    /// query filtering on one property and sorting by another reads the table once, not twice).
    /// `columns[i][row]` is the value of `properties[i]` of the object `keys[row]`.
    package func propertyColumns(_ className: String, _ properties: [String]) throws -> (
        keys: [ObjectKey], columns: [[Value]]
    ) {
        let plan = try plan(for: className)
        var selected: [Property] = []
        for name in properties {
            guard let prop = plan.persisted.first(where: { $0.name == name }), !prop.isCollection else {
                throw PorterError(
                    .notFound, "no stored single-value property '\(name)'", location: "\(className).\(name)")
            }
            selected.append(prop)
        }
        let list = selected.map { quoteIdentifier($0.name) }.joined(separator: ", ")
        let stmt = try connection.cached("SELECT _key, \(list) FROM \(plan.table) ORDER BY _key")
        defer { stmt.reset() }
        // By index over the types: copying each column's `Property` per row cost as much as the read.
        let types = selected.map(\.type)
        let objectTypes = selected.map(\.objectType)
        var keys: [ObjectKey] = []
        var columns = [[Value]](repeating: [], count: selected.count)
        while try stmt.step() {
            keys.append(ObjectKey(stmt.int64(0)))
            for i in types.indices {
                let type = types[i]
                columns[i].append(
                    try StorageCodec.read(
                        stmt, Int32(i + 1), type: type, objectType: type == .object ? objectTypes[i] : nil))
            }
        }
        return (keys, columns)
    }
}
