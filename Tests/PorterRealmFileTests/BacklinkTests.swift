import Foundation
import PorterModel
import PorterTestSupport
import Testing

@testable import PorterRealmFile

/// `RealmFile.backlinks`: linking objects read from the backlink columns realm-core keeps, equal
/// to what a scan of the origin property finds (one entry per link, in key order).
@Suite struct BacklinkTests {
    /// Per target key, the origin keys a scan of `originClass.originProperty` finds.
    static func scanned(_ file: RealmFile, _ backlink: RealmBacklink) throws -> [Int64: [Int64]] {
        let origin = try #require(file.table(named: backlink.originClass))
        var out: [Int64: [Int64]] = [:]
        func visit(_ value: RealmValue, _ owner: Int64) {
            switch value {
            case .link(let className, let key), .embedded(let className, let key, _):
                if className == backlink.targetClass { out[key, default: []].append(owner) }
            case .list(let elements), .set(let elements): for element in elements { visit(element, owner) }
            case .dictionary(let entries): for entry in entries { visit(entry.value, owner) }
            default: break
            }
        }
        try file.forEachValue(in: origin, property: backlink.originProperty) { visit($1, $0) }
        return out
    }

    static var files: [String] {
        var files = ["every-type.realm", "inner-nodes.realm"].map { Fixture.own($0) }
        if SharedRealmFiles.available,
            let shared = try? FileManager.default.contentsOfDirectory(atPath: SharedRealmFiles.folder.path)
        {
            files += shared.filter { $0.hasSuffix(".realm") && !$0.contains("encrypted") }.sorted().map(Fixture.shared)
        }
        return files
    }

    @Test func backlinkColumnsAgreeWithAScanOfEveryLinkProperty() throws {
        var checked = 0
        var many = 0
        for path in Self.files {
            guard let file = try? RealmFile(path: path) else { continue }  // refusals are other tests' subject
            for backlink in file.backlinks {
                guard let origin = file.table(named: backlink.originClass),
                    origin.properties.first(where: { $0.name == backlink.originProperty })?.type == .object,
                    let target = file.table(named: backlink.targetClass)
                else { continue }
                let expected = try Self.scanned(file, backlink)
                try file.forEachObject(in: target) { object in
                    let found = try file.backlinks(
                        in: target, key: object.key, originClass: backlink.originClass,
                        originProperty: backlink.originProperty)
                    #expect(
                        found == expected[object.key, default: []].sorted(),
                        "\(path): \(backlink.targetClass) \(object.key) from \(backlink.originClass).\(backlink.originProperty)"
                    )
                    checked += 1
                    if found.count > 1 { many += 1 }
                }
            }
        }
        #expect(checked > 20 && many > 0, "checked \(checked) objects, \(many) with several backlinks")
    }

    @Test func aListHoldingAnObjectTwiceGivesTwoBacklinks() throws {
        let file = try RealmFile(path: Fixture.own("every-type.realm"))
        let every = try #require(file.table(named: "Every"))
        let target = try #require(file.table(named: "Target"))
        var t1: Int64?
        try file.forEachObject(in: target) { object in
            if case .string("t1") = object.values[target.properties.firstIndex { $0.name == "name" }!] {
                t1 = object.key
            }
        }
        var one: Int64?
        try file.forEachObject(in: every) { object in
            if case .int(1) = object.values[every.properties.firstIndex { $0.name == "_id" }!] { one = object.key }
        }
        let keys = try file.backlinks(
            in: target, key: try #require(t1), originClass: "Every", originProperty: "targets")
        #expect(keys == [try #require(one), try #require(one)])
        #expect(try file.backlinks(in: target, key: 999_999, originClass: "Every", originProperty: "targets") == [])
    }

    @Test func aLinkThatDoesNotPointAtTheClassIsNotFound() throws {
        let file = try RealmFile(path: Fixture.own("every-type.realm"))
        let target = try #require(file.table(named: "Target"))
        for (origin, property) in [("Every", "plain"), ("Every", "string"), ("Nothing", "target"), ("Every", "none")] {
            let error = expectPorterError(.notFound) {
                _ = try file.backlinks(in: target, key: 0, originClass: origin, originProperty: property)
            }
            #expect(error?.message == "no link \(origin).\(property) points to class Target in this file")
        }
    }
}
