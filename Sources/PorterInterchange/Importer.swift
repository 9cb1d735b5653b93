import Foundation
import PorterBSON
import PorterDocument
import PorterModel
import PorterStore

/// One thing to import: a file, an export folder, or `-` for standard input.
public struct ImportSource: Sendable, Equatable {
    /// A file, a folder, or `-`.
    public var path: String
    /// The class of single-class files (`--class`); otherwise taken from each file's name.
    public var className: String?
    /// The reader for this source alone (`archive` for `--archive`), overriding the run's format.
    public var format: String?

    /// Creates a source.
    public init(path: String, className: String? = nil, format: String? = nil) {
        self.path = path
        self.className = className
        self.format = format
    }
}

/// Imports documents into a database: every source in one write transaction, all or nothing.
///
/// Documents stream through one at a time: each is read by the schema, written, and forgotten;
/// only links to objects not seen yet are remembered, and completed at the end. Errors are
/// collected (up to ``ImportOptions/maxErrors``) as `FILE:DOC#:field.path: message` lines; if
/// there is any, the transaction is rolled back and the error lists them all.
public final class Importer {
    /// The target database.
    public let database: Database
    /// Readers for the input formats.
    package let formats: [DocumentInputFormat]
    /// Mode, unknown-field policy and error limit.
    public let options: ImportOptions
    /// The 64-byte key of encrypted Realm files among the sources.
    package var realmEncryptionKey: [UInt8]?
    /// Imports a Realm file given as a source (its path); nil when this importer does not read
    /// Realm files. Set by PorterRealm (`readsRealmFiles(encryptionKey:)`), which reads them.
    package var realmFileReader: ((Importer, String) throws -> Void)?
    /// Whether objects without a primary key keep their `_key` as object key where it is free
    /// (objects read from a Realm file keep their Realm object keys, so both export the same).
    @exclusivity(unchecked) package var keepObjectKeys = false

    // Unchecked exclusivity (here and below): touched for every document, never reentrantly.
    @exclusivity(unchecked) package var problems: ImportProblems
    @exclusivity(unchecked) package var report = ImportReport()
    /// Files of the sources that hold no documents Porter reads (reported, never silent).
    var skipped: [String] = []
    /// The sources as the caller named them, for messages about all of them.
    private var requested: [String] = []
    /// Called every few hundred documents with the documents read so far and the bytes of the
    /// source files read so far (compressed bytes for gzip files).
    public var progress: ((_ documents: Int, _ bytes: Int64) -> Void)?
    /// The namespaces a dump was exported into (`--collection`, `--app-config`): a collection
    /// file names its class through them, and a mongodump root imports every database they name.
    public var namespaces: DumpNamespaces?
    @exclusivity(unchecked) var documentsRead = 0
    /// Bytes of the files finished, and the file being read.
    var finishedBytes: Int64 = 0
    var currentFile: ByteInput?
    lazy var resolver = LinkResolver(database: database)
    lazy var reader = ObjectReader(schema: database.schema, options: options, resolver: resolver)
    /// Properties waiting for forward references; nil once cancelled by a later rewrite.
    @exclusivity(unchecked) var pending: [PendingEntry?] = []
    /// Indexes into `pending` per owner (upsert and merge only, where an owner can be rewritten).
    @exclusivity(unchecked) var pendingByOwner: [ObjectLink: [Int]] = [:]
    /// Prepared inserters per class, made on first use.
    @exclusivity(unchecked) var inserters: [String: BulkInserter] = [:]
    /// The class of the previous document and its inserter: class files hold one class, so
    /// most documents skip the schema search and the dictionary lookup.
    @exclusivity(unchecked) private var lastClass: (name: String, schema: ObjectSchema)?
    @exclusivity(unchecked) private var lastInserter: (name: String, inserter: BulkInserter)?
    /// Classes without a primary key already refused in upsert or merge mode (one error each).
    var refusedKeyless: Set<String> = []
    /// Whether BSON class files of flat classes take the fast path (``importFlatBSON``); the
    /// tests turn it off to compare it with the general path.
    package var readsFlatBSONDirectly = true
    /// Documents written by that fast path (the tests check it was taken).
    @exclusivity(unchecked) package var flatBSONDocuments = 0

    /// Creates an importer.
    package init(database: Database, formats: [DocumentInputFormat], options: ImportOptions = ImportOptions()) {
        self.database = database
        self.formats = formats
        self.options = options
        problems = ImportProblems(limit: options.maxErrors)
    }

    /// Imports the sources; `format` is a reader name (`bson`, `json`, `ejson`) or nil/`auto`
    /// to choose by file extension and content.
    /// - Throws: ``PorterError/Code/invalidInput`` listing every problem (nothing written), or the
    ///   store's error when the database itself fails.
    @discardableResult
    public func run(_ sources: [ImportSource], format: String? = nil) throws -> ImportReport {
        requested = sources.map(\.path)
        return try transaction {
            for source in sources where !problems.isFull {
                try importSource(source, format: format)
            }
        }
    }

    /// Imports documents held in memory (`name` is used in messages and to infer the class).
    @discardableResult
    public func run(data: Data, name: String, className: String? = nil, format: String? = nil) throws -> ImportReport {
        try transaction {
            let input = ByteInput(data: data, name: name)
            try importInput(
                input, className: className ?? classHint(fromFileName: name), format: format,
                extensionHint: fileExtension(name))
        }
    }

    /// Runs `body` in a write transaction, completes pending links, and commits only when
    /// nothing went wrong.
    package func transaction(_ body: () throws -> Void) throws -> ImportReport {
        try database.beginWrite()
        do {
            try body()
            if !problems.isFull { try completePendingLinks() }
            reportSkipped()
            if !reader.filled.isEmpty {
                let fields = reader.filled.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                report.warnings.append(
                    "warning: --fill-missing gave missing required fields their zero value: "
                        + fields.joined(separator: ", "))
            }
            guard problems.isEmpty else { throw problems.failure(database: database.path) }
            try database.commitWrite()
        } catch {
            database.cancelWrite()
            throw error
        }
        return report
    }

    /// Skipped files are warnings, or the error when nothing was imported at all: a folder of
    /// files Porter did not use must not look like a successful empty import.
    private func reportSkipped() {
        let names = skipped
        if report.totalDocuments == 0, !names.isEmpty, problems.isEmpty {
            let shown =
                names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", … (\(names.count) in all)" : "")
            problems.add(
                source: requested.joined(separator: ", "), label: "",
                message: "no documents imported: the source holds only files Porter does not read: \(shown)")
            return
        }
        for name in names {
            report.warnings.append(
                "warning: \(name): skipped (not a .bson, .json or .metadata.json file of a class in the schema)")
        }
        if report.totalDocuments == 0 { report.warnings.append("warning: the sources hold no documents") }
    }

    /// The class of a decoded document: its collection's through ``namespaces`` when the decoder
    /// names collections (an archive), else the name it carries.
    func classOf(_ decoded: DecodedDocument, _ decoder: DocumentDecoder) -> String? {
        guard let collection = decoded.className, let namespaces, let database = decoder.collectionsDatabase else {
            return decoded.className
        }
        return namespaces.className(ofCollection: collection, database: database.isEmpty ? nil : database)
            ?? collection
    }

    /// Reads every document of one decoder.
    func importDocuments(_ decoder: DocumentDecoder, source: String, className: String?) throws {
        let keptKeys = keepObjectKeys
        keepObjectKeys = keptKeys || decoder.keepsObjectKeys
        defer { keepObjectKeys = keptKeys }
        if let bson = decoder as? BSONDocumentDecoder, let className,
            try importFlatBSON(bson, source: source, className: className)
        {
            return
        }
        var checkedVersion = false
        while !problems.isFull {
            let decoded: DecodedDocument?
            do {
                decoded = try decoder.next()
            } catch let error as DocumentInputError {
                problems.add(source: source, label: error.label, path: error.path, message: error.message)
                if error.recoverable { continue }
                return
            }
            if !checkedVersion, let version = decoder.fixtureSchemaVersion {
                checkedVersion = true
                // An older fixture is read by the current schema here; the typed realm's
                // importFixtures migrates it first when it carries its schema.
                if version > database.schemaVersion {
                    problems.add(
                        source: source, label: "",
                        message:
                            "fixture schemaVersion \(version) is newer than the database's schema version \(database.schemaVersion)"
                    )
                    return
                }
            }
            guard let decoded else { return }
            guard let name = classOf(decoded, decoder) ?? className else {
                problems.add(
                    source: source, label: "",
                    message:
                        "cannot tell which class these documents belong to: name the file after the class (Person.json) or pass --class"
                )
                return
            }
            try importDocument(decoded, className: name, source: source)
            documentsRead += 1
            // The callback is cheap but not free: every 256 documents is a few times a second.
            if documentsRead & 255 == 0, let progress {
                progress(documentsRead, finishedBytes + (currentFile?.bytesRead ?? 0))
            }
        }
    }

    /// Reads, checks and writes one document; returns the key of the object written (nil after
    /// recording a problem).
    @discardableResult
    package func importDocument(_ decoded: DecodedDocument, className: String, source: String) throws -> ObjectKey? {
        let found: ObjectSchema?
        if let last = lastClass, last.name == className {
            found = last.schema
        } else {
            found = database.schema[className]
            if let found { lastClass = (className, found) }
        }
        guard let cls = found else {
            problems.add(
                source: source, label: decoded.label,
                message: "no class named '\(abbreviated(className))' in the database's schema")
            return nil
        }
        if cls.isEmbedded {
            problems.add(
                source: source, label: decoded.label,
                message: "'\(className)' is an embedded class: its objects are imported inside their parents' documents"
            )
            return nil
        }
        if options.mode != .insert, cls.primaryKey == nil {
            refuseKeyless(cls.name, source: source, label: decoded.label)
            return nil
        }
        report.count(className)
        return try store(reader.read(decoded.document, as: cls), cls, source: source, label: decoded.label)
    }

    /// Checks and writes one object read by the schema (its errors are the document's problems);
    /// returns the key of the object written (nil after recording a problem).
    func store(_ read: ReadObject, _ cls: ObjectSchema, source: String, label: String) throws -> ObjectKey? {
        let className = cls.name
        for error in read.errors {
            problems.add(source: source, label: label, path: error.path, message: error.message)
        }
        guard read.errors.isEmpty else { return nil }
        if let readLabel = read.label, resolver.hasLabel(readLabel, className: className) {
            problems.add(
                source: source, label: label, path: "_key",
                message:
                    "duplicate _key \(readLabel.description): another \(className) document of this import already uses it"
            )
            return nil
        }
        let key: ObjectKey
        do {
            key = try write(read, cls)
        } catch let error as PorterError
            where error.code != .busy && error.code != .io && error.code != .notADatabase && error.code != .sqlite
        {
            let (path, message) = storeProblem(error, cls)
            problems.add(source: source, label: label, path: path, message: message)
            return nil
        }
        if let readLabel = read.label { _ = resolver.register(label: readLabel, className: className, key: key) }
        let owner = ObjectLink(className, key)
        if options.mode != .insert { cancelPending(of: owner, rewritten: read) }
        for deferred in read.deferred {
            pending.append(PendingEntry(owner: owner, property: deferred, source: source, label: label))
            if options.mode != .insert { pendingByOwner[owner, default: []].append(pending.count - 1) }
        }
        return key
    }

    /// Writes one object by the import mode; returns its key. New objects go through the
    /// prepared bulk inserter; existing ones (upsert, merge) through the store's update.
    private func write(_ read: ReadObject, _ cls: ObjectSchema) throws -> ObjectKey {
        var fields = read.fields
        if let pkIndex = read.primaryKeyIndex {
            if fields[pkIndex] == nil { fields[pkIndex] = newPrimaryKey(read.properties[pkIndex]) }
            if options.mode != .insert, let pkValue = fields[pkIndex],
                let existing = try resolver.primaryKeyLookup(cls.name).key(pkValue)
            {
                var values = ReadObject(fields: fields, properties: read.properties).dictionary
                if options.mode == .merge { values.removeValue(forKey: read.properties[pkIndex].name) }
                try database.update(cls.name, existing, values, policy: options.mode == .merge ? .modified : .all)
                return existing
            }
        }
        if keepObjectKeys, case .int(let key)? = read.label {
            return try inserter(cls.name).insert(fields: fields, preferredKey: key)
        }
        let key = try inserter(cls.name).insert(fields: fields)
        // Links to this object (forward references, later documents) then need no query.
        if let pkIndex = read.primaryKeyIndex, let pkValue = fields[pkIndex] {
            resolver.wrote(cls.name, primaryKey: pkValue, key: key)
        }
        return key
    }

    /// The primary key of a document that gives none: a fresh ObjectId or UUID (as Realm's
    /// models generate), the declared default, or null for an optional key.
    private func newPrimaryKey(_ pk: Property) -> Value {
        if let declared = pk.defaultValue { return declared }
        switch pk.type {
        case .objectId: return .objectId(.generate())
        case .uuid: return .uuid(UUID())
        default: return .null
        }
    }

    func inserter(_ className: String) throws -> BulkInserter {
        if let last = lastInserter, last.name == className { return last.inserter }
        let inserter = try inserters[className] ?? BulkInserter(database: database, className: className)
        inserters[className] = inserter
        lastInserter = (className, inserter)
        return inserter
    }

    /// A store error as a field path and message within the document.
    private func storeProblem(_ error: PorterError, _ cls: ObjectSchema) -> (String, String) {
        if error.code == .duplicatePrimaryKey { return (cls.primaryKey ?? "", error.message) }
        if let location = error.location, location.hasPrefix(cls.name + ".") {
            return (String(location.dropFirst(cls.name.count + 1)), error.message)
        }
        return ("", error.message + (error.location.map { " (at \($0))" } ?? ""))
    }
}
