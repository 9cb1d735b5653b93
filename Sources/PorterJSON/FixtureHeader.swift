import Foundation
import PorterDocument
import PorterModel

/// What a JSON fixture file says about itself: the `schemaVersion` it declares and the schema it
/// carries in its `schema` member (the schema it was written with, so an older fixture can be
/// migrated to a newer model).
package struct FixtureHeader: Sendable {
    /// The fixture's `schemaVersion` (or, when it has none, the one its `schema` member declares).
    package var schemaVersion: UInt64?
    /// The schema in the fixture's `schema` member, shape-checked but not validated.
    package var schema: Schema?

    /// Reads the header of the fixture in `input` with the streaming fixture reader, without
    /// parsing its documents: they are only scanned, one at a time, so memory holds at most one.
    ///
    /// Members may come in any order, so reading goes on until the version is known and either the
    /// `schema` member was found or the version is at least `version` (a fixture that needs no
    /// migration, the common case, costs its first document's scan); else to the end.
    /// - Parameters:
    ///   - context: the schema and class hint the import would use (they tell a fixture object
    ///     from a file of documents).
    ///   - version: the version below which the schema is needed.
    /// - Returns: nil when the input is not a fixture object (line-delimited documents, an array).
    /// - Throws: ``DocumentInputError`` for input the fixture reader rejects (the import reports
    ///   it the same way).
    package static func read(_ input: ByteInput, context: DecoderContext, schemaNeededBelow version: UInt64) throws
        -> FixtureHeader?
    {
        let reader = JSONLayoutReader(input: input, context: context, maxDepth: InterchangeLimits.maxNestingDepth)
        while true {
            let document = try reader.next()
            guard reader.layout == .fixture else { return nil }
            if document == nil { break }
            if let found = reader.fixtureVersion, reader.fixtureSchema != nil || found >= version { break }
        }
        return FixtureHeader(schemaVersion: reader.fixtureVersion, schema: reader.fixtureSchema)
    }
}
