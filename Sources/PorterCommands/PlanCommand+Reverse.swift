import Foundation
import Porter
import PorterRealm

extension PlanCommand {
    /// `porter plan --reverse PLAN OLD.json -o OUT`: the inverse plan, or the list of what cannot be inverted.
    func writeReverse(_ printer: CommandOutput) throws {
        let forward = try MigrationPlan(contentsOfFile: old)
        let source = try loadSchema(new)
        guard renaming.renames.isEmpty, renaming.classRenames.isEmpty else {
            throw PorterError(
                .usage, "--rename and --rename-class do not apply to --reverse: the renames come from the plan")
        }
        let (plan, nonInvertible) = try forward.reversed(
            to: source, fills: try filling.arguments(),
            allowDataLoss: allowDataLoss)
        if !nonInvertible.isEmpty && !allowDataLoss {
            throw PorterError(
                .migrationFailed,
                "\(nonInvertible.count) operation\(nonInvertible.count == 1 ? "" : "s") of "
                    + "the plan cannot be inverted: supply a --fill for removed values, or pass --allow-data-loss",
                location: old, details: nonInvertible)
        }
        for line in nonInvertible { printer.err("porter: warning: not invertible (accepted): \(line)") }
        try write(plan, printer, note: " (the inverse of \(old))")
    }
}
