import PorterFuzzHarness
import FuzzSupport

/// One fuzz input: a `.realm` file (libFuzzer's archive needs the symbol defined in the target).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzRealmFile(data, count) }

/// The Realm-file target: every committed `.realm` fixture and the shared SDK files as seeds.
@main
enum FuzzRealmFileMain {
    static func main() {
        FuzzDriver.run(.realmFile, fuzzOne)
    }
}
