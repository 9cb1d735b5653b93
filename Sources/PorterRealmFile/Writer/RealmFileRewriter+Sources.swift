import Foundation
import PorterModel

/// Where one property of a rewritten class gets its values.
package enum RealmColumnSource: Sendable {
    /// The source class's property of this name, values unchanged (a rename when the name differs).
    case copy(String)
    /// The same value for every object (a new property: its default or fill value).
    case constant(RealmValue)
    /// Computed from the source property's value of each object: `(value, object key) → value`.
    case convert(String, @Sendable (RealmValue, Int64) throws -> RealmValue)
}

/// How one class of the new file is made from a class of the source.
package struct RealmClassRewrite: Sendable {
    /// The source class (nil: a new, empty class).
    package var sourceClass: String?
    /// By property name of the new class; every persisted property needs one.
    package var columns: [String: RealmColumnSource]

    /// Creates a class rewrite.
    package init(sourceClass: String?, columns: [String: RealmColumnSource]) {
        self.sourceClass = sourceClass
        self.columns = columns
    }
}

/// Why a rewrite cannot be done column by column (the caller then takes the general path).
package struct RealmRewriteUnsupported: Error, Sendable, CustomStringConvertible {
    /// What stands in the way.
    package let reason: String
    /// A description for logs.
    package var description: String { reason }
}
