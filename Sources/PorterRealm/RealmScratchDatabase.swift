import Foundation
import PorterInterchange
import PorterModel
import PorterRealmFile
import PorterStore

/// A Realm file's objects in a Porter database in a private temporary folder, for the operations
/// that work on a Porter database (data-aware diffs, migrations). The folder is removed by
/// ``remove()`` or when the value is released.
package final class RealmScratchDatabase {
    /// The database holding the Realm file's objects.
    package private(set) var database: Database?
    /// The private folder.
    package let folder: String

    /// Copies `file` (with `schema`, default the file's) into a new temporary Porter database.
    package init(_ file: RealmFile, schema: Schema? = nil) throws {
        let template = NSTemporaryDirectory() + "/porter-realm-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw PorterError(.io, "cannot create a temporary folder: \(String(cString: strerror(errno)))", location: NSTemporaryDirectory())
        }
        folder = String(cString: made)
        do {
            let db = try Database.create(at: path, schema: schema ?? file.schema)
            try Importer(database: db, formats: []).run(realmFile: file)
            database = db
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// The scratch database's file.
    package var path: String { folder + "/copy.porter" }

    /// Closes the database, keeping the folder (so another connection can take it over).
    package func close() { database = nil }

    /// Closes the database and removes the folder.
    package func remove() {
        database = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit { remove() }
}
