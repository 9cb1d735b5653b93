import Foundation

extension Realm {
    /// Loads a fixture file (`{ "schemaVersion": 3, "Dog": [ … ], "Person": [ … ] }`) into the
    /// realm with the rules and errors of `porter import`: all or nothing, links by primary key
    /// or `_key`, forward references and cycles allowed. Runs its own write transaction, so call
    /// it outside ``write(_:)``.
    /// - Throws: ``PorterError/Code/invalidInput`` with one `FILE:DOC#:field.path: message` line
    ///   per problem; the realm is unchanged.
    public func importFixtures(at url: URL, options: ImportOptions = ImportOptions()) throws {
        try database.importFixtures(at: url, options: options)
    }

    /// Loads fixture data held in memory; `name` is used in error messages.
    public func importFixtures(data: Data, name: String = "fixture.json", options: ImportOptions = ImportOptions()) throws {
        try database.importFixtures(data: data, name: name, options: options)
    }
}
