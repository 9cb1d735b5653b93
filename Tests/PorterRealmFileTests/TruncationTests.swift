import Foundation
import PorterModel
import Testing
import PorterTestSupport
@testable import PorterRealmFile

/// A Realm file cut short is diagnosed as a copy cut short, with the size it needs and the size it has.
@Suite struct TruncationTests {
    static let advice = "the copy was cut short — copy it again with the app closed"

    private func refusal(_ bytes: [UInt8]) throws -> String? {
        let tmp = try TemporaryFolder("truncated")
        let path = tmp.path("truncated.realm")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try RealmFile(path: path)
            return nil
        } catch let error as PorterError {
            return error.message
        }
    }

    @Test func cutBeforeTheTopArray() throws {
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.own("every-type.realm"))))
        let file = try RealmFile(path: Fixture.own("every-type.realm"))
        let topRef = try FileHeader(file.mem).topRef
        for size in [4096, 8192, Int(topRef) - Int(topRef) % 8] {
            let message = try #require(try refusal(Array(whole.prefix(size))))
            #expect(message == "expected at least \(topRef + 8) bytes, the file has \(size): \(Self.advice)")
        }
    }

    /// The top array is there but says the file is longer than it is (the end was cut off).
    @Test func cutAfterTheTopArray() throws {
        var whole = Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.own("every-type.realm"))))
        let file = try RealmFile(path: Fixture.own("every-type.realm"))
        let topRef = Int(try FileHeader(file.mem).topRef)
        let logicalSize = try file.mem.array(Int64(topRef), minimum: 3, "top").tagged(2)
        #expect(logicalSize <= Int64(whole.count))
        // The top array claims 4096 bytes more than the file has (as when the end was cut off).
        let claimed = Int64(whole.count) + 4096
        // The slot's width (bytes) from the node header; the value is tagged (shifted, low bit set).
        let width = ((1 << Int(whole[topRef + 4] & 7)) >> 1) / 8
        #expect(width >= 4, "the top array's slots are wide enough for the claimed size")
        let offset = topRef + 8 + 2 * width
        withUnsafeBytes(of: (claimed << 1 | 1).littleEndian) { for i in 0..<width { whole[offset + i] = $0[i] } }
        let message = try #require(try refusal(whole))
        #expect(message == "expected at least \(claimed) bytes, the file has \(whole.count): \(Self.advice)")
    }
}
