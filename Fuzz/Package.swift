// swift-tools-version:6.0
// libFuzzer targets for Porter's parsers. A separate package, so that `swift build` of the
// root package never sees executables that only link with `-sanitize=fuzzer` (libFuzzer
// provides their `main`). Build and run them with `make fuzz` from the root.
import Foundation
import PackageDescription

/// The root package, by path; its identity is its folder's name.
let rootFolder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let porter = Target.Dependency.product(name: "Porter", package: rootFolder.lastPathComponent)

let harness = Target.Dependency.product(name: "PorterFuzzHarness", package: rootFolder.lastPathComponent)
let porterC = Target.Dependency.product(name: "PorterCStatic", package: rootFolder.lastPathComponent)

/// Each target's own dependencies beside FuzzSupport and Porter.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("FuzzBSONImport", []), ("FuzzEJSONImport", []), ("FuzzJSONImport", []), ("FuzzSchemaFile", []),
    ("FuzzRealmFile", [harness]), ("FuzzLegacyRealmFile", [harness]),
    ("FuzzCAPI", ["FuzzCAPIHarness", porterC]),
]

let package = Package(
    name: "PorterFuzz",
    platforms: [.macOS(.v14)],
    products: fuzzTargets.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [.package(path: rootFolder.path)],
    targets: [
        .target(name: "FuzzSupport", dependencies: [porter]),
        // C, against the header bindings use (bindings/c/include/porter.h, outside this package).
        .target(
            name: "FuzzCAPIHarness",
            cSettings: [.unsafeFlags(["-I", rootFolder.appendingPathComponent("bindings/c/include").path])]),
    ]
        + fuzzTargets.map {
            .executableTarget(name: $0.name, dependencies: ["FuzzSupport", porter] + $0.dependencies)
        }
)
