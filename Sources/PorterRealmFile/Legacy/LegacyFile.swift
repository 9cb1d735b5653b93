import Foundation
import PorterModel

#if canImport(Glibc)
import Glibc
#endif

/// A file of the pre-cluster layout (formats 2–9), read as realm-core 6's upgrade would have
/// converted it: its classes, primary keys (the object store's `pk` table), schema version (the
/// `metadata` table) and objects, row by row. Row numbers are the object keys (as realm-core 6
/// gives them to tables without a primary key); links name the target's row.
struct LegacyFile: RealmWriteSource {
    /// The formats of the pre-cluster layout that Porter reads.
    static let formats = 2...9
    /// Every old format Porter reads: 2–9 here, 10–11 (realm-core 6) by the cluster reader.
    static let readable = 2...11

    let mem: Mem
    let layout: LegacyLayout
    /// The user classes: schema and the table each comes from.
    let classes: [(schema: ObjectSchema, table: LegacyLayout.Table)]
    /// The `metadata` table's version (nil when absent or unversioned).
    let schemaVersion: Int64?

    init(_ mem: Mem, topRef: Int64, format: Int) throws(RealmFault) {
        self.mem = mem
        let layout = try LegacyLayout(mem, topRef: topRef, format: format)
        self.layout = layout
        var classNames: [Int: String] = [:]
        for table in layout.tables where !RealmFile.isInternalTable(table.storedName) {
            classNames[table.index] = Self.className(table.storedName)
        }
        let primaryKeys = try Self.primaryKeys(mem, layout)
        var classes: [(ObjectSchema, LegacyLayout.Table)] = []
        for table in layout.tables {
            guard let name = classNames[table.index] else { continue }
            let pk = primaryKeys[name]
            var properties: [Property] = []
            for column in table.columns {
                do {
                    properties.append(
                        try Self.property(column, classNames: classNames, isPrimaryKey: column.storedName == pk))
                } catch {
                    throw error.located("\(name).\(column.name)")
                }
            }
            let primaryKey = table.columns.first { $0.storedName == pk }?.name
            classes.append((ObjectSchema(name: name, properties: properties, primaryKey: primaryKey), table))
        }
        self.classes = classes
        schemaVersion = try Self.metadataVersion(mem, layout)
    }

    var schema: Schema {
        Schema(version: schemaVersion.map { UInt64(bitPattern: $0) } ?? 0, classes: classes.map(\.schema))
    }

    /// `class_Dog` is the class `Dog`; realm-core's own test files name tables without the prefix.
    static func className(_ stored: String) -> String {
        stored.hasPrefix("class_") ? String(stored.dropFirst(6)) : stored
    }

    static func property(
        _ column: LegacyLayout.Column, classNames: [Int: String], isPrimaryKey: Bool
    ) throws(RealmFault) -> Property {
        let K = LegacyLayout.Kind.self
        func base(_ type: Int) throws(RealmFault) -> PropertyType {
            switch type {
            case K.int: return .int
            case K.bool: return .bool
            case K.string, K.stringEnum: return .string
            case K.binary: return .data
            case K.oldDateTime, K.timestamp: return .date
            case K.float: return .float
            case K.double: return .double
            case K.mixed: throw RealmFault("the old Mixed column type (realm-core 5 and older) is not read yet")
            case K.table: throw RealmFault("a subtable inside a subtable is not read")
            default: throw RealmFault("unknown column type \(type)")
            }
        }
        let indexed = column.isIndexed && !isPrimaryKey
        switch column.type {
        case K.link, K.linkList:
            guard let target = column.target, let targetClass = classNames[target] else {
                throw RealmFault("the link's target table is not a class")
            }
            let list = column.type == K.linkList
            return Property(
                name: column.name, type: .object, objectType: targetClass, optional: !list,
                collection: list ? .list : .none)
        case K.table:
            guard let element = column.element else {
                throw RealmFault("a subtable without columns is not read")
            }
            return Property(
                name: column.name, type: try base(element.type), optional: element.nullable, collection: .list)
        default:
            return Property(
                name: column.name, type: try base(column.type), optional: column.isNullable, indexed: indexed)
        }
    }

    /// The object store's `pk` table: class name → primary-key property (stored name). Realm Java
    /// before 0.84 stored the class's table name and the column's index; later SDKs the class name
    /// and the property's name (realm-core v6.1.4 `group.cpp` `get_primary_key_columns_from_pk_table`).
    static func primaryKeys(_ mem: Mem, _ layout: LegacyLayout) throws(RealmFault) -> [String: String] {
        guard let pk = layout.tables.first(where: { $0.storedName == "pk" }),
            let tableColumn = pk.columns.first(where: { $0.storedName == "pk_table" }),
            let propertyColumn = pk.columns.first(where: { $0.storedName == "pk_property" })
        else { return [:] }
        var out: [String: String] = [:]
        do {
            var tables = try LegacyColumnReader(mem, column: tableColumn, targetClass: nil)
            var properties = try LegacyColumnReader(mem, column: propertyColumn, targetClass: nil)
            for row in 0..<pk.rowCount {
                guard case .string(let stored) = try tables.value(row) else { continue }
                let name = className(stored)
                switch try properties.value(row) {
                case .string(let property): out[name] = property
                case .int(let index):
                    let table = layout.tables.first { className($0.storedName) == name }
                    if let table, index >= 0, Int(index) < table.columns.count {
                        out[name] = table.columns[Int(index)].storedName
                    }
                default: continue
                }
            }
        } catch {
            throw error.located("pk")
        }
        return out
    }

    /// The `metadata` table's `version` (realm-core `object_store.cpp`): nil when absent or -1.
    static func metadataVersion(_ mem: Mem, _ layout: LegacyLayout) throws(RealmFault) -> Int64? {
        guard let metadata = layout.tables.first(where: { $0.storedName == "metadata" }),
            let column = metadata.columns.first(where: { $0.storedName == "version" && $0.type == 0 }),
            metadata.rowCount > 0
        else { return nil }
        do {
            var reader = try LegacyColumnReader(mem, column: column, targetClass: nil)
            guard case .int(let v) = try reader.value(0), v != -1 else { return nil }
            return v
        } catch {
            throw error.located("metadata.version")
        }
    }

    func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        guard let entry = classes.first(where: { $0.schema.name == className }) else { return }
        let table = entry.table
        var readers: [LegacyColumnReader] = []
        // Per column, the object ids of a link's target (its rows' keys), if it has them.
        var targetIds: [LegacyColumnReader?] = []
        for column in table.columns {
            let target = column.target.flatMap { t in classes.first { $0.table.index == t } }
            do {
                readers.append(try LegacyColumnReader(mem, column: column, targetClass: target?.schema.name))
                targetIds.append(
                    try target?.table.objectIds.map { try LegacyColumnReader(mem, column: $0, targetClass: nil) })
            } catch let fault as RealmFault {
                throw fault.located("\(className).\(column.name)")
            }
        }
        var ids = try table.objectIds.map { try LegacyColumnReader(mem, column: $0, targetClass: nil) }
        var values: [RealmValue] = []
        for row in 0..<table.rowCount {
            values.removeAll(keepingCapacity: true)
            for c in readers.indices {
                do {
                    var value = try readers[c].value(row)
                    if targetIds[c] != nil { value = try Self.keyed(value, by: &targetIds[c]!) }
                    values.append(value)
                } catch {
                    throw error.located("\(className).\(table.columns[c].name)")
                }
            }
            var key = Int64(row)
            if ids != nil, case .int(let id) = try ids!.value(row) { key = id }
            try body(key, values)
        }
    }

    /// A link (or list of links) by row, turned into the target rows' object ids.
    static func keyed(_ value: RealmValue, by ids: inout LegacyColumnReader) throws(RealmFault) -> RealmValue {
        switch value {
        case .link(let className, let row):
            guard case .int(let id) = try ids.value(Int(row)) else { return value }
            return .link(className: className, key: id)
        case .list(let items):
            var out: [RealmValue] = []
            for item in items { out.append(try keyed(item, by: &ids)) }
            return .list(out)
        default:
            return value
        }
    }

    /// Writes the file's content as a format-24 Realm file into an anonymous in-memory file
    /// (`memfd_create`, never a file on disk) and maps it: the same image realm-core's upgrade
    /// would leave, read by the cluster reader.
    func image() throws -> (pointer: UnsafeMutableRawPointer, length: Int) {
        let fd = try PlainPages.anonymousFile()
        defer { close(fd) }
        let writerFD = dup(fd)
        guard writerFD >= 0 else {
            throw PorterError(.io, "cannot duplicate the in-memory file: \(String(cString: strerror(errno)))")
        }
        let writer = RealmFileWriter(schema: schema, schemaVersion: schemaVersion.map { UInt64(bitPattern: $0) } ?? 0)
        try writer.writeImage(fd: writerFD, source: self)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else {
            throw PorterError(.io, "cannot read the in-memory file's size: \(String(cString: strerror(errno)))")
        }
        let length = Int(info.st_size)
        guard let raw = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), raw != MAP_FAILED else {
            throw PorterError(.io, "cannot map the in-memory file: \(String(cString: strerror(errno)))")
        }
        return (raw, length)
    }
}
