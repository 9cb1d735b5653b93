// swift-tools-version:6.0
import PackageDescription

/// Test targets, one per module plus end-to-end tests that run the built `porter` binary.
let testTargetSpecs: [(name: String, dependencies: [Target.Dependency])] = [
    ("PorterModelTests", ["PorterModel"]),
    ("PorterStoreTests", ["PorterModel", "PorterStore"]),
    ("PorterDiffTests", ["PorterModel", "PorterDiff", "PorterStore"]),
    ("PorterMigrationTests", ["PorterModel", "PorterStore", "PorterDiff", "PorterMigration"]),
    ("PorterInterchangeTests", ["PorterModel", "PorterDocument", "PorterStore", "PorterInterchange", "PorterBSON", "PorterJSON"]),
    ("PorterTests", ["Porter", "PorterStore"]),
    ("PorterCommandsTests", ["PorterCommands"]),
    ("PorterEndToEndTests", ["PorterModel"]),
    ("PorterHardeningTests", ["Porter", "PorterStore"]),
    ("PorterRealmFileTests", ["PorterModel", "PorterRealmFile"]),
    ("PorterRealmFileWriterTests", ["PorterModel", "PorterRealmFile"]),
    ("PorterRealmMigrationTests", ["PorterModel", "PorterStore", "PorterDiff", "PorterMigration", "PorterRealmFile", "PorterRealm"]),
    // Realm Swift code compiled unchanged against the `RealmSwift` product.
    ("RealmSwiftCompatTests", ["RealmSwift"]),
    ("PorterStudioTests", ["PorterStudio", "PorterCommands"]),
    // `porter codegen --lang grdb`'s records compiled against GRDB 7 and run on a `--format sqlite`
    // export (the porter binary makes both; GRDB is used by no other target).
    ("PorterGRDBCodegenTests", [.product(name: "GRDB", package: "GRDB.swift")]),
]
let testTargets: [Target] = testTargetSpecs.map {
    .testTarget(name: $0.name, dependencies: $0.dependencies + ["PorterTestSupport"])
}

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
        // The C library (`make lib`: .build/lib/libporter.so, libporter.a, porter.h); SwiftPM names
        // them after the products, `make lib` gives them the names porter.h documents.
        .library(name: "PorterC", type: .dynamic, targets: ["PorterC"]),
        .library(name: "PorterCStatic", type: .static, targets: ["PorterC"]),
        // For the Fuzz/ package only (not an API): the Realm-file fuzz targets' harness.
        .library(name: "PorterFuzzHarness", targets: ["PorterFuzzHarness"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // AES for encrypted Realm files (PorterRealmFile): BoringSSL compiled into the package on
        // Linux, CommonCrypto on Apple platforms; no system library, so apps can embed the reader.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Only for PorterGRDBCodegenTests.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Only for `make docs` (`swift package generate-documentation`): a command plugin, linked into no target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries from Debian, each imported by exactly one Swift module.
        .systemLibrary(name: "PorterCSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "PorterCBSON", pkgConfig: "libbson-1.0", providers: [.apt(["libbson-dev"])]),
        .systemLibrary(name: "PorterCJSONC", pkgConfig: "json-c", providers: [.apt(["libjson-c-dev"])]),
        .systemLibrary(name: "PorterCZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "PorterCPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // The stack (ARCHITECTURE.md; Tests/PorterModelTests/ModuleStackTests.swift checks it): each
        // module depends only on modules of lower layers.
        // Vocabulary: values, schemas and their comparison; the document vocabulary of every format.
        .target(name: "PorterModel"),
        .target(name: "PorterDocument", dependencies: ["PorterModel", "PorterCZlib"]),
        // Engines: Porter's database on SQLite, Realm Core files, BSON and JSON.
        .target(name: "PorterStore", dependencies: ["PorterModel", "PorterCSQLite"]),
        // Reads (formats 2–24) and writes (format 24) Realm Core files natively, no realm-core. The
        // embeddable reader (issue #38): its closure holds no system library (encryption through
        // swift-crypto), checked by Tests/PorterModelTests/EmbeddableClosureTests.swift.
        .target(name: "PorterRealmFile", dependencies: [
            "PorterModel", .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .target(name: "PorterBSON", dependencies: ["PorterModel", "PorterDocument", "PorterCBSON"]),
        .target(name: "PorterJSON", dependencies: ["PorterModel", "PorterDocument", "PorterCJSONC"]),
        // A PostgreSQL connection through libpq: statements, queries, COPY FROM STDIN.
        .target(name: "PorterPostgres", dependencies: ["PorterModel", "PorterCPQ"]),
        // Operations: diff reports and plans; the migration runtime; import and export.
        .target(name: "PorterDiff", dependencies: ["PorterModel"]),
        // Realm Query Language: one parser and one object-by-object evaluator over Porter databases,
        // Realm files and streamed objects (the typed API's `filter`, `porter export --query`).
        .target(name: "PorterQuery", dependencies: ["PorterModel", "PorterStore", "PorterRealmFile"]),
        .target(name: "PorterMigration", dependencies: ["PorterModel", "PorterStore", "PorterDiff"]),
        .target(name: "PorterInterchange", dependencies: [
            "PorterModel", "PorterDocument", "PorterStore", "PorterBSON", "PorterJSON", "PorterQuery", "PorterPostgres",
        ]),
        // The bridge: everything that joins Realm files to the rest.
        .target(name: "PorterRealm", dependencies: [
            "PorterModel", "PorterDocument", "PorterStore", "PorterRealmFile", "PorterDiff", "PorterMigration",
            "PorterInterchange", "PorterQuery",
        ]),
        // Faces: the typed API (and RealmSwift, its Realm-named twin), the commands, the executable.
        .target(name: "Porter", dependencies: [
            "PorterModel", "PorterDocument", "PorterStore", "PorterRealmFile", "PorterBSON", "PorterJSON", "PorterDiff",
            "PorterMigration", "PorterInterchange", "PorterRealm", "PorterQuery",
        ]),
        .target(name: "RealmSwift", dependencies: ["Porter"]),
        // `porter studio`: the local web server and its page (Assets: plain HTML, CSS, JavaScript).
        .target(name: "PorterStudio", dependencies: [
            "Porter", "PorterModel", "PorterDocument", "PorterStore", "PorterRealmFile", "PorterInterchange", "PorterRealm", "PorterQuery",
            .product(name: "Hummingbird", package: "hummingbird"),
        ], resources: [.copy("Assets")]),
        .target(name: "PorterCommands", dependencies: [
            "Porter", "PorterRealm",
            "PorterStudio",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "PorterTool", dependencies: ["PorterCommands"]),
        // The C library's face (`porter.h`): `porter_*` entry points over the Realm file reader and
        // the exporter. Linked as libporter.so, it exports those names only (bindings/c/porter.map).
        .target(name: "PorterC", dependencies: [
            "PorterModel", "PorterDocument", "PorterStore", "PorterRealmFile", "PorterInterchange", "PorterRealm",
        ], linkerSettings: [
            .unsafeFlags([
                "-Xlinker", "--version-script=\(Context.packageDirectory)/bindings/c/porter.map",
                "-Xlinker", "-soname=libporter.so",
            ])
        ]),

        // Benchmarks (`make bench`). The reference loops use the C APIs directly on purpose: they
        // are the physical floor Porter is measured against, not part of the product.
        .target(name: "PorterBenchReference", dependencies: ["PorterCSQLite", "PorterCBSON"], path: "Benchmarks/Reference"),
        .executableTarget(name: "porter-bench", dependencies: ["Porter", "PorterBenchReference"], path: "Benchmarks/PorterBench"),
        // Speed and memory of the Realm file writer against `realm-oracle bench` (development tool).
        .executableTarget(name: "porter-realm-write-bench", dependencies: ["PorterModel", "PorterRealmFile"], path: "Benchmarks/RealmWriterBench",
                         exclude: ["README.md"]),
        // The Realm-file fuzz targets' work per input (`make fuzz`, the Fuzz/ package): here, not in
        // Fuzz/, because it drives the rewriter and the writer, which are `package` API; like the
        // tests, it is Porter's own test code.
        .target(name: "PorterFuzzHarness", dependencies: ["PorterModel", "PorterRealmFile"], path: "Fuzz/Harness"),
        // Helpers every test target shares (not a product): shared fixture files, the temporary folder,
        // the seeded generator, the porter binary lookup, expectPorterError.
        .target(name: "PorterTestSupport", dependencies: ["PorterModel"], path: "Tests/PorterTestSupport"),
        // The child process the hardening tests kill, lock against and limit (not a product).
        .executableTarget(name: "porter-torture-writer", dependencies: ["Porter"], path: "Tests/TortureWriter"),

    ] + testTargets
)
