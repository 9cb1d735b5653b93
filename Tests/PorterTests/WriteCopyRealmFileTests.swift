import Foundation
import Porter
import Testing
import PorterTestSupport

/// `realm.writeCopy(toFile:format: .realmFile)`: a bundled Realm file built from typed models.
@Suite struct WriteCopyRealmFileTests {
    final class Shelf: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var label = ""
        @Persisted var books: List<Book>
    }
    final class Book: Object {
        @Persisted var title = ""
        @Persisted var published: Date?
        @Persisted var tags: MutableSet<String>
    }

    @Test func aTypedRealmWritesARealmFileThatReadsBack() throws {
        let tmp = try TemporaryFolder("writecopy")
        let dir = tmp.url
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "writecopy-\(UUID().uuidString)", objectTypes: [Shelf.self, Book.self]))
        try realm.write {
            let shelf = Shelf()
            shelf.label = "Fiction"
            for title in ["Dune", "Emma"] {
                let book = Book()
                book.title = title
                book.published = Date(timeIntervalSince1970: 1_000_000)
                book.tags.insert("classic")
                shelf.books.append(book)
            }
            realm.add(shelf)
        }
        let url = dir.appendingPathComponent("bundled.realm")
        try realm.writeCopy(toFile: url, format: .realmFile)
        let file = try RealmFile(path: url.path)
        #expect(file.fileFormat == 24)
        let shelf = try #require(file.table(named: "Shelf"))
        var labels: [RealmValue] = []
        try file.forEachObject(in: shelf) {
            labels.append($0.values[shelf.properties.firstIndex { $0.name == "label" }!])
        }
        #expect(labels == [.string("Fiction")])
        let books = try #require(file.table(named: "Book"))
        #expect(try file.objectCount(in: books) == 2)
        #expect(try file.check().isEmpty)
        // Encrypted with a 64-byte key; never over an existing file.
        let key = Data((0..<64).map { UInt8($0) })
        let encrypted = dir.appendingPathComponent("encrypted.realm")
        try realm.writeCopy(toFile: encrypted, encryptionKey: key, format: .realmFile)
        #expect(try RealmFile(path: encrypted.path, encryptionKey: [UInt8](key)).isEncrypted)
        #expect(throws: PorterError.self) { try realm.writeCopy(toFile: url, format: .realmFile) }
    }
}
