import Foundation

/// The live collections of a realm, as Realm's `RealmCollection`: `Results`, `List`,
/// `MutableSet` and `LinkingObjects`, for code generic over them.
public protocol RealmCollection: RandomAccessCollection, CustomStringConvertible where Index == Int {
    /// The realm of the collection, or nil while unmanaged.
    var realm: Realm? { get }
    /// Observes the collection; see ``RealmCollectionChange``.
    func observe(
        keyPaths: [String]?, on queue: DispatchQueue?,
        _ block: @escaping (RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken
}

extension Results: RealmCollection {}
extension List: RealmCollection {}
extension MutableSet: RealmCollection {}
extension LinkingObjects: RealmCollection {}

/// Any ``RealmCollection`` of `Element`s behind one type, as Realm's `AnyRealmCollection`
/// (for properties and data sources that take results or a list alike).
public struct AnyRealmCollection<Element>: RealmCollection {
    private let countOf: () -> Int
    private let elementAt: (Int) -> Element
    private let realmOf: () -> Realm?
    private let observer:
        ([String]?, DispatchQueue?, @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) ->
            NotificationToken
    private let describe: () -> String

    /// Wraps a collection.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        countOf = { base.count }
        elementAt = { base[$0] }
        realmOf = { base.realm }
        describe = { base.description }
        observer = { keyPaths, queue, block in
            base.observe(keyPaths: keyPaths, on: queue) { change in
                switch change {
                case .initial(let c): block(.initial(AnyRealmCollection(c)))
                case .update(let c, let d, let i, let m):
                    block(.update(AnyRealmCollection(c), deletions: d, insertions: i, modifications: m))
                case .error(let error): block(.error(error))
                }
            }
        }
    }

    /// The position of the first element.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { countOf() }
    /// The element at `position`.
    public subscript(position: Int) -> Element { elementAt(position) }
    /// The realm of the wrapped collection.
    public var realm: Realm? { realmOf() }
    /// The wrapped collection's description.
    public var description: String { describe() }

    /// Observes the wrapped collection.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void
    ) -> NotificationToken {
        observer(keyPaths, queue, block)
    }
}
