import Foundation
import PorterDocument
import PorterModel

/// mongodump roots and metadata files.
extension Importer {
    /// A mongodump root: one database subfolder, picked by `--db` or being the only one.
    func importDumpRoot(_ listing: DumpFolder, format: String?) throws {
        let names = listing.databases.map(\.name)
        // An app configuration's dump spans its databases: every one it names is imported.
        if options.dumpDatabase == nil, let mapped = namespaces?.databases, !mapped.isEmpty {
            let wanted = Set(mapped.values)
            skipped += listing.skipped
            skipped += listing.databases.filter { !wanted.contains($0.name) }.map(\.path)
            let folders = listing.databases.filter { wanted.contains($0.name) }
            guard !folders.isEmpty else {
                problems.add(
                    source: listing.path, label: "",
                    message:
                        "the dump holds none of the app configuration's databases (\(wanted.sorted().joined(separator: ", ")))"
                )
                return
            }
            return try importFolders(folders.map { ($0.path, $0.name) }, format: format)
        }
        let chosen: String
        if let db = options.dumpDatabase {
            guard names.contains(db) else {
                problems.add(
                    source: listing.path, label: "",
                    message: "the dump holds no database '\(db)' (it holds: \(names.joined(separator: ", ")))")
                return
            }
            chosen = db
        } else if names.count == 1, let only = names.first {
            chosen = only
        } else {
            problems.add(
                source: listing.path, label: "",
                message:
                    "the dump holds several databases (\(names.joined(separator: ", "))): pass --db NAME to pick one")
            return
        }
        skipped += listing.skipped
        skipped += listing.databases.filter { $0.name != chosen }.map(\.path)
        guard let folder = listing.databases.first(where: { $0.name == chosen }) else { return }
        try importFolder(folder.path, format: format, inDumpRoot: true, database: chosen)
    }

    /// Compares a metadata file's indexes with the class's indexed properties (warnings only).
    func checkMetadata(_ input: ByteInput, className: String?) {
        guard let className, let cls = database.schema[className] else {
            skipped.append(input.name)
            return
        }
        do {
            var source = input
            if GzipDetection.isGzip(try input.peek(2)) { source = try ByteInput(gunzipping: input) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if n == 0 { break }
                bytes += chunk[0..<n]
                guard bytes.count <= InterchangeLimits.maxDocumentBytes else {
                    throw PorterError(
                        .invalidInput,
                        "metadata file over \(InterchangeLimits.maxDocumentBytes >> 20) MB: not a mongodump metadata file"
                    )
                }
            }
            report.warnings += DumpMetadata.indexWarnings(
                String(decoding: bytes, as: UTF8.self), for: cls, source: input.name)
        } catch let error as PorterError {
            problems.add(source: input.name, label: "", message: error.message)
        } catch {
            problems.add(source: input.name, label: "", message: "cannot read: \(error)")
        }
    }
}
