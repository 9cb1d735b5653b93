import ArgumentParser
import Foundation
import Porter

/// `porter codegen SCHEMA-OR-DB --lang grdb|realmswift`: prints Swift model code for the schema.
public struct CodegenCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Print Swift model code for a schema: GRDB records for the SQLite export, or RealmSwift classes.",
        discussion: """
            --lang grdb: one struct per table of `porter export --format sqlite` (Codable, FetchableRecord, \
            PersistableRecord, Identifiable where one column is the key) with GRDB associations for links, \
            child records and owners, and PorterMigrations.migrator whose migration v<schema version> creates \
            exactly the export's tables. --lang realmswift: Object and EmbeddedObject classes with @Persisted \
            properties. The schema comes from a schema file, a Porter database or a Realm file.
            """)
    /// The schema's source.
    @Argument(help: "A schema file, a Porter database or a Realm file.") public var source: String
    /// The language.
    @Option(name: .long, help: "The language of the models.") package var lang: Codegen.Language
    /// `--models`: what a Realm file does not store.
    @OptionGroup public var models: ModelsOption
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// ArgumentParser requirement.
    public init() {}

    /// Prints the code.
    public func run(output: CommandOutput) throws {
        let schema = try loadSchema(source, key: try encryption.key(), models: try loadModels(models.path))
        output.out(String(try Codegen.generate(schema, language: lang).dropLast()))
    }
}
