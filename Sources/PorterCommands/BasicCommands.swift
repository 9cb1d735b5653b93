import ArgumentParser
import Foundation
import Porter

/// `porter create DB --schema SCHEMA.json`: a new database file.
public struct CreateCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a new database file from a schema file.")
    /// The database file to create (must not exist).
    @Argument(help: "The database file to create.") public var database: String
    /// The schema file.
    @Option(name: .long, help: "The schema file (JSON).") public var schema: String
    /// ArgumentParser requirement.
    public init() {}

    /// Creates the file.
    public func run(output: CommandOutput) throws {
        let schemaValue = try Schema(contentsOfFile: schema)
        do {
            let db = try Database.create(at: database, schema: schemaValue)
            output.out("Created \(database): schema version \(db.schemaVersion), \(schemaValue.classes.count) classes")
        } catch let error as PorterError where error.code == .invalidSchema {
            // Validation errors name Class.property; prefix the file they came from.
            throw error.located(in: schema)
        }
    }
}

/// `porter schema DB|SCHEMA.json`: the normalized schema JSON.
public struct SchemaCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(commandName: "schema", abstract: "Print the normalized schema of a database or schema file.")
    /// A database or schema file.
    @Argument(help: "A database file or a schema file.") public var source: String
    /// ArgumentParser requirement.
    public init() {}

    /// Prints the schema.
    public func run(output: CommandOutput) throws {
        output.out(try loadSchema(source).jsonString(pretty: true))
    }
}

/// `porter validate SCHEMA.json`: every validation error at once.
public struct ValidateCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(commandName: "validate", abstract: "Validate a schema file and print every error.")
    /// The schema file.
    @Argument(help: "The schema file to validate.") public var schema: String
    /// ArgumentParser requirement.
    public init() {}

    /// Validates and reports.
    public func run(output: CommandOutput) throws {
        let value = try Schema(contentsOfFile: schema)
        let errors = value.validationErrors()
        if errors.isEmpty {
            output.out("\(schema): valid (schema version \(value.version), \(value.classes.count) classes)")
            return
        }
        output.err("\(schema): \(errors.count) error\(errors.count == 1 ? "" : "s")")
        for line in errors { output.err("\(schema): \(line)") }
        throw ExitCode(1)
    }
}

/// `porter inspect DB`: schema version, classes with object counts, file size, migration history.
public struct InspectCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(commandName: "inspect", abstract: "Show a database's schema version, classes with object counts, size and history.")
    /// The database file.
    @Argument(help: "The database file.") public var database: String
    /// ArgumentParser requirement.
    public init() {}

    /// Prints the summary.
    public func run(output: CommandOutput) throws {
        let db = try Database.open(at: database, readOnly: true)
        try db.read {
            output.out("Database: \(database)")
            output.out("Schema version: \(db.schemaVersion)")
            output.out("File size: \(db.fileSize) bytes")
            output.out("Classes:")
            let width = db.schema.classes.map(\.name.count).max() ?? 0
            for cls in db.schema.classes {
                let count = try db.count(cls.name)
                let kind = cls.isEmbedded ? " (embedded)" : (cls.primaryKey.map { " (primary key: \($0))" } ?? "")
                output.out("  \(cls.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(String(count).leftPadded(9)) objects\(kind)")
            }
            let history = try db.history()
            if !history.isEmpty {
                output.out("Migrations:")
                for entry in history {
                    output.out("  v\(entry.fromVersion) -> v\(entry.toVersion)  \(entry.appliedAt)  porter \(entry.porterVersion)  \(entry.summary)")
                }
            }
        }
    }
}

extension String {
    /// Pads on the left to `width` characters.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
