import PorterModel
import PorterDocument
import PorterStore
/// An output format whose encoder needs the exported class before the first document (CSV: its
/// header line names the columns, which come from the schema, not from the documents).
package protocol ClassOutputFormat: DocumentOutputFormat {
    /// An encoder writing the documents of `cls` (a class of `schema`) to `output`.
    func makeEncoder(output: ByteOutput, options: ExportOptions, cls: ObjectSchema, schema: Schema) throws
        -> DocumentEncoder
}
