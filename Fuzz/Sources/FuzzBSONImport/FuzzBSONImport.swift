import Foundation
import FuzzSupport

/// One fuzz input: the input is a `.bson` file of AllTypes documents.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = data else { return 0 }
    FuzzHarness.importInput(
        Data(bytes: bytes, count: count), name: "AllTypes.bson", format: "bson", roundTripFormat: "bson")
    return 0
}

/// Entry point: libFuzzer's driver, or the seed writer.
@main
enum FuzzBSONImportMain {
    static func main() {
        FuzzDriver.run(.bson, fuzzOne)
    }
}
