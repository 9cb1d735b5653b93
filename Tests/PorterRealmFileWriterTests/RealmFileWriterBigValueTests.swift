import Foundation
import PorterModel
import Testing
import PorterTestSupport
@testable import PorterRealmFile

/// Values up to realm-core's limits (binary 16777200 bytes, string 16777199) are one blob node each;
/// longer ones are refused, as realm-core refuses them ("Binary too big"). The file at the limit is
/// too big for a golden; `PORTER_WRITER_KEEP_DIR=DIR` keeps it for `realm-oracle check`/`dump`
/// (done while developing: ok, the value read back whole).
@Suite struct RealmFileWriterBigValueTests {
    static let schema = Schema(classes: [
        ObjectSchema(
            name: "Blob",
            properties: [
                Property(name: "data", type: .data), Property(name: "text", type: .string),
            ])
    ])

    static func write(_ values: [RealmValue], keep: Bool = false) throws -> Data {
        let tmp = try TemporaryFolder("writer")
        let dir = tmp.url
        let path = dir.appendingPathComponent("big.realm").path
        try RealmFileWriter(schema: schema, schemaVersion: 0)
            .write(to: path, source: WriterMemorySource(objects: ["Blob": [(0, values)]]))
        if keep, let keepDir = ProcessInfo.processInfo.environment["PORTER_WRITER_KEEP_DIR"] {
            try? FileManager.default.removeItem(atPath: keepDir + "/big.realm")
            try FileManager.default.copyItem(atPath: path, toPath: keepDir + "/big.realm")
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func binaryAtTheLimitIsOneBlob() throws {
        let data = Data((0..<WriterLimits.maxBinary).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let bytes = try Self.write([.binary(data), .string("small")], keep: true)
        let size = WriterLimits.maxBinary
        let header: [UInt8] = [
            0x41, 0x41, 0x41, 0x41, 0x11, UInt8(size >> 16), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF),
        ]
        let start = try #require(bytes.range(of: Data(header)))
        #expect(bytes[start.upperBound..<start.upperBound + size] == data)
    }

    @Test func longerValuesAreRefused() throws {
        #expect(throws: PorterError.self) {
            try Self.write([.binary(Data(count: WriterLimits.maxBinary + 1)), .string("")])
        }
        do {
            _ = try Self.write([.binary(Data()), .string(String(repeating: "x", count: WriterLimits.maxString + 1))])
            Issue.record("a string over the limit was written")
        } catch let error as PorterError {
            #expect(error.code == .constraintViolation)
            #expect(error.location == "Blob[0].text")
        }
    }
}
