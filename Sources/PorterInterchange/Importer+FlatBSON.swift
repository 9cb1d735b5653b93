import Foundation
import PorterBSON
import PorterDocument
import PorterModel
import PorterStore

extension Importer {
    /// Imports a BSON class file of a flat class by the fast path: each document is read straight
    /// from its bytes by ``FlatBSONReader`` and bound to the class's prepared insert. A document
    /// the reader does not take, or whose insert fails (a duplicate primary key), goes through the
    /// general path (``importDocument(_:className:source:)``), which writes or reports it exactly
    /// as it always has. False when the fast path does not apply (nothing read then): another
    /// mode than insert, or a class that is not flat.
    func importFlatBSON(_ decoder: BSONDocumentDecoder, source: String, className: String) throws -> Bool {
        guard readsFlatBSONDirectly, options.mode == .insert, let plan = reader.plan(className),
            let flat = FlatBSONReader(plan)
        else {
            return false
        }
        let inserter = try inserter(className)
        guard inserter.takesRows else { return false }
        // Links to this class find its objects without a query when their keys are remembered.
        let remembered = plan.primaryKeyIndex.flatMap { resolver.primaryKeyTargets.contains(className) ? $0 : nil }
        while !problems.isFull {
            let bytes: UnsafeRawBufferPointer?
            do {
                bytes = try decoder.nextBytes()
            } catch let error as DocumentInputError {
                problems.add(source: source, label: error.label, path: error.path, message: error.message)
                if error.recoverable { continue }
                return true
            }
            guard let bytes else { return true }
            if flat.read(bytes), let key = try? inserter.insert(row: flat.row) {
                report.count(className)
                flatBSONDocuments += 1
                if let remembered, let value = flat.value(at: remembered) {
                    resolver.wrote(className, primaryKey: value, key: key)
                }
            } else {
                // The general path reads, checks and writes (or reports) the same bytes again.
                let decoded: DecodedDocument
                do {
                    decoded = try decoder.decodeLast()
                } catch let error as DocumentInputError {
                    problems.add(source: source, label: error.label, path: error.path, message: error.message)
                    continue
                }
                try importDocument(decoded, className: className, source: source)
            }
            documentsRead += 1
            if documentsRead & 255 == 0, let progress {
                progress(documentsRead, finishedBytes + (currentFile?.bytesRead ?? 0))
            }
        }
        return true
    }
}
