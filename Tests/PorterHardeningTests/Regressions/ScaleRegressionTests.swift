import Foundation
import Porter
import Testing

/// Hostile sizes that used to take minutes (quadratic or cubic work), kept as regressions. They
/// assert results, not times: a regression shows as a suite that suddenly takes minutes.
@Suite struct ScaleRegressionTests {
    /// `JSONValue.parse` copied a container's elements at every append (O(n²)): a 20,000-class
    /// schema file took 7.5 s to read in a debug build, 0.6 s after the fix.
    @Test func hugeJSONContainersParseInLinearTime() throws {
        let count = 200_000
        let text = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
        #expect(try JSONValue.parse(text).arrayValue?.count == count)
        let object = "{" + (0..<count).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
        #expect(try JSONValue.parse(object).objectMembers?.count == count)
    }

    /// Validation counted duplicate class names with a scan per class and looked classes up
    /// linearly (O(n²) for n classes).
    @Test func aSchemaWithTwentyThousandClassesValidates() throws {
        let classes = (0..<20_000).map { i in
            ObjectSchema(
                name: "C\(i)",
                properties: [Property(name: "next", type: .object, objectType: "C\((i + 1) % 20_000)", optional: true)])
        }
        let schema = Schema(version: 1, classes: classes)
        #expect(schema.validationErrors().isEmpty)
        #expect(schema["C19999"]?.name == "C19999")
        #expect(schema["C20000"] == nil)
    }

    /// The embedded-cycle search copied its path at every step and restarted from every class:
    /// a chain of 5,000 embedded classes took 277 s and 240 MB to validate. A ring of them is
    /// still found, from its first class, with the whole path.
    @Test func longChainsAndRingsOfEmbeddedClassesValidateQuickly() throws {
        let n = 5_000
        func name(_ i: Int) -> String { "E" + String(100_000 + i) }
        let chain =
            (0..<n).map { i in
                ObjectSchema(
                    name: name(i),
                    properties: i + 1 < n
                        ? [Property(name: "next", type: .object, objectType: name(i + 1), optional: true)]
                        : [Property(name: "x", type: .int)], embedded: true)
            } + [
                ObjectSchema(
                    name: "Root",
                    properties: [Property(name: "first", type: .object, objectType: name(0), optional: true)])
            ]
        #expect(Schema(version: 1, classes: chain).validationErrors().isEmpty)
        var ring = chain
        ring[n - 1] = ObjectSchema(
            name: name(n - 1), properties: [Property(name: "next", type: .object, objectType: name(0), optional: true)],
            embedded: true)
        let errors = Schema(version: 1, classes: ring).validationErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("\(name(0)): embedded classes form a cycle: \(name(0)).next.next.") == true)
    }
}
