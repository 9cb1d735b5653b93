// swift-tools-version:6.0
// An app's view of Porter's embeddable reader (issue #38): a package that depends on the
// `PorterRealmFile` product alone, as an app adds it with one `.package` line. `make test-embedded`
// builds it, runs it on the Realm files of Fixtures/ and checks its dependency closure
// (check-closure.py) and what its binary links: no system library.
import Foundation
import PackageDescription

/// Porter, by path (two folders up); its identity is its folder's name.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "EmbeddedReader",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "embedded-reader",
            dependencies: [.product(name: "PorterRealmFile", package: root.lastPathComponent)])
    ]
)
