import PorterCSQLite
import PorterModel

/// How new objects get their keys without `AUTOINCREMENT`, keeping Realm's rule that an object key
/// is never given to another object, even after the object holding it was deleted.
///
/// Class tables made by older Porters are `_key INTEGER PRIMARY KEY AUTOINCREMENT`: SQLite keeps
/// their high-water mark in `sqlite_sequence`, which costs a read and a write of that table on
/// every INSERT (a third of SQLite's work for a flat object). Newer tables are plain
/// `INTEGER PRIMARY KEY` tables, where SQLite gives a new row the largest key plus one: that
/// reuses the keys of the newest objects once they are deleted. So a transaction that deletes
/// objects of such a class stores the class's key floor (one more than the largest key it ever
/// gave) in `_porter_meta` (`nextKey.<class>`) when it commits, and an insert takes the floor as
/// its explicit key whenever the table's largest key may be below it (the first insert of a
/// class after a delete of its newest object); otherwise SQLite's own choice is the floor.
struct ObjectKeyAllocation {
    /// ``Database/keyTransaction`` the state belongs to (0: none yet).
    var transaction = 0
    /// ``Database/rollbackEpoch`` when ``tailIsFloor`` was last known.
    var epoch = 0
    /// Whether the table is an `AUTOINCREMENT` one (SQLite keeps the floor); nil: not looked up yet.
    var autoincrement: Bool?
    /// The smallest key a new object may take.
    var floor: Int64 = 1
    /// Whether the table's largest key is `floor - 1`, so SQLite's own choice is the floor.
    var tailIsFloor = false
}

extension Database {
    /// The `_porter_meta` key of a class's key floor.
    static func keyFloorMetaKey(_ className: String) -> String { "nextKey." + className }

    /// The key to give the next object of `plan` explicitly, or nil when SQLite's own choice
    /// (the largest key plus one, or `AUTOINCREMENT`'s) is right.
    func explicitObjectKey(_ plan: ClassPlan) throws -> Int64? {
        if plan.keys.transaction == keyTransaction, plan.keys.epoch == rollbackEpoch {
            return plan.keys.autoincrement == true || plan.keys.tailIsFloor ? nil : plan.keys.floor
        }
        try loadKeyAllocation(plan)
        return plan.keys.autoincrement == true || plan.keys.tailIsFloor ? nil : plan.keys.floor
    }

    /// ``explicitObjectKey(_:)`` for inserts written outside this module (a migration's copies).
    package func explicitObjectKey(forNew className: String) throws -> Int64? {
        try explicitObjectKey(plan(for: className))
    }

    /// ``noteObjectInserted(_:_:)`` for inserts written outside this module.
    package func noteObjectInserted(_ className: String, _ key: Int64) throws {
        noteObjectInserted(try plan(for: className), key)
    }

    /// Records that an object of `plan` was inserted under `key`.
    func noteObjectInserted(_ plan: ClassPlan, _ key: Int64) {
        guard plan.keys.transaction == keyTransaction, plan.keys.epoch == rollbackEpoch else { return }
        if key >= plan.keys.floor {
            plan.keys.floor = key &+ 1
            plan.keys.tailIsFloor = true
        }
    }

    /// Records that the object `key` of `plan` is being deleted: its key stays retired.
    func noteObjectDeleted(_ plan: ClassPlan, _ key: Int64) throws {
        if plan.keys.transaction != keyTransaction || plan.keys.epoch != rollbackEpoch { try loadKeyAllocation(plan) }
        if plan.keys.autoincrement == true { return }
        if key >= plan.keys.floor - 1 {
            plan.keys.floor = max(plan.keys.floor, key &+ 1)
            plan.keys.tailIsFloor = false
        }
        retiredKeyFloors[plan.schema.name] = max(retiredKeyFloors[plan.schema.name] ?? 1, plan.keys.floor)
    }

    /// Records that every object of `className` is about to be deleted by plain SQL (a migration).
    package func retireAllObjectKeys(_ className: String) throws {
        let plan = try plan(for: className)
        try loadKeyAllocation(plan)
        if plan.keys.autoincrement == true { return }
        plan.keys.tailIsFloor = false
        retiredKeyFloors[className] = max(retiredKeyFloors[className] ?? 1, plan.keys.floor)
    }

    /// Reads the key state of `plan` for this transaction: within one transaction the floor only
    /// grows (a savepoint rolled back keeps it: skipping keys is harmless, reusing them is not).
    private func loadKeyAllocation(_ plan: ClassPlan) throws {
        if plan.keys.autoincrement == nil {
            let sql = try connection.cached("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
            defer { sql.reset() }
            sql.bind(1, text: StorageLayout.table(plan.schema.name))
            plan.keys.autoincrement = try sql.step() && sql.text(0).uppercased().contains("AUTOINCREMENT")
        }
        let largest = try connection.cached("SELECT max(_key) FROM \(plan.table)")
        defer { largest.reset() }
        let next = try largest.step() && largest.type(0) != SQLITE_NULL ? largest.int64(0) &+ 1 : 1
        var floor = max(next, retiredKeyFloors[plan.schema.name] ?? 1)
        if plan.keys.transaction == keyTransaction { floor = max(floor, plan.keys.floor) }
        if plan.keys.autoincrement == false, let stored = try storedKeyFloor(plan.schema.name) {
            floor = max(floor, stored)
        }
        plan.keys.transaction = keyTransaction
        plan.keys.epoch = rollbackEpoch
        plan.keys.floor = floor
        plan.keys.tailIsFloor = next == floor
    }

    private func storedKeyFloor(_ className: String) throws -> Int64? {
        let stmt = try connection.cached("SELECT value FROM _porter_meta WHERE key = ?")
        defer { stmt.reset() }
        stmt.bind(1, text: Database.keyFloorMetaKey(className))
        guard try stmt.step(), stmt.type(0) == SQLITE_INTEGER else { return nil }
        return stmt.int64(0)
    }

    /// Starts the key state of a new write transaction.
    func beginKeyTransaction() {
        keyTransaction &+= 1
        retiredKeyFloors = [:]
    }

    /// Stores the key floors of the classes this transaction deleted objects of (before COMMIT).
    func storeRetiredKeyFloors() throws {
        guard !retiredKeyFloors.isEmpty else { return }
        let write = try connection.cached("INSERT OR REPLACE INTO _porter_meta (key, value) VALUES (?, ?)")
        for (className, floor) in retiredKeyFloors.sorted(by: { $0.key < $1.key }) {
            if let stored = try storedKeyFloor(className), stored >= floor { continue }
            write.bind(1, text: Database.keyFloorMetaKey(className))
            write.bind(2, int: floor)
            try write.run()
        }
        retiredKeyFloors = [:]
    }
}
