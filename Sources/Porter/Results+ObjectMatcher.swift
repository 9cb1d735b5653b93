import Foundation
import PorterQuery

extension QueryEvaluator {
    /// The keys of the objects for which `predicate` holds, tested object by object by the shared
    /// evaluator ``QueryMatcher`` (what `porter export --query` runs): SUBQUERY, `@links`, `@type`,
    /// `@keys`, `@values` and subscripts, over a Porter database or a Realm file alike.
    mutating func objectByObject(_ predicate: QueryPredicate) throws -> Set<ObjectKey> {
        let matcher: QueryMatcher
        do {
            matcher = try QueryMatcher(predicate, className: schema.name, schema: database.schema) { argument, path in
                try encode(argument, for: path)
            }
        } catch var error as PorterError {
            if error.location == nil { error.location = schema.name }
            throw error
        }
        let keys = try all()
        var out = Set<ObjectKey>()
        if let file = reader as? RealmFileReader {
            let fileReader = RealmFileQueryReader(file: file.file)
            for key in keys where try matcher.matches(key, reader: fileReader) { out.insert(key) }
        } else {
            let databaseReader = DatabaseQueryReader(database: database)
            for key in keys where try matcher.matches(key, reader: databaseReader) { out.insert(key) }
        }
        return out
    }
}
