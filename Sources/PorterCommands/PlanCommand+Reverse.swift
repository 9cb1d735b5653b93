import Foundation
import Porter
import PorterRealm

extension PlanCommand {
    /// `porter plan --reverse PLAN [OLD.json] -o OUT`: the inverse plan, or the list of what cannot be
    /// inverted. Without OLD.json the plan's source schema is rebuilt from the plan (checked by its checksum).
    func writeReverse(_ printer: CommandOutput) throws {
        // A file that is not a plan was refused by validate() (exit 64); a damaged plan fails here.
        let forward = try MigrationPlan(contentsOfFile: old)
        let source = try new.map { try loadSchema($0) } ?? forward.sourceSchema()
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

    /// Whether `path` holds a JSON object whose `format` says it is a migration plan (a schema or
    /// another file where the plan belongs is an argument error; a damaged plan is not).
    static func isPlanFile(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), let json = try? JSONValue.parse(data) else {
            return false
        }
        return json["format"]?.stringValue == MigrationPlan.formatName
    }
}
