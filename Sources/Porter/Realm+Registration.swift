import Foundation

/// Realm finds every model class through the Objective-C runtime; Porter cannot, so a
/// configuration without `objectTypes` learns its classes as the code uses them.
extension Realm {
    /// Adds `type`, and the classes it links to, embeds or is linked from, to this realm: their
    /// tables are created when the file does not have them yet.
    /// - Throws: `PorterError/Code/migrationRequired` when the file has the class with a
    ///   different schema, or the model error when the class cannot be derived.
    func register(_ type: ObjectBase.Type) throws {
        var found: [ObjectBase.Type] = []
        var seen = Set(typesByName.values.map { ObjectIdentifier($0) })
        var pending: [ObjectBase.Type] = [type]
        while let next = pending.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            found.append(next)
            for (_, property) in next.init(_porterMake: ())._persistedProperties() {
                if let target = property.typeInfo.objectClass { pending.append(target) }
            }
        }
        guard !found.isEmpty else { return }
        let derived = try Schema(version: database.schema.version, objectTypes: Array(typesByName.values) + found)
        var added: [ObjectSchema] = []
        for newType in found {
            let name = newType.className()
            guard let model = derived[name] else { continue }
            if let stored = database.schema[name] {
                let changes = SchemaDiff.compare(
                    Schema(version: 0, classes: [stored]), Schema(version: 0, classes: [model])
                )
                .filter { !$0.isAutomatic }
                if !changes.isEmpty {
                    throw PorterError(
                        .migrationRequired,
                        "class '\(name)' in the file differs from the model: \(changes.map(\.message).joined(separator: "; "))",
                        location: name)
                }
            } else {
                added.append(model)
            }
        }
        try database.addClasses(added)
        for newType in found { typesByName[newType.className()] = newType }
    }

    /// Copies the configuration's seed file into place when the realm's file does not exist yet.
    static func copySeedFile(_ configuration: Configuration) throws {
        guard let seed = configuration.seedFilePath, let url = configuration.resolvedFileURL,
            !FileManager.default.fileExists(atPath: url.path)
        else { return }
        do {
            try FileManager.default.copyItem(at: seed, to: url)
        } catch {
            throw PorterError(
                .io, "cannot copy the seed file \(seed.path): \(error.localizedDescription)", location: url.path)
        }
    }
}
