import Foundation
import Porter

/// `porter import DEST DIR --create` of an export folder, run inside a child process by the
/// bench binary, so callgrind (which cannot read the `porter` binary's debug info) can profile
/// the import. Prints the documents imported and the database's size.
enum ImportOperations {
    /// Runs `op` when it is one of these operations; false when it is not.
    static func run(_ op: String, _ args: [String]) throws -> Bool {
        guard op == "import-folder" else { return false }
        guard args.count == 2 else { throw BenchError("import-folder EXPORT_DIR DEST") }
        let (folder, destination) = (args[0], args[1])
        removeDatabase(destination)
        let schema = try Schema(contentsOfFile: URL(fileURLWithPath: folder).appendingPathComponent("schema.json").path)
        let database = try Database.create(at: destination, schema: schema)
        let importer = Importer(database: database, formats: InterchangeFormats.input)
        let report = try importer.run([ImportSource(path: folder)])
        print("\(report.totalDocuments) \(diskSize(destination))")
        return true
    }
}
