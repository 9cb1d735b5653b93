import FuzzCAPIHarness
import FuzzSupport

/// One fuzz input: a `.realm` file through the C library's calls (libFuzzer's archive needs the
/// symbol defined in the target).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt { porter_fuzz_c_api(data, count) }

/// The C library's target: every `.realm` seed of `FuzzRealmFile` through `porter.h`'s calls
/// (open, schema, classes, counts, cursors in each document form and with a query, a cancelled
/// export, check and inspect reports, a double close), as a binding in any language makes them.
@main
enum FuzzCAPIMain {
    static func main() {
        FuzzDriver.run(.realmFile, fuzzOne)
    }
}
