import Foundation
import PorterModel
import Testing
@testable import PorterRealmFile

@Suite("Format-24 files made with realm-oracle (realm-core 14.14.0), compared with its dumps")
struct OracleFixtureTests {
    /// The key of `every-type-encrypted.realm`: bytes 100…163 (`REALM_ORACLE_KEY_HEX` 6465…a3).
    static let everyTypeKey: [UInt8] = (100..<164).map { UInt8($0) }

    @Test("dumps equal realm-oracle's", arguments: ["every-type", "inner-nodes"])
    func dumpsMatch(name: String) throws {
        let diff = try Fixture.compareDump(Fixture.own("\(name).realm"), Fixture.own("\(name).expected.json"))
        #expect(diff == nil, "\(diff?.0 ?? "")\n--- expected ---\n\(diff?.1 ?? "")")
    }

    @Test func encryptedEveryTypeMatches() throws {
        let file = try RealmFile(path: Fixture.own("every-type-encrypted.realm"), encryptionKey: Self.everyTypeKey)
        #expect(file.isEncrypted && file.fileFormat == 24)
        var expected = try Fixture.json(Fixture.own("every-type-encrypted.expected.json"))
        if case .object(var members) = expected, let i = members.firstIndex(where: { $0.key == "fileFormat" }) {
            members[i].value = .number(24)  // the oracle cannot read an encrypted header: it says 0
            expected = .object(members)
        }
        #expect(DumpCompare.normalizeDump(try OracleDump(file: file).document()) == DumpCompare.normalizeDump(expected))
    }

    @Test func edgeValuesExactly() throws {
        let file = try RealmFile(path: Fixture.own("every-type.realm"))
        #expect(file.schemaVersion == 7)
        let every = try #require(file.table(named: "Every"))
        let object = try #require(try file.object(in: every, key: 0))
        func value(_ name: String) throws -> RealmValue {
            let i = try #require(every.properties.firstIndex { $0.name == name }, "\(name)")
            return object.values[i]
        }
        #expect(try value("int") == .int(.min))
        #expect(try value("intOpt") == .int(.max))
        #expect(try value("stringOpt") == .string("a\0b"))
        // 1969-12-31T23:59:59.999999999Z is one nanosecond before 1970: realm-core stores (0, -1).
        #expect(try value("date") == .timestamp(seconds: 0, nanoseconds: -1))
        #expect(try value("dateOpt") == .timestamp(seconds: -2_208_988_799, nanoseconds: -876_543_211))  // same sign
        guard case .double(let d) = try value("double") else { Issue.record("double"); return }
        #expect(d == 0 && d.sign == .minus)
        guard case .double(let nan) = try value("doubleOpt") else { Issue.record("doubleOpt"); return }
        #expect(nan.isNaN)
        #expect(try value("decimal128") == .decimal128(try Decimal128(string: "1.50")))
        #expect(try value("decimal128Opt") == .decimal128(try Decimal128(string: "-0")))
        guard case .list(let strings) = try value("stringList") else { Issue.record("stringList"); return }
        #expect(
            strings.map { if case .string(let s) = $0 { s.utf8.count } else { -1 } } == [0, 15, 16, 63, 64, 5200, 3])
        guard case .embedded("Emb", _, let emb) = try value("emb") else { Issue.record("emb"); return }
        guard case .embedded("Inner", _, let inner) = emb[1] else { Issue.record("inner"); return }
        #expect(inner == [.int(1), .string("deep")])
        // Decimal lists are stored in the narrowest width (BID32/BID64/BID128) and widened exactly.
        #expect(
            try value("decimal128List")
                == .list(try ["1.5", "2", "-3.25"].map { .decimal128(try Decimal128(string: $0)) }))
        #expect(
            try value("decimal128OptList")
                == .list([
                    .null, .decimal128(try Decimal128(string: "1234567890.123456")),
                    .decimal128(try Decimal128(string: "-0")),
                ]))
    }

    @Test func innerNodesAndLongLists() throws {
        let file = try RealmFile(path: Fixture.own("inner-nodes.realm"))
        let many = try #require(file.table(named: "Many"))
        #expect(try file.objectCount(in: many) == 1000)
        let first = try #require(try file.object(in: many, key: 0))
        #expect(first.values[2] == .list((-1250..<1250).map { .int(Int64($0)) }))
        guard case .list(let links) = first.values[3] else { Issue.record("links"); return }
        #expect(links.count == 2500)
        #expect(try file.primaryKeyValue(in: many, key: 999) == .int(999))
        #expect(try file.object(in: many, key: 999)?.values[1] == .string("label-999"))
    }
}
