import Foundation

/// libFuzzer's driver, called from each target's `@main`.
///
/// SwiftPM links an executable target's entry point as `main` itself (renamed from
/// `<Target>_main`), so libFuzzer's own `main` is never pulled from its archive; the targets
/// start the driver explicitly with `LLVMFuzzerRunDriver` (libFuzzer ≥ LLVM 11) instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Starts a fuzz target: its seed writer or libFuzzer.
public enum FuzzDriver {
    /// Writes the seeds when asked to (`PORTER_FUZZ_SEEDS=DIR`), else runs libFuzzer with the
    /// process's arguments and `callback`; never returns.
    public static func run(_ seeds: FuzzSeeds.Kind, _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt)
        -> Never
    {
        FuzzSeeds.writeIfRequested(seeds)
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }
}
