import ArgumentParser

/// `--models FILE`, declared once for `schema`, `codegen`, `diff` and `export`: what a Realm file
/// does not store, supplied by a schema file.
public struct ModelsOption: ParsableArguments {
    /// The schema file, if any.
    @Option(
        name: .customLong("models"),
        help: ArgumentHelp(
            "A schema file supplying what a Realm file does not store (linkingObjects, defaults).",
            valueName: "models.json"))
    public var path: String?

    /// ArgumentParser requirement.
    public init() {}
}

/// `--backup` and `--allow-format-upgrade`, declared once for `rekey` and `compact`, which
/// rewrite a Realm file in place.
public struct InPlaceRewriteOptions: ParsableArguments {
    /// Where to keep the old file.
    @Option(name: .long, help: ArgumentHelp("Keep the old file here (must not exist).", valueName: "file"))
    public var backup: String?
    /// Accept rewriting a format-22/23 file as format 24.
    @Flag(name: .long, help: "Accept that a file of format 22 or 23 is written as format 24.")
    public var allowFormatUpgrade = false

    /// ArgumentParser requirement.
    public init() {}
}

/// `--quiet`, declared once for `export` and `import`.
public struct QuietOption: ParsableArguments {
    /// No progress line.
    @Flag(name: .long, help: "No progress line on stderr.") public var quiet = false

    /// ArgumentParser requirement.
    public init() {}
}
