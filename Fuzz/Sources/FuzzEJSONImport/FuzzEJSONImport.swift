import Foundation
import FuzzSupport

/// One fuzz input: the input is a `.json` file of AllTypes documents in Extended JSON
/// (canonical or relaxed, line-delimited or an array).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = data else { return 0 }
    FuzzHarness.importInput(
        Data(bytes: bytes, count: count), name: "AllTypes.json", format: "ejson", roundTripFormat: "ejson-canonical")
    return 0
}

/// Entry point: libFuzzer's driver, or the seed writer.
@main
enum FuzzEJSONImportMain {
    static func main() {
        FuzzDriver.run(.extendedJSON, fuzzOne)
    }
}
