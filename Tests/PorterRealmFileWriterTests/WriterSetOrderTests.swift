import Foundation
import PorterModel
import Testing
@testable import PorterRealmFile

/// Set order and equality of format 24 where the goldens do not reach: decimals exactly.
@Suite struct WriterSetOrderTests {
    static func d(_ text: String) throws -> Decimal128 { try Decimal128(string: text) }

    @Test func decimalsCompareExactly() throws {
        #expect(WriterDecimal.compare(try Self.d("1.5"), try Self.d("1.50")) == 0)
        #expect(WriterDecimal.compare(try Self.d("12345678901234567890"), try Self.d("12345678901234567891")) < 0)
        #expect(WriterDecimal.compare(try Self.d("-1"), try Self.d("0")) < 0)
        #expect(WriterDecimal.compare(try Self.d("0"), try Self.d("-0E+10")) == 0)
        #expect(WriterDecimal.compare(try Self.d("1E-6176"), try Self.d("0")) > 0)
        #expect(WriterDecimal.compare(try Self.d("1E+6144"), try Self.d("9999999999999999999999999999999999E-10")) > 0)
        #expect(WriterDecimal.compare(try Self.d("NaN"), try Self.d("-Infinity")) < 0)
        #expect(WriterDecimal.compare(try Self.d("-Infinity"), try Self.d("-1E+6144")) < 0)
        #expect(WriterDecimal.compare(try Self.d("Infinity"), try Self.d("1E+6144")) > 0)
        #expect(WriterDecimal.compare(try Self.d("-2.5"), try Self.d("-2.25")) < 0)
    }

    @Test func setsDropNumericallyEqualDecimalsOnly() throws {
        let set = WriterSetOrder.sortedUnique([
            .decimal128(try Self.d("1.50")), .decimal128(try Self.d("12345678901234567891")),
            .decimal128(try Self.d("1.5")), .decimal128(try Self.d("12345678901234567890")),
        ])
        #expect(
            set == [
                .decimal128(try Self.d("1.50")), .decimal128(try Self.d("12345678901234567890")),
                .decimal128(try Self.d("12345678901234567891")),
            ])
    }
}
