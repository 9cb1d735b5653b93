/// What one read operation carries down the recursion (objects → collections → embedded
/// objects → nested mixed collections): the depth, and a budget of values.
///
/// The budget stops amplification: a corrupt file can point many parents at one shared subtree,
/// so the values read could grow far beyond what the bytes can hold. A real file stores at most
/// ~125 values per byte (1,000 all-zero values in an 8-byte zero-width leaf), and never shares a
/// subtree, so it never comes near 256 values per byte of the file.
struct Walk {
    let depth: Int
    let budget: Budget

    /// A fresh walk for one operation on the file mapped as `mem`.
    init(_ mem: Mem) {
        depth = 0
        budget = Budget(limit: 100_000 + 256 * mem.size)
    }

    private init(depth: Int, budget: Budget) {
        self.depth = depth
        self.budget = budget
    }

    /// One level down (an embedded object or a nested collection).
    func deeper() -> Walk { Walk(depth: depth + 1, budget: budget) }
}

/// The values an operation may still decode.
final class Budget {
    private var remaining: Int

    init(limit: Int) { remaining = limit }

    func spend(_ count: Int) throws(RealmFault) {
        remaining -= count
        guard remaining >= 0 else {
            throw RealmFault(
                "the file's structure repeats itself: it holds more values than its size allows (shared or cyclic subtrees); the file is corrupt"
            )
        }
    }
}
