import Foundation
import PorterRealmFile

extension Importer {
    /// A file, a folder of class files, or standard input.
    func importSource(_ source: ImportSource, format: String?) throws {
        if source.path == "-" {
            report.sources.append("-")
            return try importInput(ByteInput.standardInput(), className: source.className, format: format, extensionHint: nil)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory) else {
            problems.add(source: source.path, label: "", message: "no such file or folder")
            return
        }
        if isDirectory.boolValue { return try importFolder(source.path, format: format) }
        if isRealmFile(source.path) {
            let file: RealmFile
            do {
                file = try RealmFile(path: source.path, encryptionKey: realmEncryptionKey)
            } catch let error as PorterError {
                problems.add(source: source.path, label: "", message: error.message)
                return
            }
            return try importRealmFile(file)
        }
        let input: ByteInput
        do {
            input = try ByteInput(path: source.path)
        } catch let error as PorterError {
            problems.add(source: source.path, label: "", message: error.message)
            return
        }
        report.sources.append(source.path)
        let fileName = URL(fileURLWithPath: source.path).lastPathComponent
        try importInput(input, className: source.className ?? classHint(fromFileName: fileName), format: format,
                        extensionHint: fileExtension(fileName))
    }

    /// Every `.bson` and `.json` class file of an export folder (its `schema.json` excepted), in
    /// name order; each file's class comes from its name.
    private func importFolder(_ folder: String, format: String?) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted(by: ExportOrder.utf8Less)
        } catch {
            problems.add(source: folder, label: "", message: "cannot list the folder: \(error.localizedDescription)")
            return
        }
        var files: [(path: String, className: String)] = []
        for name in names where !problems.isFull {
            guard !name.hasPrefix("."), name != ExportFileNames.schemaFile else { continue }
            let ext = fileExtension(name)
            guard ext == "bson" || ext == "json" else { continue }
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            guard let className = ExportFileNames.className(fromFileName: name), database.schema[className] != nil else {
                problems.add(source: path, label: "", message: "file name does not name a class of the database's schema")
                continue
            }
            files.append((path, className))
        }
        let order = dependencyOrder(files.map(\.className))
        for file in files.sorted(by: { (order[$0.className] ?? 0, $0.path) < (order[$1.className] ?? 0, $1.path) }) where !problems.isFull {
            try importSource(ImportSource(path: file.path, className: file.className), format: format)
        }
    }

    /// A position for each class such that link targets come before the classes linking to
    /// them (where links form no cycle), so most links resolve as their document is read
    /// instead of waiting for the end of the import.
    func dependencyOrder(_ classNames: [String]) -> [String: Int] {
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
            guard let next = ready.min(by: ExportOrder.utf8Less) ?? remaining.min(by: ExportOrder.utf8Less) else { break }
            order[next] = order.count
            remaining.remove(next)
        }
        return order
    }

    /// Chooses a reader and imports every document of `input`.
    func importInput(_ input: ByteInput, className: String?, format: String?, extensionHint: String?) throws {
        let reader: DocumentInputFormat
        do {
            reader = try chooseFormat(format, input: input, extensionHint: extensionHint)
        } catch let error as PorterError {
            problems.add(source: input.name, label: "", message: error.message)
            return
        }
        let decoder: DocumentDecoder
        do {
            decoder = try reader.makeDecoder(input: input, context: DecoderContext(schema: database.schema, className: className))
        } catch let error as DocumentInputError {
            problems.add(source: input.name, label: error.label, path: error.path, message: error.message)
            return
        } catch let error as PorterError {
            problems.add(source: input.name, label: "", message: error.message)
            return
        }
        try importDocuments(decoder, source: input.name, className: className)
    }

    /// The reader named by `--format`, or (auto) the one for the extension, or the one that
    /// recognizes the first bytes.
    private func chooseFormat(_ format: String?, input: ByteInput, extensionHint: String?) throws -> DocumentInputFormat {
        if let format, format != "auto" {
            guard let match = formats.first(where: { $0.names.contains(format) }) else {
                let known = formats.flatMap(\.names).joined(separator: ", ")
                throw PorterError(.usage, "unknown input format '\(format)' (known: auto, \(known))")
            }
            return match
        }
        if let ext = extensionHint, let match = formats.first(where: { $0.fileExtensions.contains(ext) }) {
            return match
        }
        let prefix = try input.peek(64)
        if prefix.isEmpty, let first = formats.first { return first }
        guard let match = formats.first(where: { $0.recognizes(prefix: prefix) }) else {
            throw PorterError(.invalidInput, "cannot tell the format of this input (neither BSON nor JSON); pass --format")
        }
        return match
    }

    /// The class a file name stands for, when the schema has a top-level class of that name.
    func classHint(fromFileName fileName: String) -> String? {
        guard let name = ExportFileNames.className(fromFileName: fileName), let cls = database.schema[name], !cls.isEmbedded else { return nil }
        return name
    }

    /// The lowercased extension of a file name, if any.
    func fileExtension(_ fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        return String(fileName[fileName.index(after: dot)...]).lowercased()
    }
}
