import Foundation
import PorterModel

/// Why a Realm file will not open, with the evidence: what the file looks like when it is not a
/// Realm file, a missing or wrong key, a truncated copy, a file format of another core, a
/// snapshot still being written, or damage at a place. Read-only: only reads the file's bytes.
public struct RealmFileDiagnosis: Sendable, Equatable {
    /// What is wrong (stable names, for `porter check --json`).
    public enum Kind: String, Sendable {
        case ok
        case empty
        case notARealmFile = "not-a-realm-file"
        case encryptedNoKey = "encrypted-no-key"
        case wrongKey = "wrong-key"
        case notEncrypted = "not-encrypted"
        case truncated
        case olderFormat = "older-format"
        case newerFormat = "newer-format"
        case unfinishedSnapshot = "unfinished-snapshot"
        case damaged
        case unreadable
    }

    /// One fact behind the diagnosis (`"file size": "4096"`).
    public struct Evidence: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// What is wrong.
    public var kind: Kind
    /// One line for the user: what it is and what to do.
    public var message: String
    /// The facts read from the file, in the order found.
    public var evidence: [Evidence]

    init(_ kind: Kind, _ message: String, _ evidence: [(String, String)] = []) {
        self.kind = kind
        self.message = message
        self.evidence = evidence.map { Evidence(name: $0.0, value: $0.1) }
    }

    /// Which cores and SDKs write file format `format` (from the realm-core and SDK changelogs).
    public static func writers(ofFormat format: Int) -> String {
        switch format {
        case ...9: return "realm-core 5 and older (Realm Cocoa/Swift 4 and older, Realm Java 5 and older)"
        case 10, 11: return "realm-core 6 (Realm Swift 5)"
        case 12...19: return "no released realm-core (realm-core 7–10 pre-releases only)"
        case 20: return "realm-core 10 (Realm Swift 10.0–10.7)"
        case 21: return "realm-core 11 betas (no released SDK)"
        case 22: return "realm-core 11–12 (Realm Swift 10.8–10.34)"
        case 23: return "realm-core 13 (Realm Swift 10.35–10.48)"
        case 24: return "realm-core 14 and 20 (Realm Swift 10.49 and later, 20.x)"
        default: return "a core newer than realm-core 20 (unreleased next-major)"
        }
    }

    /// Diagnoses the file at `path` (with the key of an encrypted file, if given).
    public static func diagnose(path: String, encryptionKey: [UInt8]? = nil) -> RealmFileDiagnosis {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return RealmFileDiagnosis(.unreadable, "cannot open the file: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        let size = Int((try? handle.seekToEnd()) ?? 0)
        try? handle.seek(toOffset: 0)
        let head = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
        var tail: [UInt8] = []
        if size >= 16 {
            try? handle.seek(toOffset: UInt64(size - 16))
            tail = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        }
        let sizeEvidence = ("file size", "\(size) bytes")
        guard size > 0 else {
            return RealmFileDiagnosis(.empty, "the file is empty (0 bytes): not a Porter or Realm file", [sizeEvidence])
        }
        if let foreign = foreignKind(head) {
            return RealmFileDiagnosis(
                .notARealmFile, "not a Realm file: it is \(foreign.what)\(foreign.advice)",
                [sizeEvidence, ("first bytes", hexBytes(head.prefix(16)))])
        }
        let mnemonic = head.count >= 20 && head[16..<20].elementsEqual("T-DB".utf8)
        if !mnemonic {
            let plainLooking =
                head.count >= 24 && head.withUnsafeBytes { FileHeader.looksPlain($0.baseAddress!, size: size) }
            if plainLooking {
                return RealmFileDiagnosis(
                    .damaged,
                    "the header is damaged: bytes 16-19 are \(hexBytes(head[16..<20])), "
                        + "expected \"T-DB\"", [sizeEvidence, ("bytes 16-19", hexBytes(head[16..<20]))])
            }
            return encryptedDiagnosis(path: path, head: head, size: size, key: encryptionKey)
        }
        if encryptionKey != nil {
            return RealmFileDiagnosis(
                .notEncrypted,
                "the file is not encrypted (its header \"T-DB\" is plain): "
                    + "open it without an encryption key", [sizeEvidence])
        }
        return plainDiagnosis(path: path, head: head, tail: tail, size: size)
    }

    /// A plaintext file with the `T-DB` mnemonic: format, top ref, footer, then the reader's own verdict.
    static func plainDiagnosis(path: String, head: [UInt8], tail: [UInt8], size: Int) -> RealmFileDiagnosis {
        guard head.count >= 24 else {
            return RealmFileDiagnosis(
                .truncated,
                "the file is truncated: expected at least 24 bytes (the header), "
                    + "file has \(size): the copy was cut short: copy it again with the app closed",
                [("file size", "\(size) bytes")])
        }
        func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        let select = Int(head[23] & 1)
        let format = Int(head[20 + select])
        let top = u64(head, 8 * select)
        var evidence: [(String, String)] = [
            ("file size", "\(size) bytes"), ("file format", "\(format)"),
            ("selected header slot", "\(select)"),
        ]
        if format == 0 && top == 0 {
            return RealmFileDiagnosis(.damaged, "the Realm file was never written (format 0, no data)", evidence)
        }
        if !LegacyFile.readable.contains(format) && !RealmFile.supportedFormats.contains(format) {
            return RealmFileDiagnosis(
                format > RealmFile.supportedFormats.upperBound ? .newerFormat : format < 12 ? .olderFormat : .damaged,
                format > RealmFile.supportedFormats.upperBound
                    ? "written by a newer core: file format \(format), from \(writers(ofFormat: format)); "
                        + "Porter reads formats 2–11 and 20–24"
                    : RealmFile.unsupportedMessage(format), evidence)
        }
        var topRef = top
        if select == 0 && top == UInt64.max {
            evidence.append(("header", "streaming form (top ref in the footer)"))
            let cookie = tail.count == 16 ? u64(tail, 8) : 0
            guard cookie == FileHeader.footerCookie else {
                evidence.append(("last 8 bytes", hexBytes(tail.suffix(8))))
                return RealmFileDiagnosis(
                    .unfinishedSnapshot,
                    "a snapshot still being written: the file is in streaming "
                        + "form and its footer is not finished (no footer cookie at the end); "
                        + "wait for the writer to finish, or copy it again with the app closed", evidence)
            }
            topRef = u64(tail, 0)
        }
        evidence.append(("top ref", hex(Int64(bitPattern: topRef))))
        if topRef >= UInt64(size) || topRef + 8 > UInt64(size) {
            let needed = topRef &+ 8
            return RealmFileDiagnosis(
                .truncated,
                "the file is truncated: its top ref \(hex(Int64(bitPattern: topRef))) "
                    + "points past the end: expected at least \(needed) bytes, file has \(size): "
                    + "the copy was cut short: copy it again with the app closed", evidence)
        }
        if let needed = nodeEnd(path: path, ref: Int(topRef)), needed > size {
            return RealmFileDiagnosis(
                .truncated,
                "the file is truncated: its top array ends past the end: expected at "
                    + "least \(needed) bytes, file has \(size): the copy was cut short: copy it "
                    + "again with the app closed", evidence)
        }
        return readerVerdict(path: path, key: nil, evidence: evidence)
    }

    /// An encrypted (or unknown) file: without a key, whether it looks encrypted; with one, page 0's HMAC.
    static func encryptedDiagnosis(path: String, head: [UInt8], size: Int, key: [UInt8]?) -> RealmFileDiagnosis {
        let firstIV =
            head.count >= 4 ? UInt32(head[0]) | UInt32(head[1]) << 8 | UInt32(head[2]) << 16 | UInt32(head[3]) << 24 : 0
        let looksEncrypted = size % 4096 == 0 && size >= 8192 && firstIV != 0
        var evidence: [(String, String)] = [
            ("file size", "\(size) bytes"), ("bytes 16-19", hexBytes(head.dropFirst(16).prefix(4))),
        ]
        guard let key else {
            if looksEncrypted {
                evidence.append(("page 0 iv1", "\(firstIV)"))
                return RealmFileDiagnosis(
                    .encryptedNoKey,
                    "not a Porter or Realm file, unless it is an encrypted Realm file "
                        + "as its layout suggests (no \"T-DB\" header, size a multiple of 4096, an IV "
                        + "table on page 0): pass --encryption-key", evidence)
            }
            if head.allSatisfy({ $0 == 0 }) {
                return RealmFileDiagnosis(
                    .notARealmFile,
                    "not a Realm file: the first \(head.count) bytes are all zero "
                        + "(a file allocated but never written, or wiped)", evidence)
            }
            evidence.append(("first bytes", hexBytes(head.prefix(16))))
            return RealmFileDiagnosis(
                .notARealmFile,
                "not a Porter or Realm file (no \"T-DB\" header, and not laid out "
                    + "like an encrypted Realm file)", evidence)
        }
        guard looksEncrypted else {
            evidence.append(("first bytes", hexBytes(head.prefix(16))))
            return RealmFileDiagnosis(
                .notARealmFile,
                "not an encrypted Realm file: its size is not a multiple of 4096 "
                    + "or it has no IV table on page 0", evidence)
        }
        guard key.count == 64 else {
            return RealmFileDiagnosis(.wrongKey, "the encryption key must be 64 bytes, got \(key.count)", evidence)
        }
        guard
            let data = FileHandle(forReadingAtPath: path).flatMap({ h -> [UInt8]? in
                defer { try? h.close() }
                try? h.seek(toOffset: 4096)
                return (try? h.read(upToCount: 4096)).map { [UInt8]($0) }
            }), data.count == 4096
        else {
            return RealmFileDiagnosis(.truncated, "the file is truncated: it has no first data page", evidence)
        }
        let computed = data.withUnsafeBytes { HMACSHA224(key: key[32..<64]).authenticationCode(for: $0) }
        let hmac1 = Array(head[4..<32]), hmac2 = Array(head[36..<64])
        evidence.append(("page 0 HMAC-SHA224 computed", hexBytes(computed.prefix(8)) + " …"))
        evidence.append(("page 0 HMAC stored", hexBytes(hmac1.prefix(8)) + " …"))
        guard computed == hmac1 || computed == hmac2 else {
            return RealmFileDiagnosis(
                .wrongKey,
                "the wrong encryption key: the HMAC of the first page matches neither of "
                    + "its two stored HMACs (or the first page is damaged)", evidence)
        }
        evidence.append(("page 0 HMAC", "matches"))
        return readerVerdict(path: path, key: key, evidence: evidence)
    }

    /// The reader's own verdict: opening and the structural check.
    static func readerVerdict(path: String, key: [UInt8]?, evidence: [(String, String)]) -> RealmFileDiagnosis {
        let file: RealmFile
        do {
            file = try RealmFile(path: path, encryptionKey: key)
        } catch {
            let message = (error as? PorterError)?.message ?? "\(error)"
            if let version = formatMentioned(message) {
                return RealmFileDiagnosis(
                    version > RealmFile.supportedFormats.upperBound
                        ? .newerFormat : version < 12 ? .olderFormat : .damaged,
                    version > RealmFile.supportedFormats.upperBound
                        ? "written by a newer core: file format \(version), from \(writers(ofFormat: version)); "
                            + "Porter reads formats 2–11 and 20–24"
                        : RealmFile.unsupportedMessage(version), evidence)
            }
            return RealmFileDiagnosis(.damaged, "damaged: \(message)", evidence)
        }
        do {
            let problems = try file.check()
            guard let first = problems.first else {
                return RealmFileDiagnosis(
                    .ok, "ok: file format \(file.fileFormat), \(file.tables.count) classes", evidence)
            }
            return RealmFileDiagnosis(
                .damaged,
                "damaged: \(first)"
                    + (problems.count > 1 ? " (and \(problems.count - 1) more problems)" : ""),
                evidence + [("problems", "\(problems.count)")])
        } catch {
            return RealmFileDiagnosis(.damaged, "damaged: \((error as? PorterError)?.message ?? "\(error)")", evidence)
        }
    }

    /// The format number in the reader's "file format N is not supported" message.
    private static func formatMentioned(_ message: String) -> Int? {
        guard message.hasPrefix("file format "), message.contains("not supported") else { return nil }
        return Int(message.dropFirst("file format ".count).prefix { $0.isNumber })
    }

    /// The end of the node at `ref` from its header (nil when the header itself is past the end).
    static func nodeEnd(path: String, ref: Int) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(ref))
        guard let bytes = try? handle.read(upToCount: 8), bytes.count == 8 else { return nil }
        let h = [UInt8](bytes)
        let count = Int(h[5]) << 16 | Int(h[6]) << 8 | Int(h[7])
        let width = (1 << Int(h[4] & 7)) >> 1
        let payload: Int
        switch Int(h[4] >> 3) & 3 {
        case 0: payload = (count * width + 7) / 8
        case 1: payload = count * width
        default: payload = count
        }
        return ref + 8 + payload
    }

    /// What a foreign file is, from its first bytes.
    static func foreignKind(_ head: [UInt8]) -> (what: String, advice: String)? {
        func starts(_ bytes: [UInt8]) -> Bool { head.starts(with: bytes) }
        if starts(Array("SQLite format 3\0".utf8)) {
            return ("a SQLite database (Porter databases are SQLite files)", "")
        }
        if starts([0x1f, 0x8b]) { return ("gzip-compressed data", ": decompress it first (gunzip)") }
        if starts(Array("PK".utf8) + [3, 4]) || starts(Array("PK".utf8) + [5, 6]) {
            return ("a zip archive", ": extract the .realm file from it first")
        }
        if starts(Array("%PDF".utf8)) { return ("a PDF document", "") }
        if starts([0x42, 0x5a, 0x68]) { return ("bzip2-compressed data", ": decompress it first") }
        if starts([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) { return ("xz-compressed data", ": decompress it first") }
        let first = head.first { ![0x20, 0x0a, 0x0d, 0x09].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return ("JSON text", "") }
        return nil
    }

    static func hexBytes(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    /// The diagnosis as a JSON object (for `porter check --json`).
    public var json: JSONValue {
        .object([
            JSONMember("diagnosis", .string(kind.rawValue)),
            JSONMember("message", .string(message)),
            JSONMember("evidence", .object(evidence.map { JSONMember($0.name, .string($0.value)) })),
        ])
    }
}
