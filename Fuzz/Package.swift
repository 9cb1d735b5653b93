// swift-tools-version:6.0
// libFuzzer targets for Porter's parsers. A separate package, so that `swift build` of the
// root package never sees executables that only link with `-sanitize=fuzzer` (libFuzzer
// provides their `main`). Build and run them with `make fuzz` from the root.
import Foundation
import PackageDescription

/// The root package, by path; its identity is its folder's name.
let rootFolder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let porter = Target.Dependency.product(name: "Porter", package: rootFolder.lastPathComponent)
let realmFile = Target.Dependency.product(name: "PorterRealmFile", package: rootFolder.lastPathComponent)

let fuzzTargets = ["FuzzBSONImport", "FuzzEJSONImport", "FuzzJSONImport", "FuzzSchemaFile", "FuzzRealmFile"]

let package = Package(
    name: "PorterFuzz",
    platforms: [.macOS(.v14)],
    products: fuzzTargets.map { .executable(name: $0, targets: [$0]) },
    dependencies: [.package(path: rootFolder.path)],
    targets: [
        .target(name: "FuzzSupport", dependencies: [porter])
    ]
        + fuzzTargets.map {
            .executableTarget(
                name: $0, dependencies: ["FuzzSupport", porter] + ($0 == "FuzzRealmFile" ? [realmFile] : []))
        }
)
