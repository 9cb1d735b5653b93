import Foundation
import PorterModel

/// A Realm Core file (formats 2–11 and 20–24), read natively and read-only: no realm-core, no
/// lock file, nothing written beside it. Objects are streamed from the mapped file in bounded
/// memory. A file of the pre-cluster layout (formats 2–9) is read through an in-memory image of
/// what realm-core's upgrade makes of it (`LegacyFile`).
public final class RealmFile: @unchecked Sendable {
    /// The file's path.
    public let path: String
    /// The selected header slot's file format.
    public let fileFormat: Int
    /// The history type (top slot 7): 0 none, 1 out-of-realm, 2 in-realm, 3 sync client, 4 sync server.
    public let historyType: Int
    /// The schema version from the `metadata` table; nil when absent or unversioned.
    public let schemaVersion: Int64?
    /// The file's size on disk.
    public let fileSize: Int
    /// Whether the file is encrypted.
    public let isEncrypted: Bool
    /// The user classes, in file order.
    public let tables: [RealmTable]
    /// Internal tables skipped, by stored name.
    public let skippedTables: [String]
    /// Every backlink column of the user classes.
    public let backlinks: [RealmBacklink]
    /// The header's two top refs and formats, and the selected slot.
    public let headerSlots: RealmHeaderSlots

    let mapping: FileMapping
    /// The format of the layout read: `fileFormat`, or 24 for an old file read through the
    /// image of its upgrade (`LegacyFile`).
    let layoutFormat: Int
    var mem: Mem { mapping.mem }
    /// Every table of the file (user and internal) by TableKey.
    let infoByKey: [UInt32: TableInfo]
    /// The user tables' infos, parallel to `tables`.
    let infos: [TableInfo]

    /// The formats of the current (cluster) layout this reader understands.
    static let supportedFormats = 20...24

    /// Whether the cluster reader reads `format` as it is: 20–24, and 10–11 (realm-core 6, the
    /// first cluster layout: the same arrays, with the primary key already in the table).
    static func readsClusterLayout(_ format: Int) -> Bool {
        (10...11).contains(format) || supportedFormats.contains(format)
    }

    /// Why a file of `format` is refused: formats 12–19 were never written by a released core;
    /// 1 and above 24 by no core Porter knows.
    static func unsupportedMessage(_ format: Int) -> String {
        switch format {
        case 12...19:
            return
                "file format \(format) is not supported: no released realm-core wrote it (the formats are 2–11 and 20–24); the file is damaged or not a Realm file"
        default:
            return
                "file format \(format) is not supported: Porter reads formats \(LegacyFile.formats.lowerBound)–11 and 20–24"
        }
    }

    /// Opens read-only. Throws `PorterError(.notADatabase, …, location: path)` for every refusal.
    /// `encryptionKey`: the 64-byte key of an encrypted file.
    public convenience init(path: String, encryptionKey: [UInt8]? = nil) throws {
        try self.init(path: path, encryptionKey: encryptionKey, allowingShortFile: false)
    }

    /// Opens read-only; with `allowingShortFile`, a file shorter than its top array records is
    /// opened anyway (for salvage: nodes past the end then fail where they are read).
    package init(path: String, encryptionKey: [UInt8]?, allowingShortFile: Bool) throws {
        self.path = path
        let original = try FileMapping(path: path, encryptionKey: encryptionKey)
        var mapping = original
        fileSize = original.fileSize
        isEncrypted = original.isEncrypted
        func refuse(_ fault: RealmFault) -> PorterError { PorterError(.notADatabase, fault.message, location: path) }
        var legacy: LegacyFile?
        do {
            var header = try FileHeader(original.mem)
            fileFormat = header.fileFormat
            headerSlots = header.slots
            if LegacyFile.formats.contains(header.fileFormat) {
                // The pre-cluster layout: read as realm-core's upgrade would convert it, into
                // an in-memory image of the current layout, read from here on.
                guard header.topRef != 0 else { throw RealmFault("the file has no top array (top ref 0)") }
                let old = try LegacyFile(original.mem, topRef: header.topRef, format: header.fileFormat)
                legacy = old
                do {
                    mapping = FileMapping(
                        image: try old.image(), fileSize: original.fileSize, isEncrypted: original.isEncrypted)
                } catch let error as PorterError {
                    throw RealmFault(
                        "file format \(header.fileFormat): \(error.location.map { "\($0): " } ?? "")\(error.message)")
                }
                header = try FileHeader(mapping.mem)
            } else if !Self.readsClusterLayout(header.fileFormat) {
                if header.fileFormat == 0 && header.topRef == 0 {
                    throw RealmFault("the Realm file was never written (format 0, no data)")
                }
                throw RealmFault(Self.unsupportedMessage(header.fileFormat))
            }
            self.mapping = mapping
            let mem = mapping.mem
            guard header.topRef != 0 else { throw RealmFault("the file has no top array (top ref 0)") }
            let group = try Self.loadGroup(mem, topRef: header.topRef, allowingShortFile: allowingShortFile)
            historyType = legacy?.layout.historyType ?? group.historyType
            layoutFormat = header.fileFormat
            var byKey: [UInt32: TableInfo] = [:]
            for table in group.tables {
                guard byKey.updateValue(table, forKey: table.key) == nil else {
                    throw RealmFault("two tables share the table key \(table.key)")
                }
            }
            infoByKey = byKey
            infos = group.tables.filter { !$0.isInternal }
            skippedTables =
                legacy.map { $0.layout.tables.map(\.storedName).filter(Self.isInternalTable) }
                ?? group.tables.filter(\.isInternal).map(\.storedName)
        } catch let fault as RealmFault {
            throw refuse(fault)
        }
        var tables: [RealmTable] = []
        var backlinks: [RealmBacklink] = []
        for info in infos {
            tables.append(Self.makeTable(info, byKey: infoByKey))
            for column in info.backlinks {
                guard let originKey = column.targetTable, let origin = infoByKey[originKey],
                    let property = origin.columns.first(where: { $0.colKey == column.oppositeColKey })
                else { continue }
                backlinks.append(
                    RealmBacklink(targetClass: info.name, originClass: origin.name, originProperty: property.name))
            }
        }
        self.tables = tables
        self.backlinks = backlinks
        if let legacy {
            schemaVersion = legacy.schemaVersion
            return
        }
        do {
            schemaVersion = try Self.readSchemaVersion(mapping.mem, tables: infoByKey)
        } catch let fault as RealmFault {
            throw refuse(fault.located("metadata.version"))
        }
    }

    /// The class named `className`, if the file has it.
    public func table(named className: String) -> RealmTable? {
        tables.first { $0.name == className }
    }

    /// The internal description of `table`.
    func info(_ table: RealmTable) throws -> TableInfo {
        guard let info = infoByKey[table.key], info.storedName == table.storedName else {
            throw PorterError(.notFound, "class \(table.name) is not in this file", location: path)
        }
        return info
    }

    /// Turns a structural fault into the public error.
    func porterError(_ error: Error, place: String? = nil) -> Error {
        guard let fault = error as? RealmFault else { return error }
        guard let place, !fault.message.hasPrefix(place + ".") && !fault.message.hasPrefix(place + ":") else {
            return PorterError(.notADatabase, fault.message, location: path)
        }
        return PorterError(.notADatabase, fault.located(place).message, location: path)
    }

    static func readSchemaVersion(_ mem: Mem, tables: [UInt32: TableInfo]) throws -> Int64? {
        guard let metadata = tables.values.first(where: { $0.storedName == "metadata" }),
            let column = metadata.columns.first(where: {
                $0.name == "version" && $0.type == ColumnInfo.Kind.int && !$0.isCollection
            })
        else { return nil }
        var version: Int64?
        try mem.forEachClusterLeaf(metadata.clusterRoot) { leaf in
            guard version == nil, leaf.count > 0 else { return }
            let node = try mem.node(try leaf.columnRef(column.leafIndex))
            let values = try Leaf(
                mem, node: node, spec: ValueSpec(type: column.type, nullable: column.isNullable, target: nil),
                collectionRefs: false)
            guard case .ints(let n, let nullable) = values, values.count > 0 else { return }
            let v = n.int(nullable ? 1 : 0)
            if nullable && v == n.int(0) { return }
            version = v
        }
        return version == -1 ? nil : version
    }
}
