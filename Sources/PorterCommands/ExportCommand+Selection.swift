import ArgumentParser
import Foundation
import Porter

extension ExportCommand {
    /// `--query`, `--sort`, `--skip`, `--limit` and `--fields` for the one `--class`; nil when none
    /// is given (or `--fields` alone names CSV columns of every class).
    var selection: ExportSelection? {
        let given = query != nil || sort != nil || skip != nil || limit != nil || fields != nil
        guard given, classes.count == 1, let className = classes.first, format != .realm else { return nil }
        return ExportSelection(
            className: className, query: query, sort: sort, skip: skip ?? 0, limit: limit, fields: csvFields)
    }

    /// The argument checks of the selection options: they need one `--class` (CSV `--fields`
    /// alone names the columns of every class), do not apply to `--format realm`, and their syntax.
    func checkSelection() throws {
        let options = [
            ("--query", query != nil), ("--sort", sort != nil), ("--skip", skip != nil), ("--limit", limit != nil),
            ("--fields", fields != nil),
        ]
        for (name, given) in options where given {
            if format == .realm {
                throw PorterError(
                    .usage, "\(name) does not apply to --format realm (a Realm file holds every object of every class)")
            }
            if classes.count != 1, !(name == "--fields" && format == .csv) {
                throw PorterError(
                    .usage, "\(name) selects from one class: pass exactly one --class (given: \(classes.count))")
            }
        }
        try selection?.checkSyntax()
    }

    /// Gives `exporter` the selection and checks it against the file's schema (exit code 1: the
    /// schema is known only once the file is open), before anything is written.
    func select(_ exporter: Exporter) throws {
        exporter.selection = selection
        try exporter.checkSelection()
    }
}
