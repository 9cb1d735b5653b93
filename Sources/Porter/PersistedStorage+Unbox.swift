import Foundation

extension PersistedStorage {
    /// The unmanaged value held in ``boxed`` (only call when ``hasValue``).
    ///
    /// `boxed as! Value` went through the runtime's general `Any` cast each time (about 260
    /// instructions per property of an object added, most of the cost of reading it): the box
    /// always holds exactly a `Value` (see ``store(_:)``), so the opened value is taken as one when
    /// its type is `Value`, which is one comparison of type metadata. The cast stays as the fallback.
    @usableFromInline var unboxed: Value {
        Self.taken(boxed)  // The `Any` is opened: `Contained` is the type it holds.
    }

    /// `value` as a `Value`: reinterpreted when its type is exactly `Value`, cast otherwise.
    private static func taken<Contained>(_ value: Contained) -> Value {
        if Contained.self == Value.self { return unsafeBitCast(value, to: Value.self) }
        return value as! Value
    }
}
