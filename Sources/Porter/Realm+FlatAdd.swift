import Foundation

/// What adding an object of one flat model class needs (see ``RowLayout/isFlat``), found once:
/// its schema class, its row layout and, for each `@Persisted` field held in a column, how to
/// read it by offset. A million `realm.add(item)` calls in one write asked the schema, the row
/// layout and the field table for each object.
final class FlatAddPlan {
    let type: ObjectIdentifier
    /// The database schema generation the plan was made for.
    let generation: Int
    let className: String
    let columnCount: Int
    /// The fields held in columns, with their column.
    let fields: [(reader: any PersistedFieldReading, offset: Int, name: String, column: Int)]
    /// The values of the object being added, by column: reused object after object (an array
    /// made per object cost an allocation and its release).
    @exclusivity(unchecked) var values: [Value?]
    /// The writer encoding the values: a flat class holds no objects, so it never links or adds
    /// one, and holds no realm (a plan kept by its realm must not keep the realm alive).
    let writer = _PorterWriter(realm: nil, mode: .add(.error))

    init?(_ object: ObjectBase, layout: RowLayout, generation: Int) {
        guard layout.isFlat else { return nil }
        let found = layout.fieldColumns(of: object)
        type = ObjectIdentifier(Swift.type(of: object))
        self.generation = generation
        className = layout.className
        columnCount = layout.columnCount
        values = [Value?](repeating: nil, count: layout.columnCount)
        fields = found.compactMap { entry in
            entry.column.map { (entry.field.reader, entry.field.offset, entry.field.name, $0) }
        }
    }
}

extension Realm {
    /// The plan of `object`'s class when it was added as a flat class before and the schema is
    /// unchanged; nil otherwise (the caller takes the general path, which makes one).
    func currentFlatAddPlan(for object: ObjectBase) -> FlatAddPlan? {
        let id = ObjectIdentifier(type(of: object))
        let generation = database.schemaGeneration
        if let plan = core.lastFlatAdd, plan.type == id, plan.generation == generation { return plan }
        guard let plan = core.flatAdds[id], plan.generation == generation else { return nil }
        core.lastFlatAdd = plan
        return plan
    }

    /// Remembers the flat-add plan of `object`'s class after the general path found it is a flat
    /// class added with `update: .error` (a single INSERT after checks).
    func rememberFlatAddPlan(for object: ObjectBase, className: String) {
        guard let layout = try? rowLayout(of: type(of: object), className),
            let plan = FlatAddPlan(object, layout: layout, generation: database.schemaGeneration)
        else { return }
        core.flatAdds[plan.type] = plan
        core.lastFlatAdd = plan
    }

    /// Adds an unmanaged object of a flat class with `update: .error`: its values by column,
    /// then one INSERT after checks (``Database/createRow(_:_:)``), so a failure leaves nothing
    /// behind and the object unmanaged, as the general path does.
    func addFlat(_ object: ObjectBase, _ plan: FlatAddPlan) throws {
        let writer = plan.writer
        // Every field is assigned: no value of the previous object is left (a failed encoding
        // throws before the INSERT, and the next object assigns every field again).
        try plan.fields.withUnsafeBufferPointer { buffer in
            // Fields lent through the base pointer, not copied (retained and released) per object.
            guard let fields = buffer.baseAddress else { return }
            for index in buffer.indices {
                plan.values[fields[index].column] = try fields[index].reader.encodeUnmanaged(
                    in: object, at: fields[index].offset, name: fields[index].name, writer)
            }
        }
        let key = try database.createRow(plan.className, plan.values)
        object._managed = ManagedState(
            realm: self, className: plan.className, key: key, addedIn: core.writeAttachment)
    }
}
