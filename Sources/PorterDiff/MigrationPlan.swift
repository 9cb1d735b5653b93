import PorterModel

/// A migration plan: how to bring a file from one schema to another, written so a person can read
/// and edit it (`porter plan` writes one, `porter migrate --plan` applies it).
///
/// It records the versions, a checksum of the schema it was made from (so it is never applied to
/// another one), the target schema, and ordered operations: renames, conversions, fills and
/// deletions that say what happens to data, and the listed changes between the two schemas.
public struct MigrationPlan: Sendable, Hashable {
    /// The `format` value of plan files.
    public static let formatName = "porter-migration-plan"
    /// The plan-file format version this build reads and writes.
    public static let formatVersion: UInt64 = 1

    /// The schema version the plan starts from.
    public var fromVersion: UInt64
    /// The schema version the plan produces (the target schema's version).
    public var toVersion: UInt64
    /// ``Schema/sha256Checksum`` of the schema the plan was made from.
    public var oldSchemaChecksum: String
    /// The schema the file has afterwards.
    public var targetSchema: Schema
    /// The operations, in order.
    public var operations: [PlanOperation]
    /// Free text for people (kept when read and written, never interpreted).
    public var comment: [String]

    /// Creates a plan.
    public init(
        fromVersion: UInt64, toVersion: UInt64, oldSchemaChecksum: String, targetSchema: Schema,
        operations: [PlanOperation], comment: [String] = []
    ) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.oldSchemaChecksum = oldSchemaChecksum
        self.targetSchema = targetSchema
        self.operations = operations
        self.comment = comment
    }

    /// `sha256:<hex>` of the plan's compact JSON: what migration history records.
    public var checksum: String { "sha256:" + SHA256.hex(jsonString(pretty: false)) }

    /// The renames the plan asks for, in order.
    public var renames: RenameSet {
        var set = RenameSet()
        for operation in operations {
            switch operation {
            case .renameClass(let from, let to): set.classes.append(ClassRename(from: from, to: to))
            case .renameProperty(let c, let from, let to):
                set.properties.append(PropertyRename(className: c, from: from, to: to))
            default: break
            }
        }
        return set
    }
}
