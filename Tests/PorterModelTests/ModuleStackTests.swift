import Foundation
import Testing

/// The module stack (ARCHITECTURE.md): every module imports only modules of lower layers, and each
/// C library only from its one owner. Read from `Package.swift` and from every `import` line under
/// `Sources/`, so an edge that points up or sideways fails here, whatever the build allows.
@Suite struct ModuleStackTests {
    /// Porter's modules by layer; a module may import modules of strictly lower layers only.
    static let layers: [String: Int] = [
        // C libraries from Debian.
        "PorterCSQLite": 0, "PorterCBSON": 0, "PorterCJSONC": 0, "PorterCZlib": 0,
        "PorterCPQ": 0,
        // Vocabulary: values and schemas, then the document vocabulary every format shares.
        "PorterModel": 1,
        "PorterDocument": 2,
        // Engines.
        "PorterStore": 3, "PorterRealmFile": 3, "PorterBSON": 3, "PorterJSON": 3, "PorterPostgres": 3,
        // Operations: reports and plans, then what runs them.
        "PorterDiff": 4, "PorterQuery": 4,
        "PorterMigration": 5, "PorterInterchange": 5,
        // The bridge joining Realm files to the rest.
        "PorterRealm": 6,
        // Faces.
        "Porter": 7,
        "RealmSwift": 8, "PorterStudio": 8, "PorterC": 8,
        "PorterCommands": 9,
        "PorterTool": 10,
    ]

    /// The one Swift module allowed to import each C library.
    static let cOwners: [String: String] = [
        "PorterCSQLite": "PorterStore", "PorterCBSON": "PorterBSON", "PorterCJSONC": "PorterJSON",
        "PorterCZlib": "PorterDocument",
        "PorterCPQ": "PorterPostgres",
    ]

    /// The only modules that re-export others (`@_exported import`).
    static let reexporters: Set<String> = ["Porter", "RealmSwift"]

    /// The package root (this file is Tests/PorterModelTests/ModuleStackTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Why `importer` may not use `imported`, or nil when the edge points down the stack.
    static func problem(_ importer: String, _ imported: String) -> String? {
        guard let to = layers[imported] else { return nil }  // Foundation, Glibc, ArgumentParser, …
        guard let from = layers[importer] else { return "\(importer) is in no layer of the stack" }
        if let owner = cOwners[imported], owner != importer {
            return "\(importer) imports \(imported), which only \(owner) may import"
        }
        if to >= from {
            return "\(importer) (layer \(from)) imports \(imported) (layer \(to)): "
                + (to == from ? "sideways" : "upwards")
        }
        return nil
    }

    /// `(target, [dependency])` of every non-test target declared in Package.swift.
    static func packageTargets() throws -> [(String, [String])] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"\.(?:target|executableTarget)\(name: "(\w+)"(?:, dependencies: \[([^\]]*)\])?"#)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).map { match in
            let name = String(text[Range(match.range(at: 1), in: text)!])
            var dependencies: [String] = []
            if let list = Range(match.range(at: 2), in: text) {
                // `.product(name: "ArgumentParser", …)` names an outside package: skipped.
                let plain = try! NSRegularExpression(pattern: #"(?<!name: )"(\w+)""#)
                let listText = String(text[list])
                dependencies = plain.matches(in: listText, range: NSRange(listText.startIndex..., in: listText))
                    .map { String(listText[Range($0.range(at: 1), in: listText)!]) }
            }
            return (name, dependencies)
        }
    }

    @Test func packageDependenciesPointDown() throws {
        let targets = try Self.packageTargets().filter { Self.layers[$0.0] != nil }
        // Every Swift module of the table is declared (the C libraries are `systemLibrary` targets).
        #expect(
            Set(targets.map(\.0)) == Set(Self.layers.keys).subtracting(Self.cOwners.keys),
            "Package.swift's targets: \(targets.map(\.0).sorted())")
        var problems: [String] = []
        for (name, dependencies) in targets {
            for dependency in dependencies {
                if let problem = Self.problem(name, dependency) { problems.append("Package.swift: " + problem) }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func importsPointDown() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        let declared = Dictionary(try Self.packageTargets(), uniquingKeysWith: { a, _ in a })
        var problems: [String] = []
        var files = 0
        for module in modules where !module.hasPrefix(".") {
            if Self.layers[module] == nil { problems.append("Sources/\(module) is in no layer of the stack") }
            let folder = sources.appendingPathComponent(module)
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in walker where file.hasSuffix(".swift") {
                files += 1
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    let words = line.split(separator: " ").map(String.init)
                    let modifiers: Set<String> = ["public", "package", "internal"]
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                        words[..<at].allSatisfy({ $0.hasPrefix("@") || modifiers.contains($0) })
                    else { continue }
                    let imported = words[at + 1]
                    let place = "Sources/\(module)/\(file)"
                    if words.contains("@_exported") && !Self.reexporters.contains(module) {
                        let allowed = Self.reexporters.sorted()
                        problems.append("\(place): @_exported import \(imported) (only \(allowed) re-export)")
                    }
                    if let problem = Self.problem(module, imported) { problems.append("\(place): " + problem) }
                    if Self.layers[imported] != nil, let dependencies = declared[module],
                        !dependencies.contains(imported)
                    {
                        problems.append("\(place): imports \(imported), not a dependency in Package.swift")
                    }
                }
            }
        }
        #expect(files > 100, "no sources found under \(sources.path)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The rule itself: down is allowed, up, sideways and a foreign C library are not.
    @Test func ruleRefusesUpSidewaysAndForeignC() {
        #expect(Self.problem("PorterStore", "PorterModel") == nil)
        #expect(Self.problem("PorterStore", "Foundation") == nil)
        #expect(Self.problem("PorterStore", "PorterDiff")?.contains("upwards") == true)
        #expect(Self.problem("PorterJSON", "PorterBSON")?.contains("sideways") == true)
        #expect(Self.problem("PorterJSON", "PorterCSQLite")?.contains("only PorterStore") == true)
        #expect(Self.problem("Elsewhere", "PorterModel") != nil)
    }
}
