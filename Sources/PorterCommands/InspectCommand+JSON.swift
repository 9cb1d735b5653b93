import Foundation
import Porter

extension InspectCommand {
    /// `porter inspect --json`: the summary as one JSON object, keys in this order (those marked
    /// Realm or Porter appear only for that kind of file):
    ///
    /// - `file` (string): the path as given; `kind` (string): `"realm"` or `"porter"`, as in `check --json`.
    /// - `fileSize` (number): bytes on disk.
    /// - `fileFormat` (number, Realm): the selected header slot's file format; `sdkVersions` (string):
    ///   the SDKs that write it. `encrypted` (bool, Realm). `history` (string, Realm): the history kind.
    /// - `header` (object, Realm): `topRefs` (two numbers, slot 0 and slot 1, as stored; null for the
    ///   streaming form's all-ones marker), `currentTopRef` (number: the top ref in use, the footer's in
    ///   streaming form), `fileFormats` (two numbers), `currentSlot` (0 or 1: the slot holding the current
    ///   snapshot's top ref; the other is the previous snapshot's), `streaming` (bool: the top ref is in the footer).
    /// - `schemaVersion` (number, or null for a Realm file without a versioned metadata table).
    /// - `classes` (array): per class `name`, `objects` (count), `embedded` (bool), `primaryKey`
    ///   (string or null).
    /// - `internalTablesSkipped` (array of strings, Realm): internal tables not read.
    /// - `migrations` (array, Porter): `fromVersion`, `toVersion`, `appliedAt`, `porterVersion`,
    ///   `planChecksum` (string or null), `summary`.
    /// - `schema` (object): the schema as `porter schema` prints it.
    func summary(_ file: StoreFile) throws -> JSONValue {
        var members = [JSONMember("file", .string(database))]
        func add(_ key: String, _ value: JSONValue) { members.append(JSONMember(key, value)) }
        func classes(_ schema: Schema, count: (ObjectSchema) throws -> Int) throws -> JSONValue {
            .array(
                try schema.classes.map { cls in
                    .object([
                        JSONMember("name", .string(cls.name)), JSONMember("objects", .number(try count(cls))),
                        JSONMember("embedded", .bool(cls.isEmbedded)),
                        JSONMember("primaryKey", cls.primaryKey.map(JSONValue.string) ?? .null),
                    ])
                })
        }
        switch file {
        case .realm(let realm):
            let slots = realm.headerSlots
            add("kind", .string("realm"))
            add("fileSize", .number(realm.fileSize))
            add("fileFormat", .number(realm.fileFormat))
            add("sdkVersions", .string(RealmFileDescriptions.sdkVersions(format: realm.fileFormat)))
            add("encrypted", .bool(realm.isEncrypted))
            add("history", .string(RealmFileDescriptions.history(realm.historyType)))
            add(
                "header",
                .object([
                    JSONMember("topRefs", .array(slots.topRefs.map { $0 == UInt64.max ? .null : .number($0) })),
                    JSONMember("currentTopRef", .number(slots.currentTopRef)),
                    JSONMember("fileFormats", .array(slots.fileFormats.map { .number($0) })),
                    JSONMember("currentSlot", .number(slots.selected)),
                    JSONMember("streaming", .bool(slots.isStreaming)),
                ]))
            add("schemaVersion", realm.schemaVersion.map { .number($0) } ?? .null)
            let schema = realm.schema
            add("classes", try classes(schema, count: Self.counter(realm)))
            add("internalTablesSkipped", .array(realm.skippedTables.map(JSONValue.string)))
            add("schema", schema.jsonValue)
        case .porter(let db):
            try db.read {
                add("kind", .string("porter"))
                add("fileSize", .number(db.fileSize))
                add("schemaVersion", .number(db.schemaVersion))
                add("classes", try classes(db.schema) { try db.count($0.name) })
                add(
                    "migrations",
                    .array(
                        try db.history().map { entry in
                            .object([
                                JSONMember("fromVersion", .number(entry.fromVersion)),
                                JSONMember("toVersion", .number(entry.toVersion)),
                                JSONMember("appliedAt", .string(entry.appliedAt)),
                                JSONMember("porterVersion", .string(entry.porterVersion)),
                                JSONMember("planChecksum", entry.planChecksum.map(JSONValue.string) ?? .null),
                                JSONMember("summary", .string(entry.summary)),
                            ])
                        }))
                add("schema", db.schema.jsonValue)
            }
        }
        return .object(members)
    }
}
