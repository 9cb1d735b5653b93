/// Realm's `Numeric` conformance of `Decimal128` and its stride and limit members.
extension Decimal128: Numeric {
    /// The value of an integer when Decimal128 holds it exactly (every `Int64` and smaller; a
    /// larger integer when its 34 significant digits suffice), else nil.
    public init?<T: BinaryInteger>(exactly source: T) {
        if let small = Int64(exactly: source) {
            self.init(small)
            return
        }
        guard let parsed = try? Decimal128(string: String(source)), parsed.description == String(source) else {
            return nil
        }
        self = parsed
    }

    /// The smallest finite value, -9999999999999999999999999999999999E+6111.
    public static var min: Decimal128 { Decimal128(high: 0xDFFF_ED09_BEAD_87C0, low: 0x378D_8E63_FFFF_FFFF) }

    /// The largest finite value, 9999999999999999999999999999999999E+6111.
    public static var max: Decimal128 { Decimal128(high: 0x5FFF_ED09_BEAD_87C0, low: 0x378D_8E63_FFFF_FFFF) }

    /// The type of the distance between two values (Realm's `Decimal128.Stride`).
    public typealias Stride = Decimal128

    /// `other - self`.
    public func distance(to other: Decimal128) -> Decimal128 { other - self }

    /// `self + n`.
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }

    /// Whether the value is a signaling NaN (Realm's name for ``isSignalingNaN``).
    public var isSignaling: Bool { isSignalingNaN }
}

extension Decimal128: SignedNumeric {
    /// Replaces the value with its additive inverse (Realm's `negate()`; a NaN stays as it is).
    public mutating func negate() { self = -self }
}
