/// Source keys to realm-core object keys for link targets.
struct WriterKeyResolver {
    /// Classes with a primary key: source key -> position in the source's order.
    var positional: [Int: [Int64: Int64]] = [:]
    /// Classes without one: their keys, sorted (the key is kept).
    var kept: [Int: [Int64]] = [:]
    /// Every key stays as it is (a rewrite of a Realm file, whose links are already object keys).
    var keepsAllKeys = false

    func resolve(table: Int, sourceKey: Int64) -> Int64? {
        if keepsAllKeys { return sourceKey }
        if let map = positional[table] { return map[sourceKey] }
        if let keys = kept[table] {
            var lo = 0, hi = keys.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if keys[mid] < sourceKey { lo = mid + 1 } else { hi = mid }
            }
            return lo < keys.count && keys[lo] == sourceKey ? sourceKey : nil
        }
        return nil
    }
}
