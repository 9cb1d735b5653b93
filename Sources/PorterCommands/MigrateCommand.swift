import ArgumentParser
import Foundation
import Porter
import PorterRealm

/// `porter migrate DB --to NEW.json`: migrates a database in one transaction, with checks.
public struct MigrateCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a Porter database or a Realm file to a new schema.",
        discussion: """
            Applies the plans (in version order), renames, conversions and fills in one write transaction, \
            then checks primary keys, required values, links and embedded objects; any failure rolls \
            everything back. Destructive changes nothing covers are refused, with counts, before anything \
            is written. --dry-run does everything and rolls back. A Realm file is written anew (file format \
            24, at the new schema version, encrypted with the same key): column by column when the changes \
            allow it (unchanged columns copied as they are), else through a private copy migrated by the same \
            runtime; the new file replaces the original atomically, and any failure leaves the original byte \
            for byte unchanged.
            """)

    /// The database file.
    @Argument(help: "A Porter database or a Realm file.") public var database: String
    /// The target schema.
    @Option(name: .long, help: "The new schema file.") public var to: String
    /// Plans to apply.
    @Option(
        name: .customLong("plan"),
        help: ArgumentHelp("A plan from 'porter plan' (repeat for a chain).", valueName: "plan.json")) public var plans:
        [String] = []
    /// Dry run.
    @Flag(name: .long, help: "Run the whole migration and its checks, then roll back.") public var dryRun = false
    /// Backup path.
    @Option(name: .long, help: "Copy the database here first (must not exist).") public var backup: String?
    /// Accept data loss.
    @Flag(name: .long, help: "Accept destructive changes that nothing covers.") public var allowDataLoss = false
    /// Accept a lower schema version (a down migration).
    @Flag(name: .long, help: "Accept a schema version lower than the file's (a down migration with a downward plan).")
    public var allowDowngrade = false
    /// Renames.
    @OptionGroup public var renaming: RenameOptions
    /// Fill values.
    @OptionGroup public var filling: FillOptions
    /// The key of an encrypted Realm file (the migrated file is encrypted with it too).
    @OptionGroup public var encryption: EncryptionOptions
    /// `--skip-check`.
    @OptionGroup var check: SkipCheckOption
    /// `--wait`: how long to wait for another writer.
    @OptionGroup public var writer: WaitOption
    /// Accept dropping a synced Realm file's sync history.
    @Flag(
        name: .long,
        help: "Migrate a synced Realm file although its sync history is dropped (the app must then sync anew).")
    public var dropSyncHistory = false

    /// ArgumentParser requirement.
    public init() {}

    /// Runs the migration and writes the summary through `output`.
    public func run(output: CommandOutput) throws {
        writer.apply(sweeping: database)
        guard FileManager.default.fileExists(atPath: database) else {
            throw PorterError(.io, "no such database file", location: database)
        }
        let schema = try loadSchema(to)
        let planValues = try plans.map { try MigrationPlan(contentsOfFile: $0) }
        let renameSet = try renaming.renameSet()
        var options = MigrationOptions(
            dryRun: dryRun, backupPath: backup, allowDataLoss: allowDataLoss,
            fills: try filling.arguments(),
            progress: isatty(2) == 1 ? MigrateCommand.showProgress : nil)
        options.allowDowngrade = allowDowngrade
        let key = try encryption.key()
        try InputCheck.require(database, key: key, skip: check.skipCheck)
        if StoredFileKind.of(path: database) == .realmFile || key != nil {
            let lock = try RealmFileLock(realmFile: database, wait: writer.wait)
            defer { lock.release() }
            try refuseDroppingSyncHistory(key: key, output)
            let report = try RealmFileMigration.migrate(
                database, key: key, to: schema, plans: planValues, renames: renameSet, options: options)
            if isatty(2) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            output.out(report.text)
            output.out(
                "Note: a Realm file has no place for Porter's migration history; keep --backup copies to go back.")
            return
        }
        let report = try Migrator.migrate(
            databaseAt: database, to: schema, plans: planValues, renames: renameSet, options: options)
        if isatty(2) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        output.out(report.text)
    }

    /// A synced Realm file's history (history type 3 or 4) is not carried into the migrated file:
    /// refused unless `--drop-sync-history`, then a warning.
    private func refuseDroppingSyncHistory(key: [UInt8]?, _ output: CommandOutput) throws {
        let history = try RealmFile(path: database, encryptionKey: key).historyType
        guard history == 3 || history == 4 else { return }
        guard dropSyncHistory else {
            throw PorterError(
                .usage,
                "holds sync history (a synced Realm file), which migrating would drop: pass "
                    + "--drop-sync-history to migrate it anyway (the app then syncs it anew)", location: database)
        }
        output.err("porter: warning: \(database): its sync history is dropped (--drop-sync-history)")
    }

    /// Progress on a terminal: one line, rewritten in place.
    @Sendable static func showProgress(_ progress: MigrationProgress) {
        let line = "\r\u{1B}[K\(progress.phase) \(progress.className): \(progress.done)/\(progress.total)"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
