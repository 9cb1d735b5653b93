import Foundation
import PorterDocument
import PorterModel

extension JSONLayoutReader {
    /// Reads the `schema` member of a fixture (at the current position, an object): the schema the
    /// fixture was written with, in the form of a schema file. Only its shape is checked here; an
    /// import at the same version never uses it, and the typed realm validates it before
    /// migrating the fixture with it.
    func readSchemaMember() throws {
        let startLine = line
        func failure(_ message: String) -> DocumentInputError {
            state = .done
            return DocumentInputError(label: "", message: "\(message) (line \(startLine))", recoverable: false)
        }
        guard fixtureSchema == nil else { throw failure("fixture key 'schema' appears more than once") }
        // The scanner bounds depth and size without recursing, so hostile input stays harmless
        // before the schema parser (which recurses) sees it.
        let element: JSONElement
        do {
            element = try scanner.scanElement(buffer, line: &line, label: "")
        } catch is DocumentInputError {
            throw failure("unexpected end of input inside the fixture's 'schema' member")
        }
        if let problem = element.problem { throw failure("invalid fixture schema: \(problem)") }
        let bytes = buffer.slice(element.range)
        buffer.start = element.range.upperBound
        let json: JSONValue
        let schema: Schema
        do {
            json = try JSONValue.parse(bytes)
            schema = try Schema(json: json)
        } catch let error as PorterError {
            let at = error.location.map { $0.isEmpty ? "" : " at \($0)" } ?? ""
            throw failure("invalid fixture schema\(at): \(error.message)")
        }
        let declared = json.objectMembers?.contains { $0.key == "schemaVersion" } == true ? schema.version : nil
        try checkSchemaMemberVersion(fixture: fixtureVersion, member: declared, line: startLine)
        fixtureSchema = schema
        schemaMemberVersion = declared
        // A fixture that names its version only inside its schema is at that version.
        if fixtureVersion == nil { fixtureVersion = declared }
    }

    /// The fixture's `schemaVersion` and the one its `schema` member declares must agree.
    func checkSchemaMemberVersion(fixture: UInt64?, member: UInt64?, line atLine: Int? = nil) throws {
        guard let fixture, let member, fixture != member else { return }
        state = .done
        throw DocumentInputError(
            label: "",
            message:
                "the fixture's schemaVersion is \(fixture) but its 'schema' member declares schemaVersion \(member) (line \(atLine ?? line))",
            recoverable: false)
    }
}
