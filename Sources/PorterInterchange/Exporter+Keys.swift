import Foundation
import PorterModel

extension Exporter {
    /// The keys of the objects of `className` the selection's query keeps (every object without
    /// one), in key order, with the value of the stored property `column` of each when asked:
    /// one pass over the class as `porter export --query` makes it (the values in hand, links
    /// followed by the query reader), keeping a key and one value per object, never the objects.
    /// `porter studio` pages, sorts and counts a query result from these.
    /// - Throws: ``PorterError``: an unknown class or column, the query's errors (as `--query: …`).
    package func selectedKeys(of className: String, column: String? = nil) throws -> (
        keys: [ObjectKey], values: [Value]
    ) {
        guard let cls = schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the database's schema", location: path)
        }
        var keys: [ObjectKey] = []
        var values: [Value] = []
        try read {
            let source = try source(for: cls)
            let index = try column.map { name in
                guard let index = source.properties.firstIndex(where: { $0.name == name }) else {
                    throw PorterError(.usage, "no stored property '\(name)' in class \(cls.name)", location: path)
                }
                return index
            }
            let selected = try compiledSelection(for: cls, source: source)
            let filter = selected.flatMap { $0.filters ? $0 : nil }
            try source.forEachObject { key, objectValues in
                if let filter {
                    filter.reader.move(to: key, values: objectValues)
                    if try !filter.matcher.matches(key, reader: filter.reader) { return }
                }
                keys.append(key)
                if let index { values.append(objectValues[index]) }
            }
        }
        return (keys, values)
    }
}
