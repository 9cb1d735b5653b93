import Foundation
import PorterModel
import Testing

@testable import PorterRealmFile

/// Dynamic objects (issue #38: what an app reads once its Realm model classes are gone), on the
/// writer's golden `Fixtures/realm/written/links.realm`, whose content `links.fixture.json` states.
@Suite struct DynamicObjectTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/realm/written/links.realm").path

    /// The P object whose primary key is `id`.
    static func person(_ realm: RealmFile, id: Int64) throws -> DynamicObject {
        var found: DynamicObject?
        try realm.forEachDynamicObject(ofClass: "P") { if $0["id"] == .int(id) { found = $0 } }
        return try #require(found, "P \(id)")
    }

    @Test func propertiesByNameAndLinksFollowed() throws {
        let realm = try RealmFile(path: Self.file)
        let p7 = try Self.person(realm, id: 7)
        #expect(p7.className == "P")
        #expect(p7["name"] == .string("p7"))
        let tags = try #require(p7["tags"])
        guard case .set(let items) = tags else { throw PorterError(.invalidValue, "tags: \(tags)") }
        #expect(Set(items.compactMap { if case .string(let s) = $0 { s } else { nil } }) == ["a", "b", "c"])
        #expect(p7["nope"] == nil)
        // A link: P.dog -> D with n = 1, whose owner is P 7 again.
        let dog = try #require(try p7.linked("dog"))
        #expect(dog.className == "D")
        #expect(dog["n"] == .int(1))
        #expect(try dog.linked("owner")?["name"] == .string("p7"))
        // A self link and a null link.
        #expect(try p7.linked("self")?["id"] == .int(7))
        #expect(try Self.person(realm, id: 2).linked("dog") == nil)
        // A list of links, in order, duplicates kept: dogs = [0, 1, 0] -> n = 1, 2, 1.
        #expect(try p7.linkedList("dogs").map { $0?["n"] } == [.int(1), .int(2), .int(1)])
        // An embedded object and the link inside it: e = {x: 1, inner: {y: "deep"}, back: 2}.
        let e = try #require(try p7.embedded("e"))
        #expect(e.className == "E" && e["x"] == .int(1))
        #expect(try e.embedded("inner")?["y"] == .string("deep"))
        #expect(try e.linked("back")?["name"] == .string("p2"))
        #expect(try Self.person(realm, id: 2).embedded("e") == nil)
    }

    @Test func objectsByKeyAndEveryObjectOfAClass() throws {
        let realm = try RealmFile(path: Self.file)
        var names: [String] = []
        try realm.forEachDynamicObject(ofClass: "P") { if case .string(let n)? = $0["name"] { names.append(n) } }
        #expect(names.sorted() == ["p-5", "p2", "p7"])
        let p7 = try Self.person(realm, id: 7)
        #expect(try realm.dynamicObject(ofClass: "P", key: p7.key)?["name"] == .string("p7"))
        #expect(try realm.dynamicObject(ofClass: "P", key: 1_000_000) == nil)
    }

    /// Each wrong use names the class, the property and what it is not.
    @Test func wrongUsesAreNamed() throws {
        let realm = try RealmFile(path: Self.file)
        let p7 = try Self.person(realm, id: 7)
        let cases: [(() throws -> Void, String)] = [
            ({ _ = try p7.linked("name") }, "P.name is not a link"),
            ({ _ = try p7.linkedList("ints") }, "P.ints is not a list or set of links"),
            ({ _ = try p7.embedded("dog") }, "P.dog is not an embedded object"),
            ({ _ = try p7.linked("nope") }, "P has no property 'nope'"),
            ({ _ = try realm.dynamicObject(ofClass: "Nope", key: 0) }, "no class 'Nope' in the file"),
        ]
        for (call, message) in cases {
            let error = try #require(throws: PorterError.self) { try call() }
            #expect(error.message == message)
            #expect(error.location == Self.file)
        }
    }
}
