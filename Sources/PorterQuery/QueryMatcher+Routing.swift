import Foundation
import PorterModel

extension QueryMatcher {
    /// Whether a condition (not looking into AND, OR, NOT) must run on ``QueryMatcher`` rather than
    /// on an evaluator that knows plain property paths only (the typed API's): what
    /// ``QueryPredicate/needsObjectMatcher`` says, and also a path going on past a mixed value
    /// (`extra.key`, read from the data) or `@count`/`@size` of a path that reaches one value
    /// (`name.@size` counts bytes; `owner.age.@size` is refused, as realm-core refuses it), so
    /// that both faces give the same objects and the same errors.
    package static func isNeeded(for predicate: QueryPredicate, className: String, schema: Schema) -> Bool {
        if predicate.needsObjectMatcher { return true }
        let path: QueryPath
        switch predicate {
        case .compare(let p, _, _, _, _), .between(let p, _, _), .in(let p, _): path = p
        default: return false
        }
        guard var cls = schema[className] else { return false }
        var throughCollection = false
        for (index, name) in path.components.enumerated() {
            guard let property = cls.property(named: name) else { return false }
            if property.isCollection || property.isComputed { throughCollection = true }
            guard index < path.components.count - 1 else { break }
            if property.type == .mixed { return true }
            guard let target = property.objectType, let next = schema[target] else { return false }
            cls = next
        }
        return path.aggregate == .count && !throughCollection
    }
}
