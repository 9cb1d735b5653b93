import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// A model with nanosecond dates and mixed values that nest.
final class NanoNote: Object {
    @Persisted(primaryKey: true) var _id: Int
    @Persisted var when: Timestamp
    @Persisted var whenDate: Date
    @Persisted var extra: AnyRealmValue
    @Persisted var extras: List<AnyRealmValue>
}

/// A link target for nested values.
final class NanoTag: Object {
    @Persisted(primaryKey: true) var name: String
}

/// The typed API: `AnyRealmValue.list` / `.dictionary` (RealmSwift 10.51) as value snapshots,
/// nanosecond `Timestamp` properties, and `Date` properties rounded to the nearest nanosecond.
@Suite struct NestedAnyRealmValueTests {
    func realm() throws -> Realm { try memoryRealm([NanoNote.self, NanoTag.self]) }

    @Test func nestedListsAndDictionariesRoundTripWithLinks() throws {
        let realm = try realm()
        let tag = NanoTag()
        tag.name = "red"
        let note = NanoNote()
        note._id = 1
        note.extra = .list(
            List([
                .int(1), .string("a"),
                .dictionary(Map(["tag": .object(tag), "deep": .list(List([.list(List([.double(2.5)]))]))])),
            ]))
        note.extras.append(.dictionary(Map(["k": .none])))
        try realm.write { try realm.add(note) }
        #expect(realm.objects(NanoTag.self).count == 1, "the unmanaged object inside the nested value was added")

        let stored = try #require(realm.object(ofType: NanoNote.self, forPrimaryKey: 1))
        let list = try #require(stored.extra.listValue)
        #expect(list.count == 3)
        #expect(list[0] == .int(1) && list[1] == .string("a"))
        let dictionary = try #require(list[2].dictionaryValue)
        #expect(dictionary["tag"]?.object(NanoTag.self)?.name == "red")
        #expect(dictionary["tag"]?.object(NanoTag.self)?.realm != nil, "a nested link reads as the managed object")
        #expect(dictionary["deep"]?.listValue?[0].listValue?.elements == [.double(2.5)])
        #expect(stored.extras[0].dictionaryValue?.dictionary == ["k": AnyRealmValue.none])
        #expect(stored.extra.intValue == nil && stored.extra.dictionaryValue == nil)
    }

    @Test func nestedCollectionsAreSnapshotsWrittenBackOnAssignment() throws {
        let realm = try realm()
        let note = NanoNote()
        note._id = 1
        note.extra = .list(List([.int(1)]))
        try realm.write { try realm.add(note) }
        let snapshot = try #require(note.extra.listValue)
        snapshot.append(.int(2))
        #expect(note.extra.listValue?.elements == [.int(1)], "changing the snapshot changes nothing stored")
        try realm.write { note.extra = .list(snapshot) }
        #expect(note.extra.listValue?.elements == [.int(1), .int(2)])
        try realm.write { note.extra = .dictionary(Map(["a": .bool(true)])) }
        #expect(note.extra == .dictionary(Map(["a": .bool(true)])))
        #expect(note.extra != .dictionary(Map(["a": .bool(false)])))
    }

    @Test func invalidNestedKeysAreRefusedWithTheirPlace() throws {
        let realm = try realm()
        let note = NanoNote()
        note._id = 1
        try realm.write { try realm.add(note) }
        let error = expectPorterError(.constraintViolation) {
            try realm.write { note.extra = .list(List([.dictionary(Map(["a.b": .int(1)]))])) }
        }
        #expect(error?.location == "NanoNote.extra[0]")
        #expect(note.extra == AnyRealmValue.none)
    }

    @Test func timestampsKeepNanosecondsAndSortByTime() throws {
        let realm = try realm()
        let base = Timestamp(seconds: 1_700_000_000, nanoseconds: 0)
        let instants = [3, 1, -1, 2, 0].map { Timestamp(seconds: base.seconds, nanoseconds: Int32($0)) }
        try realm.write {
            for (i, t) in instants.enumerated() {
                let note = NanoNote()
                note._id = i
                note.when = t
                try realm.add(note)
            }
        }
        let notes = realm.objects(NanoNote.self)
        #expect(notes.sorted(byKeyPath: "when").map(\.when) == instants.sorted())
        #expect(notes.sorted(by: \.when, ascending: false).map(\._id) == [0, 3, 1, 4, 2])
        #expect(notes.where { $0.when > base }.map(\._id) == [0, 1, 3])
        #expect(notes.where { $0.when == Timestamp(seconds: base.seconds, nanoseconds: 2) }.map(\._id) == [3])
        #expect(
            Timestamp(seconds: base.seconds, nanoseconds: -1)
                == Timestamp(seconds: base.seconds - 1, nanoseconds: 999_999_999))
    }

    @Test func datePropertiesRoundToTheNearestNanosecondAndReadBackExactly() throws {
        let realm = try realm()
        // 2023-11-14T22:13:20.123456789…: a Double cannot hold it exactly; the stored value is
        // the nearest nanosecond of the Double, and reading gives the same Double back.
        let date = Date(timeIntervalSince1970: 1_700_000_000.123456789)
        let note = NanoNote()
        note._id = 1
        note.whenDate = date
        try realm.write { try realm.add(note) }
        #expect(note.whenDate == date)
        let stored = try realm.database.value(
            "NanoNote", try #require(try realm.database.key("NanoNote", primaryKey: .int(1))), "whenDate")
        guard case .date(let t) = stored else { Issue.record("not a date: \(stored)"); return }
        #expect(t.seconds == 1_700_000_000)
        #expect(abs(Int(t.nanoseconds) - 123_456_789) <= 120, "within half a Double step (about 119 ns here): \(t)")
        #expect(t == Timestamp(date))
    }
}
