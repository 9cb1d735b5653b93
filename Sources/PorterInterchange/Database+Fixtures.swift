import Foundation
import PorterDocument
import PorterStore

extension Database {
    /// Loads a fixture file (`{ "schemaVersion": 1, "Person": [ … ], "Dog": [ … ] }`) with the
    /// rules and errors of `porter import`: all or nothing, links by primary key or `_key`,
    /// forward references and cycles allowed. Class files (`Person.json`, `Person.bson`) work too.
    ///
    /// A fixture declaring a `schemaVersion` newer than the database's is refused; an older one is
    /// read by the current schema (this module cannot see the migration runtime: the typed
    /// `Realm.importFixtures` migrates an older fixture that carries its schema). A `schema`
    /// member (the schema the fixture was written with) is shape-checked and otherwise ignored.
    /// - Throws: ``PorterError/Code/invalidInput`` with one `FILE:DOC#:field.path: message` line
    ///   per problem in ``PorterError/details``; the database is unchanged.
    public func importFixtures(at url: URL, options: ImportOptions = ImportOptions()) throws {
        // A small plain fixture file goes straight to the store, as fixture data does.
        if let data = FixtureDirectLoad.smallFile(url),
            loadFixtureDirectly(data: data, name: url.lastPathComponent, options: options)
        {
            return
        }
        let importer = Importer(database: self, formats: InterchangeFormats.input, options: options)
        try importer.run([ImportSource(path: url.path)])
    }

    /// Loads fixture data held in memory; see ``importFixtures(at:options:)``. `name` is used in
    /// error messages (and, for a class file, names the class).
    public func importFixtures(data: Data, name: String = "fixture.json", options: ImportOptions = ImportOptions())
        throws
    {
        // Plain fixtures go straight to the store; anything else (and every error) takes the general import.
        if loadFixtureDirectly(data: data, name: name, options: options) { return }
        let importer = Importer(database: self, formats: InterchangeFormats.input, options: options)
        try importer.run(data: data, name: name)
    }
}
