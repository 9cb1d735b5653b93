// What an app does with the embedded reader: open the user's file (encrypted or not) read-only,
// list its classes, and read every object by property name, following its links. Prints `Class<TAB>count` per class, in the file's order,
// so `make test-embedded` can compare with `porter inspect` of the same file.
import Foundation
import PorterRealmFile

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: embedded-reader FILE.realm [KEY-HEX]\n".utf8))
    exit(64)
}
var key: [UInt8]?
if arguments.count == 3 {
    let hex = Array(arguments[2].utf8)
    guard hex.count == 128 else {
        FileHandle.standardError.write(Data("embedded-reader: the key has 128 hexadecimal digits\n".utf8))
        exit(64)
    }
    key = stride(from: 0, to: hex.count, by: 2).map {
        UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0
    }
}
do {
    let file = try RealmFile(path: arguments[1], encryptionKey: key)
    for table in file.tables {
        // Every object read by property name, and every link property followed, as a migration
        // reads them: a dangling or damaged link fails here, not in the app.
        let links = table.properties.filter { property in
            property.type == .object && property.collection == .none
                && file.table(named: property.objectType ?? "")?.isEmbedded == false
        }.map(\.name)
        var count = 0
        try file.forEachDynamicObject(ofClass: table.name) { object in
            for name in links { _ = try object.linked(name) }
            count += 1
        }
        print("\(table.name)\t\(count)")
    }
} catch {
    FileHandle.standardError.write(Data("embedded-reader: \(error)\n".utf8))
    exit(1)
}
