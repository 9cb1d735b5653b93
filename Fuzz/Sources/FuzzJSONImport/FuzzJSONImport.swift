import Foundation
import FuzzSupport

/// One fuzz input: the input is a fixture file (`{"schemaVersion": 3, "Dog": […], …}`) or a
/// plain JSON class file; the layout is detected as `porter import` detects it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = data else { return 0 }
    FuzzHarness.importInput(
        Data(bytes: bytes, count: count), name: "fixture.json", format: "json", roundTripFormat: "json")
    return 0
}

/// Entry point: libFuzzer's driver, or the seed writer.
@main
enum FuzzJSONImportMain {
    static func main() {
        FuzzDriver.run(.plainJSON, fuzzOne)
    }
}
