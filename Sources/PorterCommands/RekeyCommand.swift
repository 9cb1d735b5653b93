import ArgumentParser
import Foundation
import Porter
import PorterRealm

/// `porter rekey FILE.realm`: changes, adds or removes a Realm file's encryption key, in place and atomically.
public struct RekeyCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Change a Realm file's encryption key, or encrypt or decrypt it, in place.",
        discussion: """
            porter rekey app.realm --encryption-key-file old.key --new-key-file new.key
            porter rekey app.realm --encryption-key-file old.key --decrypt
            porter rekey app.realm --encrypt --new-key-file new.key
            The new file is written beside the original, read back and compared object by object, then \
            renamed over it (permissions kept). On any failure the original is unchanged. The file's lock \
            (FILE.lock) is held for the whole run: a file an app has open is refused, and another Porter \
            writer of the file is waited for (--wait), then refused.
            """)
    /// The Realm file.
    @Argument(help: "The Realm file.") public var file: String
    /// The current key.
    @OptionGroup public var encryption: EncryptionOptions
    /// How long to wait for another Porter writer of the file.
    @OptionGroup public var writer: WaitOption
    /// The new key as hex.
    @Option(name: .long, help: ArgumentHelp("The new 64-byte key, as 128 hex digits.", valueName: "hex"))
    public var newKey: String?
    /// The new key in a file.
    @Option(
        name: .long,
        help: ArgumentHelp("A file holding the new key: 64 raw bytes or 128 hex digits.", valueName: "file"))
    public var newKeyFile: String?
    /// Write the file unencrypted.
    @Flag(name: .long, help: "Write the file unencrypted (needs the current key).") public var decrypt = false
    /// Encrypt a plaintext file.
    @Flag(name: .long, help: "Encrypt a file that is not encrypted (needs --new-key or --new-key-file).")
    public var encrypt = false
    /// `--backup` and `--allow-format-upgrade`.
    @OptionGroup public var rewrite: InPlaceRewriteOptions
    /// ArgumentParser requirement.
    public init() {}

    /// Rewrites the file with the new key.
    public func run(output: CommandOutput) throws {
        let oldKey = try encryption.key()
        let key: [UInt8]?
        switch (newKey, newKeyFile) {
        case (nil, nil): key = nil
        case (.some, .some): throw PorterError(.usage, "pass --new-key or --new-key-file, not both")
        case (let hex?, nil): key = try EncryptionOptions.parseHex(hex, source: "--new-key")
        case (nil, let path?): key = try RealmFileInPlace.readKeyFile(path, option: "--new-key-file")
        }
        if decrypt && encrypt { throw PorterError(.usage, "pass --encrypt or --decrypt, not both") }
        if decrypt {
            guard key == nil else {
                throw PorterError(.usage, "--decrypt writes the file unencrypted: drop the new key")
            }
            guard oldKey != nil else {
                throw PorterError(.usage, "--decrypt needs the current key (--encryption-key-file)")
            }
        } else if encrypt {
            guard oldKey == nil else {
                throw PorterError(
                    .usage, "--encrypt is for a file that is not encrypted: to change a key, drop --encrypt")
            }
            guard key != nil else { throw PorterError(.usage, "--encrypt needs the new key (--new-key-file)") }
        } else {
            guard oldKey != nil, key != nil else {
                throw PorterError(
                    .usage,
                    "rekey needs the current key (--encryption-key-file) and the new one "
                        + "(--new-key-file); or --encrypt, or --decrypt")
            }
        }
        // Caught signals remove the rewrite's temporary files.
        writer.apply(sweeping: file)
        let outcome = try RealmFileInPlace(
            path: file, sourceKey: oldKey, newKey: key, backupPath: rewrite.backup,
            allowFormatUpgrade: rewrite.allowFormatUpgrade, wait: writer.wait
        ).run()
        let what = decrypt ? "Decrypted" : encrypt ? "Encrypted" : "Rekeyed"
        let total = outcome.objectCounts.reduce(0) { $0 + $1.count }
        output.out(
            "\(what) \(file): \(total) object\(total == 1 ? "" : "s") in \(outcome.objectCounts.count) "
                + "class\(outcome.objectCounts.count == 1 ? "" : "es") read back and compared")
        if let path = outcome.backupPath { output.out("The old file is kept at \(path)") }
    }
}

/// `porter compact FILE.realm`: rewrites a Realm file without its free space, in place and atomically.
public struct CompactCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Compact a Realm file in place (drop its free space), printing the size before and after.",
        discussion: """
            The compacted file is written beside the original, read back and compared object by object, then \
            renamed over it (permissions and encryption kept). On any failure the original is unchanged. The \
            file's lock (FILE.lock) is held for the whole run: a file an app has open is refused, and another \
            Porter writer of the file is waited for (--wait), then refused.
            """)
    /// The Realm file.
    @Argument(help: "The Realm file.") public var file: String
    /// The key of an encrypted file (kept).
    @OptionGroup public var encryption: EncryptionOptions
    /// How long to wait for another Porter writer of the file.
    @OptionGroup public var writer: WaitOption
    /// `--backup` and `--allow-format-upgrade`.
    @OptionGroup public var rewrite: InPlaceRewriteOptions
    /// ArgumentParser requirement.
    public init() {}

    /// Compacts the file and prints both sizes.
    public func run(output: CommandOutput) throws {
        let key = try encryption.key()
        // Caught signals remove the rewrite's temporary files.
        writer.apply(sweeping: file)
        let outcome = try RealmFileInPlace(
            path: file, sourceKey: key, newKey: key, backupPath: rewrite.backup,
            allowFormatUpgrade: rewrite.allowFormatUpgrade, wait: writer.wait
        ).run()
        let total = outcome.objectCounts.reduce(0) { $0 + $1.count }
        output.out(
            "Compacted \(file): \(outcome.sizeBefore) bytes before, \(outcome.sizeAfter) bytes after "
                + "(\(total) object\(total == 1 ? "" : "s") read back and compared)")
        if let path = outcome.backupPath { output.out("The old file is kept at \(path)") }
    }
}
