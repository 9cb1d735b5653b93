import Foundation
import Testing
import RealmSwift

// Model-declaration patterns Realm's own test models rely on: implicitly unwrapped optionals,
// custom and convenience initializers, property observers, optional objects in maps, enums as
// primary keys, protocols over model classes.

enum Level: Int, Codable, PersistableEnum {
    case low = 1, mid = 3, high = 5
}

class Gadget: Object {
    @Persisted(primaryKey: true) var code: Level
    @Persisted var label: String!
    @Persisted var made: Date!
    @Persisted var parts: Map<String, Gadget?>
    @Persisted var counter: Int {
        didSet { observedSets += 1 }
    }
    var observedSets = 0
    var ignoredCache = [String]()
}

class Labelled: Object {
    @Persisted var text: String

    init(text: String) {
        self.text = text
        super.init()
    }

    required override init() {
        text = ""
        super.init()
    }
}

class Tagged: Object {
    @Persisted var tag = ""

    convenience init(tag: String) {
        self.init()
        self.tag = tag
    }
}

protocol Keyed: Object {
    associatedtype Key: Equatable
    var code: Key { get set }
}

extension Gadget: Keyed {}

@Suite struct ModelPatternTests {
    @Test func declarationPatternsWork() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "patterns-\(UUID())",
                objectTypes: [Gadget.self, Labelled.self, Tagged.self]))
        #expect(realm.schema["Gadget"]?["label"]?.isOptional == true)
        #expect(realm.schema["Gadget"]?["ignoredCache"] == nil && realm.schema["Gadget"]?.primaryKey == "code")
        let gadget = Gadget()
        gadget.code = .mid
        gadget.label = "dial"
        gadget.counter = 2
        #expect(gadget.observedSets == 1)
        let part = Gadget()
        part.code = .high
        gadget.parts["knob"] = part
        gadget.parts["empty"] = .some(nil)
        try realm.write {
            realm.add(gadget)
            realm.add(Labelled(text: "custom"))
            realm.add(Tagged(tag: "convenience"))
        }
        let stored = try #require(realm.object(ofType: Gadget.self, forPrimaryKey: Level.mid))
        #expect(stored.label == "dial" && stored.made == nil && stored.counter == 2)
        #expect(stored.parts["knob"]??.code == .high && stored.parts.count == 2)
        #expect(realm.objects(Labelled.self).first?.text == "custom")
        #expect(realm.objects(Tagged.self).first?.tag == "convenience")
        func codeOf<T: Keyed>(_ object: T) -> T.Key { object.code }
        #expect(codeOf(stored) == .mid)
    }
}
