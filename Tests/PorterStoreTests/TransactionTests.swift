import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

private struct Boom: Error {}

@Suite("Write transactions")
struct TransactionTests {
    @Test("Every write outside a write transaction is refused and writes nothing")
    func writeOutsideTransaction() throws {
        let db = try petDatabase()
        let rex = try db.write { try db.create("Dog", ["name": .string("Rex")]) }
        let before = try dump(db)
        let attempts: [(String, () throws -> Void)] = [
            ("create", { _ = try db.create("Dog", ["name": .string("Fido")]) }),
            ("createInBulk", { _ = try db.createInBulk("Dog", ["name": .string("Fido")]) }),
            ("set", { try db.set("Dog", rex, "age", .int(3)) }),
            ("update", { try db.update("Dog", rex, ["age": .int(3)]) }),
            ("delete", { try db.delete("Dog", rex) }),
            ("deleteAll", { try db.deleteAll("Dog") }),
            ("replaceStoredSchema", { try db.replaceStoredSchema(petSchema(version: 9)) }),
            (
                "appendHistory",
                {
                    try db.appendHistory(
                        .init(
                            fromVersion: 0, toVersion: 1, planChecksum: nil, appliedAt: "now", porterVersion: "x",
                            summary: ""))
                }
            ),
        ]
        for (name, attempt) in attempts {
            let error = expectPorterError(.notInWriteTransaction, attempt)
            #expect(error?.message == "cannot modify the database outside a write transaction", "\(name)")
        }
        #expect(try dump(db) == before)
        #expect(!db.isInWriteTransaction)
    }

    @Test("An error thrown inside write {} rolls everything back and leaves the file unchanged")
    func errorRollsBack() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("db.porter")
        do {
            let db = try Database.create(at: path, schema: petSchema())
            try db.write { try db.create("Person", ["name": .string("Ann")]) }
        }
        let before = try fileBytes(path)
        do {
            let db = try Database.open(at: path, schema: petSchema())
            let snapshot = try dump(db)
            #expect(throws: Boom.self) {
                try db.write {
                    let rex = try db.create("Dog", ["name": .string("Rex")])
                    let ann = try #require(try db.key("Person", primaryKey: .string("Ann")))
                    try db.update(
                        "Person", ann,
                        [
                            "age": .int(40), "dogs": .list([.link(ObjectLink("Dog", rex))]),
                            "address": .object(["street": .string("Elm")]),
                        ])
                    try db.create("Person", ["name": .string("Bob")])
                    throw Boom()
                }
            }
            #expect(!db.isInWriteTransaction)
            #expect(try dump(db) == snapshot)
            #expect(try db.count("Dog") == 0)
            #expect(try db.count("Person") == 1)

            // A PorterError from an operation rolls back the same way.
            let error = expectPorterError(.duplicatePrimaryKey) {
                try db.write {
                    try db.create("Dog", ["name": .string("Rex")])
                    try db.create("Person", ["name": .string("Ann")])
                }
            }
            #expect(error?.location == "Person.name")
            #expect(try dump(db) == snapshot)
        }
        #expect(try fileBytes(path) == before)
        #expect(sideFiles(path).isEmpty)
    }

    @Test("cancelWrite rolls back, commitWrite persists")
    func explicitTransactions() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("db.porter")
        do {
            let db = try Database.create(at: path, schema: petSchema())
            try db.beginWrite()
            #expect(db.isInWriteTransaction)
            try db.create("Dog", ["name": .string("Gone")])
            db.cancelWrite()
            #expect(!db.isInWriteTransaction)
            #expect(try db.count("Dog") == 0)

            try db.beginWrite()
            try db.create("Dog", ["name": .string("Kept")])
            // Reads inside the transaction see its own changes.
            #expect(try db.count("Dog") == 1)
            #expect(try db.read { try db.count("Dog") } == 1)
            try db.commitWrite()
            #expect(!db.isInWriteTransaction)
            expectPorterError(.usage) { try db.commitWrite() }
            db.cancelWrite()  // Nothing open: a no-op.
        }
        let db = try Database.open(at: path)
        #expect(try db.keys("Dog", where: "name", equals: .string("Kept")).count == 1)
        #expect(try db.keys("Dog", where: "name", equals: .string("Gone")).isEmpty)
    }

    @Test("Nested beginWrite is a usage error and keeps the outer transaction intact")
    func nestedBeginWrite() throws {
        let db = try petDatabase()
        try db.beginWrite()
        try db.create("Dog", ["name": .string("Rex")])
        let error = expectPorterError(.usage) { try db.beginWrite() }
        #expect(error?.message == "a write transaction is already open on this database")
        #expect(db.isInWriteTransaction)
        try db.create("Dog", ["name": .string("Fido")])
        try db.commitWrite()
        #expect(try db.count("Dog") == 2)

        // write {} inside write {}: the inner one fails, the outer one rolls back.
        expectPorterError(.usage) {
            try db.write {
                try db.create("Dog", ["name": .string("Inner")])
                try db.write { _ = try db.create("Dog", ["name": .string("Nested")]) }
            }
        }
        #expect(!db.isInWriteTransaction)
        #expect(try db.count("Dog") == 2)
    }

    @Test("A failing create inside a write transaction leaves no partial rows; earlier work stays")
    func savepointPerOperation() throws {
        let db = try petDatabase()
        try db.write {
            try db.create("Dog", ["name": .string("Rex")])
            try db.create("Person", ["name": .string("Ann")])
        }
        try db.beginWrite()
        let fido = try db.create("Dog", ["name": .string("Fido")])
        let afterEarlierWork = try dump(db)

        // Fails at the set, after the row, the embedded address, its geo, the linked dog and the list were written.
        let error = expectPorterError(.constraintViolation) {
            try db.create(
                "Person",
                [
                    "name": .string("Bob"),
                    "address": .object([
                        "street": .string("Elm"), "geo": .object(["lat": .double(1), "lon": .double(2)]),
                    ]),
                    "dog": .link(ObjectLink("Dog", fido)),
                    "dogs": .list([.link(ObjectLink("Dog", fido))]),
                    "pets": .list([.object(["kind": .string("cat")])]),
                    "scores": .map(["a": .int(1)]),
                    "tags": .set([.string("x"), .string("y"), .string("x")]),
                ])
        }
        #expect(error?.message == "duplicate set element 'x'")
        #expect(error?.location == "Person.tags")
        #expect(try dump(db) == afterEarlierWork)

        // Nested top-level objects created inline are rolled back too.
        expectPorterError(.notFound) {
            try db.create(
                "Person",
                [
                    "name": .string("Cy"),
                    "dogs": .list([
                        .object(["name": .string("Inline")]),
                        .link(ObjectLink("Dog", ObjectKey(999))),
                    ]),
                ])
        }
        #expect(try dump(db) == afterEarlierWork)

        // A failing update and a failing set roll back their own partial changes only.
        let ann = try #require(try db.key("Person", primaryKey: .string("Ann")))
        expectPorterError(.invalidValue) {
            try db.update("Person", ann, ["age": .int(5), "nickname": .string("A"), "extra": .object([:])])
        }
        #expect(try dump(db) == afterEarlierWork)

        try db.commitWrite()
        #expect(try db.count("Dog") == 2)
        #expect(try db.count("Person") == 1)
        #expect(try db.count("Address") == 0)
        #expect(try db.value("Person", ann, "age") == .int(0))
    }

    @Test("read {} sees one consistent snapshot and returns its value")
    func readBlock() throws {
        let db = try petDatabase()
        try db.write { for i in 0..<5 { try db.create("Dog", ["name": .string("d\(i)")]) } }
        let (count, names) = try db.read {
            var names: [String] = []
            try db.enumerate("Dog") { if case .string(let n)? = $0["name"] { names.append(n) } }
            return (try db.count("Dog"), names)
        }
        #expect(count == 5)
        #expect(names == ["d0", "d1", "d2", "d3", "d4"])
        #expect(!db.connection.inTransaction)
    }

    @Test("A second connection cannot write while the first holds the write lock")
    func busyWriter() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("db.porter")
        let first = try Database.create(at: path, schema: petSchema())
        let second = try Database.open(at: path, busyTimeout: 0.05)
        try first.beginWrite()
        try first.create("Dog", ["name": .string("Rex")])
        expectPorterError(.busy) { try second.beginWrite() }
        // Opening the file while a write is in progress works and sees the committed state.
        let third = try Database.open(at: path, schema: petSchema(), busyTimeout: 0.05)
        #expect(try third.count("Dog") == 0)
        #expect(!second.isInWriteTransaction)
        // Readers still see the last committed state.
        #expect(try second.count("Dog") == 0)
        try first.commitWrite()
        #expect(try second.count("Dog") == 1)
        try second.write { _ = try second.create("Dog", ["name": .string("Fido")]) }
        #expect(try first.count("Dog") == 2)
    }
}
