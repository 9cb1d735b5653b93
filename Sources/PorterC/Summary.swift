import Foundation
import PorterModel
import PorterRealm
import PorterRealmFile

/// The forensic summary `porter_inspect_json` returns: what the header says (both top refs, both
/// formats, the selected slot) whether or not the file opens, the diagnosis, and, when it opens,
/// the format, writers, schema version, history, classes and counts; `reason` says why it does not.
enum Summary {
    static func json(path: String, key: [UInt8]?) -> JSONValue {
        let diagnosis = RealmFileDiagnosis.diagnose(path: path, encryptionKey: key)
        var members: [JSONMember] = [
            JSONMember("file", .string(path)),
            JSONMember("diagnosis", .string(diagnosis.kind.rawValue)),
            JSONMember("message", .string(diagnosis.message)),
            JSONMember("evidence", .object(diagnosis.evidence.map { JSONMember($0.name, .string($0.value)) })),
        ]
        if let header = header(path) { members.append(JSONMember("header", header)) }
        do {
            let file = try RealmFileOpening.open(path, key: key)
            members.append(JSONMember("readable", .bool(true)))
            members += opened(file)
        } catch {
            members.append(JSONMember("readable", .bool(false)))
            members.append(JSONMember("reason", .string(CallError(error).message)))
        }
        return .object(members)
    }

    /// The summary of a file that opened.
    private static func opened(_ file: RealmFile) -> [JSONMember] {
        var classes: [JSONValue] = []
        for cls in file.schema.classes {
            let count = file.table(named: cls.name).flatMap { try? file.objectCount(in: $0) }
            classes.append(
                .object([
                    JSONMember("name", .string(cls.name)),
                    JSONMember("objects", count.map { .number($0) } ?? .null),
                    JSONMember("embedded", .bool(cls.isEmbedded)),
                    JSONMember("primaryKey", cls.primaryKey.map { .string($0) } ?? .null),
                ]))
        }
        return [
            JSONMember("fileFormat", .number(file.fileFormat)),
            JSONMember("writers", .string(RealmFileDiagnosis.writers(ofFormat: file.fileFormat))),
            JSONMember("encrypted", .bool(file.isEncrypted)),
            JSONMember("fileSize", .number(file.fileSize)),
            JSONMember("schemaVersion", file.schemaVersion.map { .number($0) } ?? .null),
            JSONMember("historyType", .number(file.historyType)),
            JSONMember("classes", .array(classes)),
            JSONMember("skippedTables", .array(file.skippedTables.map { .string($0) })),
        ]
    }

    /// The plaintext header (24 bytes): both top refs (the current snapshot's and the previous
    /// one's), both slots' formats, the selected slot; nil for a file without the `T-DB` mnemonic
    /// (an encrypted file's header is encrypted).
    private static func header(_ path: String) -> JSONValue? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 24)) ?? Data())
        guard head.count == 24, head[16..<20].elementsEqual("T-DB".utf8) else { return nil }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(head[at + $1]) << (8 * UInt64($1)) } }
        let select = Int(head[23] & 1)
        return .object([
            JSONMember("topRefs", .array([.number(u64(0)), .number(u64(8))])),
            JSONMember("fileFormats", .array([.number(Int(head[20])), .number(Int(head[21]))])),
            JSONMember("selectedSlot", .number(select)),
            JSONMember("currentTopRef", .number(u64(8 * select))),
            JSONMember("previousTopRef", .number(u64(8 * (1 - select)))),
            JSONMember("streaming", .bool(select == 0 && u64(0) == UInt64.max)),
        ])
    }
}
