import PorterModel

/// How a migration block sees a list of objects: as the typed API's `List<MigrationObject>`
/// (Realm's `newObject["dogs"] as! List<MigrationObject>`) when the typed API sets this on the
/// ``Migration``; as an array otherwise. A list handed out for a new object is written back
/// when the block call returns, so appending to it changes the stored list, as in Realm.
package struct MigrationObjectLists {
    /// A list holding `objects`.
    package let make: ([MigrationObject]) -> AnyObject
    /// The objects of such a list (or of any collection of migration objects), nil for anything else.
    package let contents: (Any) -> [MigrationObject]?

    package init(make: @escaping ([MigrationObject]) -> AnyObject, contents: @escaping (Any) -> [MigrationObject]?) {
        self.make = make
        self.contents = contents
    }
}

/// A list handed out for a new object's property, with the links it held then.
struct HandedOutList {
    let object: MigrationObject
    let property: String
    let list: AnyObject
    let links: [Value]
}

extension Migration {
    /// The links `list` holds now, or nil when it is no list of migration objects.
    func links(of list: Any) -> [Value]? {
        objectLists?.contents(list).map { objects in objects.map { .link(ObjectLink($0.className, $0.key)) } }
    }

    /// Writes back every list handed out for a new object whose elements changed since.
    func writeBackLists() {
        let lists = handedOutLists
        handedOutLists = []
        for handed in lists {
            guard let links = links(of: handed.list), links != handed.links else { continue }
            recording { try handed.object.setValue(.list(links), forKey: handed.property) }
        }
    }
}

extension MigrationObject {
    /// A list-of-objects property as a typed list, when the migration has ``MigrationObjectLists``.
    func objectList(_ property: String, _ value: Value) throws -> AnyObject? {
        guard let lists = migration.objectLists, case .list(let items) = value,
            let definition = objectSchema.property(named: property), definition.type == .object
        else { return nil }
        var objects: [MigrationObject] = []
        for case .link(let link) in items {
            if isOld {
                guard let object = try migration.old.object(link.className, link.key) else { continue }
                objects.append(
                    MigrationObject(migration: migration, snapshot: object, schema: migration.oldSchema[link.className])
                )
            } else {
                objects.append(MigrationObject(migration: migration, className: link.className, key: link.key))
            }
        }
        let list = lists.make(objects)
        if !isOld {
            migration.handedOutLists.append(
                HandedOutList(object: self, property: property, list: list, links: migration.links(of: list) ?? []))
        }
        return list
    }
}
