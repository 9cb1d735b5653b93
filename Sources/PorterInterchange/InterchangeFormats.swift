import PorterBSON
import PorterDocument
import PorterJSON
import PorterModel

/// The formats Porter ships, by command-line name.
package enum InterchangeFormats {
    /// Output formats: `bson`, `json`, `ejson` (relaxed), `ejson-canonical`, `csv`.
    package static let output: [DocumentOutputFormat] = [
        BSONFormat(), JSONFormat(), ExtendedJSONFormat(canonical: false), ExtendedJSONFormat(canonical: true),
        CSVFormat(),
    ]

    /// Input readers: BSON, JSON for every JSON flavour, mongodump archives, CSV.
    package static let input: [DocumentInputFormat] = [BSONFormat(), JSONFormat(), MongoArchiveFormat(), CSVFormat()]

    /// The output format named `name`.
    /// - Throws: ``PorterError/Code/usage`` listing the known names.
    package static func outputFormat(named name: String) throws -> DocumentOutputFormat {
        guard let format = output.first(where: { $0.name == name }) else {
            throw PorterError(
                .usage, "unknown export format '\(name)' (known: \(output.map(\.name).joined(separator: ", ")))")
        }
        return format
    }
}
