import Foundation
import PorterInterchange
import PorterModel
import PorterRealmFile
import PorterStore

/// A Realm file's objects in a Porter database in a private temporary folder, for the operations
/// that work on a Porter database (data-aware diffs, migrations). The folder is removed by
/// ``remove()`` or when the value is released. The objects of an encrypted file are kept in
/// memory instead: they never reach the disk in the clear.
package final class RealmScratchDatabase {
    /// The database holding the Realm file's objects.
    package private(set) var database: Database?
    /// The private folder (empty for a database in memory).
    package let folder: String
    /// Whether the database lives in memory (always for an encrypted file).
    package let isInMemory: Bool

    /// Copies `file` (with `schema`, default the file's) into a new temporary Porter database: in
    /// memory when `inMemory` says so, by default when the file is encrypted. On disk otherwise,
    /// since the copy of a large file must not have to fit in memory.
    package init(_ file: RealmFile, schema: Schema? = nil, inMemory: Bool? = nil) throws {
        isInMemory = inMemory ?? file.isEncrypted
        if isInMemory {
            folder = ""
            let db = try Database.inMemory(schema: schema ?? file.schema)
            try db.keepTemporaryDataInMemory()
            try Importer(database: db, formats: []).run(realmFile: file)
            database = db
            return
        }
        let template = NSTemporaryDirectory() + "/" + TemporaryFiles.temporaryFolderPrefix + "XXXXXX"
        guard let made = TemporaryFiles.makeFolder(template: template) else {
            throw PorterError(
                .io, "cannot create a temporary folder: \(String(cString: strerror(errno)))",
                location: NSTemporaryDirectory())
        }
        folder = made
        do {
            let db = try Database.create(at: path, schema: schema ?? file.schema)
            try Importer(database: db, formats: []).run(realmFile: file)
            database = db
        } catch {
            TemporaryFiles.remove(folder)
            throw error
        }
    }

    /// The scratch database's file.
    package var path: String { isInMemory ? ":memory:" : folder + "/copy.porter" }

    /// Closes the database, keeping the folder (so another connection can take it over); a
    /// database in memory stays open (closing it would drop it).
    package func close() { if !isInMemory { database = nil } }

    /// Closes the database and removes the folder.
    package func remove() {
        database = nil
        if !isInMemory { TemporaryFiles.remove(folder) }
    }

    deinit { remove() }
}
