import Foundation
import PorterModel

/// Writes a new format-24 Realm file from one of formats 22–24 column by column, as realm-core
/// migrates a file in place: objects keep their keys, and the columns that do not change (with
/// their search indexes and backlinks) are copied node by node instead of decoded and encoded
/// again. Only the columns that change (converted, filled, new) are computed per object.
///
/// Written like ``RealmFileWriter`` writes: a temporary file beside the destination, fsync,
/// rename; never a partial file. Columns whose nodes changed between formats (sets, 22's
/// dictionaries, Decimal128 before 24) are re-encoded, search indexes of older files rebuilt,
/// backlink lists made B+trees. What a column copy cannot express (tombstones; formats 20 and 21; a
/// link whose target class is not the rewritten source of its target; a dictionary of embedded
/// objects whose table key changes) is refused with ``RealmRewriteUnsupported`` before anything
/// is written. Mixed values are copied while every table keeps its key (their links carry it), and
/// re-encoded otherwise; their backlink columns are laid out as the source has them.
package struct RealmFileRewriter {
    /// The schema of the new file.
    package let schema: Schema
    /// The schema version stored in its `metadata` table.
    package let schemaVersion: UInt64

    /// Creates a rewriter to `schema` at `schemaVersion`.
    package init(schema: Schema, schemaVersion: UInt64) {
        self.schema = schema
        self.schemaVersion = schemaVersion
    }

    /// Writes the new file to `path` from `source`, each class of the schema as `classes` says.
    /// `beforeReplacing` runs once the new file is complete and synced, just before it replaces
    /// `path` (a backup of the old file is made there); when it throws, `path` is untouched.
    /// - Throws: ``RealmRewriteUnsupported`` (nothing written), ``PorterError`` for a value that
    ///   does not fit its property or a conversion's own error, or a damaged source.
    package func write(
        to path: String, from source: RealmFile, classes: [String: RealmClassRewrite],
        encryptionKey: [UInt8]? = nil, beforeReplacing: () throws -> Void = {}
    ) throws {
        try RealmFileWriter.checkKey(encryptionKey, for: path)
        var plan = try WriterTablePlan(schema: schema)
        var tables = try RewritePlan(plan: plan, source: source, classes: classes)
        // Links in mixed values have backlink columns of their own in the target tables
        // (realm-core adds one per mixed column and target): lay them out as the source has them.
        let mixedLinks = tables.mixedLinks(plan: plan)
        if !mixedLinks.isEmpty {
            plan = try WriterTablePlan(schema: schema, mixedLinks: mixedLinks)
            tables = try RewritePlan(plan: plan, source: source, classes: classes)
        }
        try RealmFileWriter.writeAtomically(to: path, encryptionKey: encryptionKey, beforeReplacing: beforeReplacing) {
            out in
            try out.append([UInt8](repeating: 0, count: 24))
            let leafEncoder = WriterLeafEncoder(out: out, tableKeys: plan.tableByClass)
            var copier = WriterNodeCopier(mem: source.mem, out: out)
            var tableRefs = Array(repeating: Int64(0), count: plan.tables.count)
            for t in 1..<plan.tables.count {
                var table = WriterTableRewrite(
                    plan: plan, tableIndex: t, rewrite: tables.tables[t], newNames: tables.newNames,
                    file: source, leafEncoder: leafEncoder)
                do {
                    tableRefs[t] = try table.write(copier: &copier)
                } catch {
                    throw source.porterError(error, place: plan.tables[t].objectSchema?.name)
                }
            }
            try WriterFileBuilder.finishGroup(
                plan: plan, out: out, leafEncoder: leafEncoder, tableRefs: tableRefs, schemaVersion: schemaVersion)
        }
    }
}
