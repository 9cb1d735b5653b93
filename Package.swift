// swift-tools-version:6.0
import PackageDescription

/// Test targets, one per module plus end-to-end tests that run the built `porter` binary.
let testTargetSpecs: [(name: String, dependencies: [Target.Dependency])] = [
    ("PorterModelTests", ["PorterModel"]),
    ("PorterStoreTests", ["PorterStore"]),
    ("PorterDiffTests", ["PorterDiff", "PorterStore"]),
    ("PorterMigrationTests", ["PorterMigration"]),
    ("PorterInterchangeTests", ["PorterInterchange", "PorterBSON", "PorterJSON"]),
    ("PorterTests", ["Porter"]),
    ("PorterCommandsTests", ["PorterCommands"]),
    ("PorterEndToEndTests", ["PorterModel"]),
    ("PorterHardeningTests", ["Porter"]),
    ("PorterRealmFileTests", ["PorterRealmFile"]),
    ("PorterRealmFileWriterTests", ["PorterRealmFile"]),
    ("PorterRealmMigrationTests", ["PorterRealmMigration"]),
    // Realm Swift code compiled unchanged against the `RealmSwift` product.
    ("RealmSwiftCompatTests", ["RealmSwift"]),
]
let testTargets: [Target] = testTargetSpecs.map { .testTarget(name: $0.name, dependencies: $0.dependencies) }

let package = Package(
    name: "Porter",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Porter", targets: ["Porter"]),
        // The typed API under Realm's module name, so Realm Swift code builds with no edits.
        .library(name: "RealmSwift", targets: ["RealmSwift"]),
        .library(name: "PorterCommands", targets: ["PorterCommands"]),
        .library(name: "PorterRealmFile", targets: ["PorterRealmFile"]),
        .executable(name: "porter", targets: ["PorterTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C libraries from Debian, each imported by exactly one Swift module.
        .systemLibrary(name: "PorterCSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "PorterCBSON", pkgConfig: "libbson-1.0", providers: [.apt(["libbson-dev"])]),
        .systemLibrary(name: "PorterCJSONC", pkgConfig: "json-c", providers: [.apt(["libjson-c-dev"])]),
        .systemLibrary(name: "PorterCCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "PorterCZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        .target(name: "PorterModel"),
        .target(name: "PorterStore", dependencies: ["PorterModel", "PorterDiff", "PorterCSQLite"]),
        .target(name: "PorterDiff", dependencies: ["PorterModel"]),
        // Reads (formats 20–24) and writes (format 24) Realm Core files natively, no realm-core;
        // the only libcrypto user (encrypted files).
        .target(name: "PorterRealmFile", dependencies: ["PorterModel", "PorterCCrypto"]),
        .target(name: "PorterMigration", dependencies: ["PorterModel", "PorterStore", "PorterDiff"]),
        .target(name: "PorterInterchange", dependencies: ["PorterModel", "PorterStore", "PorterRealmFile", "PorterCZlib"]),
        .target(name: "PorterRealmMigration", dependencies: ["PorterModel", "PorterStore", "PorterDiff", "PorterMigration", "PorterRealmFile", "PorterInterchange"]),
        .target(name: "PorterBSON", dependencies: ["PorterModel", "PorterStore", "PorterInterchange", "PorterCBSON"]),
        .target(name: "PorterJSON", dependencies: ["PorterModel", "PorterStore", "PorterInterchange", "PorterBSON", "PorterCJSONC"]),
        .target(name: "Porter", dependencies: ["PorterModel", "PorterStore", "PorterDiff", "PorterMigration", "PorterInterchange", "PorterBSON", "PorterJSON"]),
        .target(name: "RealmSwift", dependencies: ["Porter"]),
        .target(name: "PorterCommands", dependencies: [
            "Porter", "PorterRealmMigration",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "PorterTool", dependencies: ["PorterCommands"]),

        // Benchmarks (`make bench`). The reference loops use the C APIs directly on purpose: they
        // are the physical floor Porter is measured against, not part of the product.
        .target(name: "PorterBenchReference", dependencies: ["PorterCSQLite", "PorterCBSON"], path: "Benchmarks/Reference"),
        .executableTarget(name: "porter-bench", dependencies: ["Porter", "PorterBenchReference"], path: "Benchmarks/PorterBench"),
        // Speed and memory of the Realm file writer against `realm-oracle bench` (development tool).
        .executableTarget(name: "porter-realm-write-bench", dependencies: ["PorterModel", "PorterRealmFile"], path: "Benchmarks/RealmWriterBench",
                         exclude: ["README.md"]),
        // The child process the hardening tests kill, lock against and limit (not a product).
        .executableTarget(name: "porter-torture-writer", dependencies: ["Porter"], path: "Tests/TortureWriter"),

    ] + testTargets
)
