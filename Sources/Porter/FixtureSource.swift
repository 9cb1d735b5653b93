import Foundation

/// Where a fixture's bytes come from. The header peek, the import into a scratch database and
/// the plain import each read the source afresh, so nothing holds the whole fixture in memory.
enum FixtureSource {
    case file(URL)
    case memory(Data, name: String)

    /// How messages name the fixture: its path (as `porter import` prints it) or the given name.
    var name: String {
        switch self {
        case .file(let url): return url.path
        case .memory(_, let name): return name
        }
    }

    /// Imports the fixture into `database` with the rules and errors of `porter import`.
    func importFixtures(into database: Database, options: ImportOptions) throws {
        switch self {
        case .file(let url): try database.importFixtures(at: url, options: options)
        case .memory(let data, let name): try database.importFixtures(data: data, name: name, options: options)
        }
    }

    /// The fixture's version and schema, read from its leading members; nil when the source is no
    /// JSON fixture object, or cannot be read or parsed: the import then does what it always
    /// does, and reports any problem with its location.
    func header(schema: Schema, schemaNeededBelow version: UInt64) -> FixtureHeader? {
        let input: ByteInput
        switch self {
        case .file(let url):
            guard url.pathExtension.lowercased() != "bson", let opened = try? ByteInput(path: url.path) else {
                return nil
            }
            input = opened
        case .memory(let data, let name):
            guard !name.lowercased().hasSuffix(".bson") else { return nil }
            input = ByteInput(data: data, name: name)
        }
        // BSON has NUL bytes among its first bytes (its length); JSON text never does.
        guard let prefix = try? input.peek(64), !prefix.contains(0) else { return nil }
        let context = DecoderContext(schema: schema, className: classHint(schema))
        return try? FixtureHeader.read(input, context: context, schemaNeededBelow: version)
    }

    /// The class a file name stands for, as the import infers it (`Person.json` → `Person`).
    private func classHint(_ schema: Schema) -> String? {
        let fileName =
            switch self {
            case .file(let url): url.lastPathComponent
            case .memory(_, let name): name
            }
        guard let className = ExportFileNames.className(fromFileName: fileName),
            let cls = schema[className], !cls.isEmbedded
        else { return nil }
        return className
    }
}
