import Foundation

extension Realm {
    /// Imports a fixture, first migrating it when it is older than the realm's schema.
    func importFixtures(from source: FixtureSource, options: ImportOptions) throws {
        var options = options
        // A typed model's every non-optional `@Persisted` property has a Swift initial value
        // (the one written, or the type's that `@Persisted` gives), so a fixture may leave it out.
        if !configuration.objectTypes.isEmpty { options.fillMissing = true }
        _ = try database.importFixtures(
            from: source, options: options, block: configuration.migrationBlock.map(Realm.typedMigrationBlock),
            owner: "realm",
            remedy: "the realm's configuration has no migrationBlock: give it one that moves or drops these values")
    }
}

extension Database {
    /// Loads a fixture file as `Realm.importFixtures` does, for `porter import`: a fixture at an
    /// older `schemaVersion` that carries its schema is migrated (without a migration block: the
    /// conversions the runtime makes on its own) and then loaded; an older one without its schema
    /// is refused; anything else is imported as is. All or nothing.
    /// - Returns: the version the fixture was migrated from, or nil when it needed no migration.
    public func importFixtures(migratingOlderAt url: URL, options: ImportOptions = ImportOptions()) throws -> UInt64? {
        try importFixtures(
            from: .file(url), options: options, block: nil, owner: "database",
            remedy:
                "porter import migrates fixtures without a migration block: bring the fixture to the current schema with porter migrate and export it again"
        )
    }

    /// The `schemaVersion` of a JSON fixture file when it is older than this database's schema
    /// (nil for anything else), so a caller can tell that ``importFixtures(migratingOlderAt:options:)`` migrates it.
    public func olderFixtureVersion(at url: URL) -> UInt64? {
        let current = schema.version
        guard let version = FixtureSource.file(url).header(schema: schema, schemaNeededBelow: current)?.schemaVersion,
            version < current
        else { return nil }
        return version
    }

    /// The shared path; `owner` names the target in messages (`realm`, `database`).
    func importFixtures(
        from source: FixtureSource, options: ImportOptions, block: MigrationBlock?, owner: String,
        remedy: String
    ) throws -> UInt64? {
        let current = schema.version
        guard let header = source.header(schema: schema, schemaNeededBelow: current),
            let version = header.schemaVersion, version < current
        else {
            // Same version, no version, not a fixture object, or newer (which the import refuses).
            try source.importFixtures(into: self, options: options)
            return nil
        }
        guard let fixtureSchema = header.schema else {
            // Reading old documents by the new schema would silently drop or misread renamed and
            // retyped properties, so an old fixture without its schema is refused.
            let message =
                "fixture schemaVersion \(version) is older than the \(owner)'s schema version \(current); "
                + "to migrate it, the fixture needs a \"schema\" member holding its version-\(version) schema (`porter schema` prints one)"
            throw PorterError(
                .invalidInput, "import failed with 1 error; nothing was written", location: path,
                details: ["\(source.name): \(message)"])
        }
        try FixtureMigration(
            database: self, block: block, remedy: remedy, owner: owner, source: source, version: version,
            schema: fixtureSchema, options: options
        ).run()
        return version
    }
}

/// Brings an older fixture to the realm's schema: loads it into a scratch database with the
/// schema it was written with, migrates that with the migration runtime (the configuration's
/// block, and the conversions the runtime makes without a plan), exports the result as plain JSON
/// (which keeps every value exactly, sub-millisecond dates included) and imports that into the
/// realm in one transaction. The realm is written only by the last step, so any failure leaves
/// it unchanged; the scratch folder is removed in every case.
struct FixtureMigration {
    /// The database the fixture goes into.
    let database: Database
    /// The migration block (a realm's configuration's), or nil.
    let block: MigrationBlock?
    /// What to add to a failed migration's details when there is no block.
    let remedy: String
    /// Who loads the fixture (`realm`, `database`), for messages and the scratch folder's name.
    let owner: String
    let source: FixtureSource
    let version: UInt64
    let schema: Schema
    let options: ImportOptions

    func run() throws {
        let manager = FileManager.default
        // Named by who migrates (the Swift API or porter import), so each one's cleanup is checkable.
        let scratch = manager.temporaryDirectory.appendingPathComponent(
            "porter-\(owner == "realm" ? "" : "import-")fixture-\(UUID().uuidString)")
        do {
            try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw PorterError(
                .io, "cannot create a scratch folder to migrate the fixture: \(error.localizedDescription)",
                location: scratch.path)
        }
        defer { try? manager.removeItem(at: scratch) }
        let path = scratch.appendingPathComponent("fixture.porter").path
        let folder = scratch.appendingPathComponent("migrated").path
        try load(into: path)
        try migrate(path)
        guard try export(path, to: folder) else { return }
        try copy(from: folder)
    }

    /// Creates the scratch database with the fixture's schema and imports the fixture into it.
    private func load(into path: String) throws {
        var old = schema
        old.version = version
        let db: Database
        do {
            db = try Database.create(at: path, schema: old)
        } catch let error as PorterError where error.code == .invalidSchema {
            throw PorterError(
                .invalidSchema, "the fixture's schema (version \(version)) is invalid: \(error.message)",
                location: source.name, details: error.details)
        }
        do {
            try source.importFixtures(into: db, options: options)
        } catch let error as PorterError {
            throw relocated(error, from: path, to: database.path)
        }
    }

    /// Migrates the scratch database to the realm's schema with the configuration's block.
    private func migrate(_ path: String) throws {
        var target = database.schema
        // As when a realm opens an old file: classes the model no longer lists are kept rather
        // than dropped (their objects are then left behind by the copy).
        for cls in schema.classes where target[cls.name] == nil { target.upsert(cls) }
        do {
            try Migrator.migrate(databaseAt: path, to: target, block: block)
        } catch let error as PorterError {
            var located = relocated(
                error, from: path, to: "\(source.name) (migrating from schema version \(version) to \(target.version))")
            // The runtime's hints name CLI options; from Swift, the remedy is a migration block.
            if block == nil && error.code == .migrationFailed {
                located.details.append(remedy)
            }
            throw located
        }
    }

    /// Exports the realm's top-level classes from the migrated database; false when there are none.
    private func export(_ path: String, to folder: String) throws -> Bool {
        let db = try Database.open(at: path)
        let classes = database.schema.classes.filter { !$0.isEmbedded && db.schema[$0.name] != nil }.map(\.name)
        guard !classes.isEmpty else { return false }
        _ = try Exporter(database: db, format: JSONFormat(), options: ExportOptions(classes: classes)).export(
            toDirectory: folder)
        return true
    }

    /// Imports the exported folder into the realm, naming the fixture in error lines.
    private func copy(from folder: String) throws {
        do {
            try database.importFixtures(at: URL(fileURLWithPath: folder), options: options)
        } catch var error as PorterError {
            error.details = error.details.map { migratedLine($0, folder: folder) }
            throw error
        }
    }

    /// `…/migrated/Person.json:3:name: message` → `fixture.json (migrated to schema version 2):Person#3:name: message`.
    /// Document numbers count the class's objects after the migration (the fixture's order
    /// unless the block created or deleted objects).
    private func migratedLine(_ line: String, folder: String) -> String {
        let prefix = folder + "/"
        guard line.hasPrefix(prefix) else { return line }
        let rest = line.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: ":") else { return line }
        let fileName = String(rest[..<colon])
        let className = ExportFileNames.className(fromFileName: fileName) ?? fileName
        let tail = rest[rest.index(after: colon)...]
        let place = "\(source.name) (migrated to schema version \(database.schema.version)):\(className)"
        let number = tail.prefix { $0.isASCII && $0.isNumber }
        if !number.isEmpty, tail.dropFirst(number.count).first == ":" {
            return "\(place)#\(number)\(tail.dropFirst(number.count))"
        }
        return "\(place):\(tail)"
    }

    /// `error` with a scratch path at the start of its location replaced by `name`.
    private func relocated(_ error: PorterError, from path: String, to name: String) -> PorterError {
        guard let location = error.location, location == path || location.hasPrefix(path + ":") else { return error }
        var copy = error
        copy.location = name + location.dropFirst(path.count)
        return copy
    }
}
