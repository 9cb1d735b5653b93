import Foundation
import PorterStore

extension RelationalLayout {
    /// The `_porter_schema` table every relational export has (its layout version and schema JSON).
    static var schemaTableStatement: String {
        let strict = PlainSQLiteFile.supportsStrictTables ? " STRICT" : ""
        return "CREATE TABLE \(schemaTable) (\"layout\" INTEGER NOT NULL, \"schema\" TEXT NOT NULL)\(strict)"
    }

    /// Every statement creating the export's tables and indexes: `_porter_schema`, then
    /// ``createStatements()`` (the export writes these; `porter codegen --lang grdb` migrates to them).
    func allCreateStatements() -> [String] {
        [Self.schemaTableStatement] + createStatements()
    }
}
