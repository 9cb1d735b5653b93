import Foundation
import PorterDocument
import PorterModel
import PorterPostgres

extension Importer {
    /// A file, a folder of class files, or standard input.
    func importSource(_ source: ImportSource, format: String?) throws {
        let format = source.format ?? format
        if source.path == "-" {
            report.sources.append("-")
            return try importInput(
                ByteInput.standardInput(), className: source.className, format: format, extensionHint: nil)
        }
        if PostgresConnection.isURL(source.path) { return try importRelationalPostgres(source.path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory) else {
            problems.add(source: source.path, label: "", message: "no such file or folder")
            return
        }
        if isDirectory.boolValue { return try importFolder(source.path, format: format) }
        // A pipe or FIFO is read once, as a stream: never looked into first (that would consume it).
        let isRegular = Self.isRegularFile(source.path)
        if isRegular, RelationalReader.isExport(source.path) { return try importRelationalSQLite(source.path) }
        if isRegular, isRealmFile(source.path) {
            guard let realmFileReader else {
                problems.add(source: source.path, label: "", message: "a Realm file, which this import does not read")
                return
            }
            return try realmFileReader(self, source.path)
        }
        let input: ByteInput
        do {
            // /dev/stdin is the descriptor already open, not a new open of what it names (a FIFO
            // reopened after its writer finished would wait forever).
            input = source.path == "/dev/stdin" ? ByteInput.standardInput() : try ByteInput(path: source.path)
        } catch let error as PorterError {
            problems.add(source: source.path, label: "", message: error.message)
            return
        }
        report.sources.append(source.path)
        currentFile = input
        defer {
            finishedBytes += input.bytesRead
            currentFile = nil
        }
        var fileName = URL(fileURLWithPath: source.path).lastPathComponent
        if fileName.lowercased().hasSuffix(".gz") { fileName = String(fileName.dropLast(3)) }
        if DumpFolder.isMetadataFile(fileName) {
            // A metadata file alone holds no documents: its indexes are checked, nothing imported.
            checkMetadata(input, className: source.className ?? DumpFolder.className(ofMetadataFile: fileName))
            return
        }
        try importInput(
            input, className: source.className ?? classHint(fromFileName: fileName), format: format,
            extensionHint: fileExtension(fileName))
    }

    /// Every class file of an export folder or a mongodump database folder (`schema.json` and
    /// `.metadata.json` files excepted; `.gz` files decompressed), in link order; each file's class
    /// comes from its name. A mongodump root folder (one subfolder per database) imports the
    /// database named by `--db`, or its only one.
    func importFolder(_ folder: String, format: String?, inDumpRoot: Bool = false, database: String? = nil) throws {
        let listing: DumpFolder
        do {
            listing = try DumpFolder(path: folder)
        } catch let error as PorterError {
            problems.add(source: folder, label: "", message: error.message)
            return
        }
        if listing.classFiles.allSatisfy({ isBookkeeping($0) }), !listing.databases.isEmpty {
            skipped += listing.classFiles.map(\.path)
            return try importDumpRoot(listing, format: format)
        }
        if let db = options.dumpDatabase, !inDumpRoot {
            problems.add(
                source: folder, label: "",
                message:
                    "--db \(db): this folder is not a mongodump root (it has no database subfolders holding .bson files)"
            )
            return
        }
        try importFolders([(folder, database)], format: format, listings: [listing])
    }

    /// mongodump's own `prelude.json` (at the root or in a database folder, gzipped with --gzip)
    /// and `oplog.bson` are bookkeeping, not collections, unless the schema has such a class.
    private func isBookkeeping(_ file: DumpFolder.Entry) -> Bool {
        guard let className = file.className, database.schema[className] == nil else { return false }
        return className == "prelude" || className == "oplog"
    }

    /// The class files of one or more folders (a database folder each, for an app configuration's
    /// dump), in link order across all of them; each file's class is its collection's
    /// (``namespaces``) or its name.
    func importFolders(_ folders: [(path: String, database: String?)], format: String?, listings: [DumpFolder]? = nil)
        throws
    {
        var files: [(path: String, className: String)] = []
        for (index, folder) in folders.enumerated() {
            let listing: DumpFolder
            if let listings {
                listing = listings[index]
            } else {
                do {
                    listing = try DumpFolder(path: folder.path)
                } catch let error as PorterError {
                    problems.add(source: folder.path, label: "", message: error.message)
                    continue
                }
            }
            func mapped(_ name: String?) -> String? {
                guard let name else { return nil }
                return namespaces?.className(ofCollection: name, database: folder.database) ?? name
            }
            let bookkeeping = listing.classFiles.filter { isBookkeeping($0) }
            skipped += bookkeeping.map(\.path)
            skipped += listing.skipped
            for file in listing.classFiles
            where !problems.isFull && !bookkeeping.contains(where: { $0.path == file.path }) {
                guard let className = mapped(file.className), database.schema[className] != nil else {
                    problems.add(
                        source: file.path, label: "",
                        message: "file name does not name a class of the database's schema"
                            + (namespaces == nil ? "" : " (nor a collection of the given namespaces)"))
                    continue
                }
                files.append((file.path, className))
            }
            for metadata in listing.metadataFiles where !problems.isFull {
                guard let className = mapped(metadata.className), database.schema[className] != nil else {
                    skipped.append(metadata.path)
                    continue
                }
                do {
                    checkMetadata(try ByteInput(path: metadata.path), className: className)
                } catch let error as PorterError {
                    problems.add(source: metadata.path, label: "", message: error.message)
                }
            }
        }
        let order = dependencyOrder(files.map(\.className))
        for file in files.sorted(by: { (order[$0.className] ?? 0, $0.path) < (order[$1.className] ?? 0, $1.path) })
        where !problems.isFull {
            try importSource(ImportSource(path: file.path, className: file.className), format: format)
        }
    }

    /// Whether a source is a Realm file: `T-DB` at offset 16, or, when a key was given, a file
    /// of whole 4096-byte pages that is no other known kind (an encrypted Realm file looks like noise).
    func isRealmFile(_ path: String) -> Bool {
        switch StoredFileKind.of(path: path) {
        case .realmFile: return true
        case .porterDatabase: return false
        case .other:
            guard realmEncryptionKey != nil,
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            else { return false }
            return size > 0 && size % 4096 == 0
        }
    }

    /// A position for each class such that link targets come before the classes linking to
    /// them (where links form no cycle), so most links resolve as their document is read
    /// instead of waiting for the end of the import.
    package func dependencyOrder(_ classNames: [String]) -> [String: Int] {
        let schema = database.schema
        func targets(_ className: String, _ seen: inout Set<String>) -> Set<String> {
            guard seen.insert(className).inserted, let cls = schema[className] else { return [] }
            var out: Set<String> = []
            for property in cls.persistedProperties where property.type == .object {
                guard let target = property.objectType, let targetClass = schema[target] else { continue }
                if targetClass.isEmbedded { out.formUnion(targets(target, &seen)) } else { out.insert(target) }
            }
            return out
        }
        var remaining = Set(classNames)
        var dependencies: [String: Set<String>] = [:]
        for name in classNames {
            var seen: Set<String> = []
            dependencies[name] = targets(name, &seen).subtracting([name]).intersection(remaining)
        }
        var order: [String: Int] = [:]
        while !remaining.isEmpty {
            // Classes whose targets are all placed; on a cycle, the first remaining by name.
            let ready = remaining.filter { dependencies[$0, default: []].isDisjoint(with: remaining) }
            guard let next = ready.min(by: ExportOrder.utf8Less) ?? remaining.min(by: ExportOrder.utf8Less) else {
                break
            }
            order[next] = order.count
            remaining.remove(next)
        }
        return order
    }

    /// Chooses a reader and imports every document of `input`.
    func importInput(_ input: ByteInput, className: String?, format: String?, extensionHint: String?) throws {
        let reader: DocumentInputFormat
        var input = input
        do {
            // Gzip is recognized by its magic bytes, whatever the file is called.
            if GzipDetection.isGzip(try input.peek(2)) { input = try ByteInput(gunzipping: input) }
            if let kind = GzipDetection.unsupportedContainer(try input.peek(8)) {
                throw PorterError(
                    .invalidInput,
                    "this is \(kind), which Porter does not read (it reads gzip-compressed files and mongodump archives): unpack it first"
                )
            }
            reader = try chooseFormat(format, input: input, extensionHint: extensionHint)
        } catch let error as PorterError {
            problems.add(source: input.name, label: "", message: error.message)
            return
        }
        let decoder: DocumentDecoder
        do {
            decoder = try reader.makeDecoder(
                input: input,
                context: DecoderContext(
                    schema: database.schema, className: className,
                    database: options.dumpDatabase))
        } catch let error as DocumentInputError {
            problems.add(source: input.name, label: error.label, path: error.path, message: error.message)
            return
        } catch let error as PorterError {
            problems.add(source: input.name, label: "", message: error.message)
            return
        }
        try importDocuments(decoder, source: input.name, className: className)
        for (collection, text) in decoder.dumpMetadata.sorted(by: { $0.key < $1.key }) {
            let className =
                namespaces.flatMap {
                    $0.className(ofCollection: collection, database: decoder.collectionsDatabase)
                } ?? collection
            guard let cls = database.schema[className] else { continue }
            report.warnings += DumpMetadata.indexWarnings(text, for: cls, source: "\(input.name):\(collection)")
        }
    }

    /// The reader named by `--format`, or (auto) the one for the extension, or the one that
    /// recognizes the first bytes.
    private func chooseFormat(_ format: String?, input: ByteInput, extensionHint: String?) throws -> DocumentInputFormat
    {
        let archive = formats.first { $0.names.contains("archive") }
        let isArchive = try archive?.recognizes(prefix: input.peek(4)) ?? false
        if let format, format != "auto" {
            guard let match = formats.first(where: { $0.names.contains(format) }) else {
                let known = formats.flatMap(\.names).joined(separator: ", ")
                throw PorterError(.usage, "unknown input format '\(format)' (known: auto, \(known))")
            }
            if isArchive, !match.names.contains("archive") {
                throw PorterError(
                    .usage,
                    "this is a mongodump archive, which --format \(format) cannot read (use --format auto or archive)")
            }
            return match
        }
        // An archive is recognized by its magic number whatever its name (mongodump gives none).
        if isArchive, let archive { return archive }
        if let ext = extensionHint, let match = formats.first(where: { $0.fileExtensions.contains(ext) }) {
            return match
        }
        let prefix = try input.peek(64)
        if prefix.isEmpty, let first = formats.first { return first }
        guard let match = formats.first(where: { $0.recognizes(prefix: prefix) }) else {
            throw PorterError(
                .invalidInput, "cannot tell the format of this input (neither BSON nor JSON); pass --format")
        }
        return match
    }

    /// The class a file name stands for, when the schema has a top-level class of that name.
    func classHint(fromFileName fileName: String) -> String? {
        guard let name = ExportFileNames.className(fromFileName: fileName), let cls = database.schema[name],
            !cls.isEmbedded
        else { return nil }
        return name
    }

    /// The lowercased extension of a file name, if any.
    func fileExtension(_ fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        return String(fileName[fileName.index(after: dot)...]).lowercased()
    }
}

extension Importer {
    /// Whether `path` names a regular file (not a pipe, FIFO or device), so that its first bytes
    /// can be looked at before it is read.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
