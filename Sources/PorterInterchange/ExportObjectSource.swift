import Foundation
import PorterModel
import PorterQuery
import PorterStore

/// The objects of one top-level class as an export reads them, whatever file holds them (a Porter
/// database or a Realm file), so that both go through the same mapping rules and give the same bytes.
///
/// Values come in the order of ``properties`` (stored properties, schema order). A link to a
/// top-level class arrives as what an export writes for it: the target's primary-key value, or its
/// object key as `.int` when the target has no primary key. An embedded object arrives as a `.link`
/// that ``embedded(_:)`` resolves; a link held by a `mixed` stays a `.link`, exported through
/// ``exportedKey(of:)``.
package protocol ExportObjectSource: AnyObject {
    /// Stored properties in schema order (parallel to the values passed to `forEachObject`).
    var properties: [Property] { get }
    /// Calls `body` with each object's key and values, in object-key order.
    func forEachObject(_ body: (ObjectKey, [Value]) throws -> Void) throws
    /// The values of the object `key` (same conventions), or nil when it does not exist; what
    /// ``embedded(_:)`` answers is then that object's.
    func object(at key: ObjectKey) throws -> [Value]?
    /// An embedded object's stored properties and values, or nil when absent.
    func embedded(_ link: ObjectLink) throws -> (properties: [Property], values: [Value])?
    /// What an export writes for a link held by a mixed value.
    func exportedKey(of link: ObjectLink) throws -> Value
}

/// Objects an export reads from a file that is not a Porter database (a Realm file: PorterRealm),
/// which is one consistent snapshot already.
package protocol ExportOrigin {
    /// The objects of one top-level class.
    func source(for cls: ObjectSchema) throws -> any ExportObjectSource
    /// What `--query` and dotted `--fields` read the file's objects through.
    func queryReader() -> any QueryObjectReader
}

extension ExportCursor: ExportObjectSource {
    package func forEachObject(_ body: (ObjectKey, [Value]) throws -> Void) throws {
        while try next() { try body(key, values) }
    }

    package func object(at key: ObjectKey) throws -> [Value]? { try seek(key) ? values : nil }
}
