extension RealmValue {
    /// Whether `other` is the same stored value: as `==`, except that NaN equals NaN (the same
    /// bits' meaning) inside floats, doubles, collections and embedded objects. How a rewritten
    /// file is compared with its source.
    package func isSameStoredValue(as other: RealmValue) -> Bool {
        switch (self, other) {
        case (.float(let x), .float(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.double(let x), .double(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.list(let x), .list(let y)), (.set(let x), .set(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.isSameStoredValue(as: $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count
                && zip(x, y).allSatisfy { $0.key == $1.key && $0.value.isSameStoredValue(as: $1.value) }
        case (.embedded(let c1, _, let x), .embedded(let c2, _, let y)):
            return c1 == c2 && x.count == y.count && zip(x, y).allSatisfy { $0.isSameStoredValue(as: $1) }
        default: return self == other
        }
    }
}
