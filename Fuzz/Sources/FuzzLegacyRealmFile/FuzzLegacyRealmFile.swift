import PorterFuzzHarness
import FuzzSupport

/// One fuzz input: a `.realm` file, most often of an old format (libFuzzer's archive needs the
/// symbol defined in the target).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzRealmFile(data, count) }

/// The old-layout reader's target (`LegacyFile`: file formats 2–11): the same work per input as
/// `FuzzRealmFile`, seeded with the old files of `../shared/realm-files/legacy`, so that the
/// mutations land in old table layouts (specs, subspecs, column B+trees, string enumerations,
/// DateTime columns) rather than in cluster trees.
@main
enum FuzzLegacyRealmFileMain {
    static func main() {
        FuzzDriver.run(.legacyRealmFile, fuzzOne)
    }
}
