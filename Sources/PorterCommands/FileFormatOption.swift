import ArgumentParser
import Foundation
import Porter

/// `--file-format 22|23|24`: the Realm file format a command writes, for an app built with an
/// older SDK (the Realm files guide, "Older file formats"). Default 24 (realm-core 14, Realm Swift 10.49+).
public struct FileFormatOption: ParsableArguments {
    /// The format asked for, if any.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The Realm file format to write: 24 (default; Realm Swift 10.49+, realm-core 14), 23 (10.35–10.48) or 22 (10.8–10.34).",
            valueName: "n"))
    public var fileFormat: Int?

    /// ArgumentParser requirement.
    public init() {}

    /// A format Porter cannot write is an argument error (exit 64).
    public func validate() throws {
        if let fileFormat, !WriterFileFormat.supported.contains(fileFormat) {
            throw ValidationError("--file-format takes 22, 23 or 24 (got \(fileFormat))")
        }
    }

    /// The format to write.
    var value: Int { fileFormat ?? WriterFileFormat.current }

    /// Refuses `--file-format` where no Realm file is written.
    func check(writesRealmFile: Bool, what: String) throws {
        if fileFormat != nil && !writesRealmFile {
            throw PorterError(.usage, "--file-format applies only when \(what) writes a Realm file")
        }
    }
}
