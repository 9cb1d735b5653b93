import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing

/// Porter's Extended JSON against libbson's own reader, and round trips of links held inside
/// embedded objects, collections and mixed values.
@Suite struct CrossCheckTests {
    @Test func libbsonReadsOurExtendedJSONBackToOurBSON() throws {
        let db = try RoundTripTests.edgeDatabase()
        for className in ["AllTypes", "Dog", "Person", "Task"] {
            let bson = Array(try exportClass(db, className, format: "bson"))
            var documents: [[UInt8]] = []
            var offset = 0
            while offset + 4 <= bson.count {
                let length = Int(
                    UInt32(bson[offset]) | UInt32(bson[offset + 1]) << 8 | UInt32(bson[offset + 2]) << 16 | UInt32(
                        bson[offset + 3]) << 24)
                documents.append(Array(bson[offset..<(offset + length)]))
                offset += length
            }
            for canonical in [true, false] {
                let text = String(
                    decoding: try exportClass(db, className, format: canonical ? "ejson-canonical" : "ejson"),
                    as: UTF8.self)
                let lines = text.split(separator: "\n").map(String.init)
                #expect(lines.count == documents.count)
                for (line, document) in zip(lines, documents) {
                    let parsed = try BSONCodec.bson(fromExtendedJSON: line)
                    // Canonical mode keeps every type, so libbson must rebuild the very same
                    // document; relaxed mode writes int64 as plain numbers (read back as int32 by
                    // libbson, and as the schema's type by Porter), so it only has to parse.
                    if canonical { #expect(parsed == document, "\(className)") }
                }
            }
        }
    }

    @Test func linksInsideEmbeddedObjectsCollectionsAndMixedRoundTrip() throws {
        let db = try ImportBehaviourTests.database()
        #expect(
            importLines(
                db,
                #"""
                {"schemaVersion": 2,
                 "Node": [
                   {"_id": 1, "next": 2, "kids": [3, 2], "set": [3, 1], "map": {"a": 3, "b": null}, "any": {"$ref": "Tag", "$id": "t"},
                    "spot": {"to": 3, "label": "s"}, "spots": [{"to": 2}, {"label": "none"}], "tag": "t"},
                   {"_id": 2, "next": 1, "any": {"$ref": "Node", "$id": 1}},
                   {"_id": 3}],
                 "Tag": [{"_key": "t", "label": "T", "other": "u"}, {"_key": "u", "label": "U"}],
                 "Typed": [{"oid": [{"$oid": "5f1b2c3d4e5f6a7b8c9d0e1f"}], "dec": ["1.5"], "b": [true]}]}
                """#, name: "fixture.json"
            ).isEmpty)
        for format in ["bson", "json", "ejson", "ejson-canonical"] {
            let first = try exportFiles(db, format: format)
            let second = try exportFiles(try RoundTripTests.reimport(first), format: format)
            #expect(first == second, "\(format)")
        }
        let nodes = String(decoding: try exportClass(db, "Node", format: "json"), as: UTF8.self)
        #expect(
            nodes.hasPrefix(
                #"{"_id":1,"name":null,"next":2,"kids":[3,2],"set":[1,3],"map":{"a":3,"b":null},"any":{"$ref":"Tag","$id":1},"spot":{"to":3,"label":"s"},"spots":[{"to":2,"label":null},{"to":null,"label":"none"}],"n":7,"tag":1}"#
            ))
    }
}
