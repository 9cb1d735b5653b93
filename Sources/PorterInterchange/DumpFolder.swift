import Foundation
import PorterModel

/// The entries of a folder to import, sorted by what they are: class files (`.bson`, `.json`,
/// and the same gzipped), mongodump metadata files, database subfolders (of a mongodump root),
/// and everything else, which is skipped and reported.
struct DumpFolder {
    /// A class file or metadata file and the class its name stands for.
    struct Entry {
        var path: String
        var className: String?
    }

    /// A database subfolder of a mongodump root.
    struct DatabaseFolder {
        var name: String
        var path: String
    }

    let path: String
    private(set) var classFiles: [Entry] = []
    private(set) var metadataFiles: [Entry] = []
    private(set) var databases: [DatabaseFolder] = []
    /// Files and folders that are none of the above.
    private(set) var skipped: [String] = []

    /// Lists `path`, in name order.
    init(path: String) throws {
        self.path = path
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).sorted(by: ExportOrder.utf8Less)
        } catch {
            throw PorterError(.io, "cannot list the folder: \(error.localizedDescription)")
        }
        for name in names where !name.hasPrefix(".") && name != ExportFileNames.schemaFile {
            let full = URL(fileURLWithPath: path).appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                if Self.holdsBSON(full) {
                    databases.append(DatabaseFolder(name: name, path: full))
                } else {
                    skipped.append(full)
                }
                continue
            }
            var plain = name
            if plain.lowercased().hasSuffix(".gz") { plain = String(plain.dropLast(3)) }
            if Self.isMetadataFile(plain) {
                metadataFiles.append(Entry(path: full, className: Self.className(ofMetadataFile: plain)))
                continue
            }
            let lower = plain.lowercased()
            guard lower.hasSuffix(".bson") || lower.hasSuffix(".json") else {
                skipped.append(full)
                continue
            }
            classFiles.append(Entry(path: full, className: ExportFileNames.className(fromFileName: plain)))
        }
    }

    /// `Dog.metadata.json`.
    static func isMetadataFile(_ name: String) -> Bool {
        name.lowercased().hasSuffix(DumpMetadata.fileSuffix) && name.count > DumpMetadata.fileSuffix.count
    }

    /// The class of `Dog.metadata.json`.
    static func className(ofMetadataFile name: String) -> String? {
        ExportFileNames.className(fromFileName: String(name.dropLast(DumpMetadata.fileSuffix.count)) + ".json")
    }

    /// Whether a folder holds `.bson` or `.bson.gz` files (a mongodump database folder).
    private static func holdsBSON(_ folder: String) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.contains { $0.lowercased().hasSuffix(".bson") || $0.lowercased().hasSuffix(".bson.gz") }
    }
}
