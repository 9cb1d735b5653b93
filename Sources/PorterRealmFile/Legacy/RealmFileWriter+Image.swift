extension RealmFileWriter {
    /// Writes a complete file through `fd` (a new, empty in-memory file, which the writer then
    /// owns and closes): the image an old file is read through (`LegacyFile`).
    func writeImage(fd: Int32, source: RealmWriteSource) throws {
        let plan = try WriterTablePlan(schema: schema, fileFormat: fileFormat)
        let output = try WriterOutput(path: "(in-memory image)", fd: fd)
        var builder = WriterFileBuilder(plan: plan, source: source, out: output, schemaVersion: schemaVersion)
        try builder.build()
        try output.sync()
    }
}
