import ArgumentParser
import Foundation
import Porter

/// `porter plan OLD NEW`: writes a migration plan people can review and edit.
public struct PlanCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Write a migration plan from one schema to another.",
        discussion: """
            The plan lists the renames you ask for, a conversion for every type change that has one, \
            fills, and every other change. Destructive changes are covered (deleteData) only with \
            --allow-data-loss; otherwise a warning on stderr says what is uncovered and how to accept it. \
            Apply it with 'porter migrate DB --to NEW --plan PLAN'.
            """)

    /// The old side.
    @Argument(help: "The old schema: a database file or a schema file.") public var old: String
    /// The new side (with `--reverse`, the schema the plan was made from; optional).
    @Argument(
        help: "The new schema file (with --reverse: the schema plan OLD was made from, when the plan cannot tell).")
    public var new: String?
    /// Renames.
    @OptionGroup public var renaming: RenameOptions
    /// Fill values.
    @OptionGroup public var filling: FillOptions
    /// Cover destructive changes.
    @Flag(name: .long, help: "Cover destructive changes with deleteData operations.") public var allowDataLoss = false
    /// Write the inverse of the plan `old` (back to the schema file `new`, the one it was made from).
    @Flag(
        name: .long,
        help:
            "Write the inverse of plan OLD (a plan file you applied), back to the schema it was made from (NEW, or rebuilt from the plan)."
    )
    public var reverse = false
    /// Output file.
    @Option(name: [.short, .customLong("output")], help: "Write the plan here instead of standard output.") public
        var output: String?
    /// The key of an encrypted Realm file on the old side.
    @OptionGroup public var encryption: EncryptionOptions

    /// ArgumentParser requirement.
    public init() {}

    /// Argument errors (exit 64): NEW missing without --reverse; with --reverse, a first argument
    /// that is not a plan file, or a plan that cannot tell the schema it was made from when NEW is not given.
    public func validate() throws {
        guard reverse else {
            if new == nil {
                throw ValidationError(
                    "missing the new schema: porter plan OLD NEW (or porter plan --reverse PLAN to invert a plan file)")
            }
            return
        }
        // A missing file is reported by run(), as for every other command.
        guard FileManager.default.fileExists(atPath: old) else { return }
        guard Self.isPlanFile(old) else {
            throw ValidationError(
                "\(old): not a migration plan: --reverse takes the plan file you applied, "
                    + "as in porter plan --reverse PLAN [-o OUT]")
        }
        if new == nil, let plan = try? MigrationPlan(contentsOfFile: old) {
            do { _ = try plan.sourceSchema() } catch let error as PorterError {
                throw ValidationError("\(old): \(error.message)")
            }
        }
    }

    /// Writes the plan to `--output` or through `printer`.
    public func run(output printer: CommandOutput) throws {
        if reverse { return try writeReverse(printer) }
        guard let new else { throw PorterError(.usage, "missing the new schema") }
        let oldSchema = try loadSchema(old, key: try encryption.key())
        let newSchema = try loadSchema(new)
        try newSchema.validate()
        let renameSet = try renaming.renameSet()
        let (plan, warnings) = try MigrationPlan.make(
            from: oldSchema, to: newSchema, renames: renameSet,
            fills: try filling.arguments(), allowDataLoss: allowDataLoss)
        for warning in warnings { printer.err("porter: warning: \(warning)") }
        try write(plan, printer)
    }

    /// Writes `plan` to `--output` (saying so on stderr, with `note` after the versions) or to `printer`.
    func write(_ plan: MigrationPlan, _ printer: CommandOutput, note: String = "") throws {
        // The JSON text ends with its newline, which `out` adds.
        guard let output else { return printer.out(String(plan.jsonString().dropLast())) }
        do {
            try Data(plan.jsonString().utf8).write(to: URL(fileURLWithPath: output))
        } catch {
            throw PorterError(.io, "cannot write plan: \(error.localizedDescription)", location: output)
        }
        printer.err(
            "Wrote \(output): \(plan.operations.count) operations, schema version \(plan.fromVersion) -> \(plan.toVersion)"
                + note)
    }
}
