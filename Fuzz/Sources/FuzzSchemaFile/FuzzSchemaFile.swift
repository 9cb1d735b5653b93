import Foundation
import FuzzSupport
import Porter

/// libFuzzer entry: the input is a schema file. Reading must never crash; a valid schema must
/// survive write → read unchanged, and a database must be creatable from it and sound.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchemaFile(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes = data else { return 0 }
    guard let schema = try? Schema(jsonBytes: UnsafeBufferPointer(start: bytes, count: count)) else { return 0 }
    guard schema.validationErrors().isEmpty else { return 0 }
    let text = schema.jsonString()
    guard let again = try? Schema(jsonString: text), again == schema else {
        fatalError("a valid schema does not read back from its own JSON:\n\(text)")
    }
    do {
        let db = try Database.inMemory(schema: schema)
        let problems = try db.checkConsistency()
        if !problems.isEmpty { fatalError("a new database is inconsistent: \(problems)") }
    } catch {
        fatalError("a valid schema cannot make a database: \(error)\n\(text)")
    }
    return 0
}

/// Entry point: libFuzzer's driver, or the seed writer.
@main
enum FuzzSchemaFileMain {
    static func main() {
        FuzzDriver.run(.schemaFile, fuzzSchemaFile)
    }
}
