import Foundation

extension Realm {
    /// Loads a fixture file (`{ "schemaVersion": 3, "Dog": [ … ], "Person": [ … ] }`) into the
    /// realm with the rules and errors of `porter import`: all or nothing, links by primary key
    /// or `_key`, forward references and cycles allowed. Runs its own write transaction, so call
    /// it outside `write(_:)`.
    ///
    /// A fixture at an older `schemaVersion` than the realm's is first migrated, as an old realm
    /// file would be: it must carry the schema it was written with in a `schema` member
    /// (`{ "schemaVersion": 1, "schema": { …schema file… }, "Person": [ … ] }`; `porter schema`
    /// prints one). It is loaded into a temporary database with that schema, migrated to the
    /// realm's schema by the migration runtime with the configuration's ``Configuration/migrationBlock``,
    /// and its objects copied into the realm. A newer fixture is refused.
    /// - Throws: `PorterError/Code/invalidInput` with one `FILE:DOC#:field.path: message` line
    ///   per problem (an older fixture without a `schema` member is one of them); the migration's
    ///   error, or the block's, when migrating the fixture fails. Either way the realm is unchanged.
    public func importFixtures(at url: URL, options: ImportOptions = ImportOptions()) throws {
        try importFixtures(from: .file(url), options: options)
    }

    /// Loads fixture data held in memory; `name` is used in error messages. See
    /// ``importFixtures(at:options:)``, older fixtures included.
    public func importFixtures(data: Data, name: String = "fixture.json", options: ImportOptions = ImportOptions())
        throws
    {
        try importFixtures(from: .memory(data, name: name), options: options)
    }
}
