import Foundation
import PorterModel
import PorterRealmFile

/// One scratch file per process, rewritten for every input (the reader opens paths).
nonisolated(unsafe) private let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("porter-fuzz-realm-\(getpid()).realm").path

/// One input of the Realm-file targets (`FuzzRealmFile`, `FuzzLegacyRealmFile`): a `.realm`
/// file. Opening, the schema, every object of every class, `check()`, a column-by-column copy (the migration path that copies nodes without
/// decoding them) and a rewrite of every object by the writer (`porter export x.realm --format
/// realm`) may throw a `PorterError`; they must never crash, trap or hang.
public func fuzzRealmFile(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data else { return 0 }
    guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes: data, count: count)) else {
        fatalError("cannot write \(scratch)")
    }
    defer { unlink(scratch) }
    read(encryptionKey: nil)
    // Page-sized inputs also go through decryption (the seeds' key: bytes 0…63).
    if count % 4096 == 0 { read(encryptionKey: (0..<64).map { UInt8($0) }) }
    return 0
}

private func read(encryptionKey: [UInt8]?) {
    do {
        let file = try RealmFile(path: scratch, encryptionKey: encryptionKey)
        _ = file.schema
        for table in file.tables {
            _ = try? file.objectCount(in: table)
            try? file.forEachObject(in: table) { object in
                _ = try? file.object(in: table, key: object.key)
                _ = try? file.primaryKeyValue(in: table, key: object.key)
            }
        }
        _ = try file.check()
        rewrite(file)
        writeAnew(file)
    } catch is PorterError {
        // A clear refusal is the expected outcome for damaged input.
    } catch {
        fatalError("an error that is not a PorterError: \(error)")
    }
}

/// Copies every class and property as it is with the rewriter; a refusal of what it cannot copy
/// and a `PorterError` for damage are the expected outcomes. Nothing may be left behind.
private func rewrite(_ file: RealmFile) {
    let out = scratch + ".out"
    defer { unlink(out) }
    // A damaged file may name two tables or two columns alike: the first one wins.
    let classes = Dictionary(
        file.tables.map { table in
            (
                table.name,
                RealmClassRewrite(
                    sourceClass: table.name,
                    columns: Dictionary(
                        table.properties
                            .filter { $0.type != .linkingObjects }.map { ($0.name, RealmColumnSource.copy($0.name)) },
                        uniquingKeysWith: { a, _ in a }))
            )
        }, uniquingKeysWith: { a, _ in a })
    do {
        let schema = file.schema
        try RealmFileRewriter(schema: schema, schemaVersion: schema.version).write(
            to: out, from: file, classes: classes)
        _ = try RealmFile(path: out).check()
    } catch is PorterError {
    } catch is RealmRewriteUnsupported {
    } catch {
        fatalError("an error that is neither a PorterError nor a refusal: \(error)")
    }
}

/// The file's objects as the writer's source (what `porter export x.realm --format realm` does).
private struct FileSource: RealmWriteSource {
    let file: RealmFile
    func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        guard let table = file.table(named: className) else { return }
        try file.forEachObject(in: table) { try body($0.key, $0.values) }
    }
}

/// Writes every object anew; a `PorterError` is the expected outcome for what does not fit.
private func writeAnew(_ file: RealmFile) {
    let out = scratch + ".written"
    defer { unlink(out) }
    do {
        let schema = file.schema
        try RealmFileWriter(schema: schema, schemaVersion: schema.version).write(
            to: out, source: FileSource(file: file))
        _ = try RealmFile(path: out).check()
    } catch is PorterError {
    } catch {
        fatalError("an error that is not a PorterError: \(error)")
    }
}
