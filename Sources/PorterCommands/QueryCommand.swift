import ArgumentParser
import Foundation
import Porter

/// `porter query`: what Porter does with Realm queries besides running them.
public struct QueryCommand: ParsableCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Work with Realm queries (the Realm Query Language of --query).",
        subcommands: [QueryTranslateCommand.self])
    /// ArgumentParser requirement.
    public init() {}
}

extension QueryTranslationTarget: ExpressibleByArgument {}

/// `porter query translate 'QUERY' --class CLASS --schema FILE --to sql|postgres|mongo`: prints
/// the WHERE clause or the MongoDB filter selecting the objects the query selects.
public struct QueryTranslateCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Print a Realm query as a SQL WHERE clause or a MongoDB filter over Porter's exports.",
        discussion: """
            --to sql: a SQLite WHERE clause over the tables of `porter export --format sqlite` (the class's table \
            by its name; links, collections and linking objects as EXISTS and count(*) subqueries). --to postgres: \
            the same over `porter export --format postgres`. --to mongo: a MongoDB filter document (relaxed Extended \
            JSON) over the documents of the bson/ejson export. The translation selects exactly the objects Porter's \
            own evaluator selects; a part of the query without such a translation (a link path for MongoDB, [d], \
            @avg, non-ASCII string arguments, dates, decimals, …) is named in a one-line error and nothing is \
            printed (exit 1). The schema comes from a schema file, a Porter database or a Realm file.
            """)
    /// The query.
    @Argument(help: "A Realm query, as --query takes it: \"owner.age > 30 AND ANY tags == 'cute'\".")
    public var query: String
    /// The queried class.
    @Option(name: .customLong("class"), help: "The class whose objects the query selects.")
    public var className: String
    /// The schema's source.
    @Option(name: .long, help: "A schema file, a Porter database or a Realm file.") public var schema: String
    /// The target.
    @Option(name: .long, help: "What to write: a SQLite or PostgreSQL WHERE clause, or a MongoDB filter.")
    public var to: QueryTranslationTarget
    /// `--models`: what a Realm file does not store (linking objects).
    @OptionGroup public var models: ModelsOption
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// ArgumentParser requirement.
    public init() {}

    /// Prints the translation.
    public func run(output: CommandOutput) throws {
        let loaded = try loadSchema(schema, key: try encryption.key(), models: try loadModels(models.path))
        output.out(try QueryTranslator.translate(query, className: className, schema: loaded, to: to))
    }
}
