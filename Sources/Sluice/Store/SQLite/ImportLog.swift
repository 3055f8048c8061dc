/// Writes the `"sluice_imports"` row, inside the import's transaction so it commits (or
/// vanishes) with the import. The table must exist (`DatabaseLayout` lists it).
enum ImportLog {
    static let insertSQL = """
        INSERT INTO "sluice_imports" ("started_at", "finished_at", "sources", "bytes", "records", \
        "inserted", "updated", "unchanged", "rejected", "unresolved", "model_sha256") \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Inserts `record`; returns the new row's `id`.
    @discardableResult
    static func insert(_ record: ImportRecord, into connection: Connection) throws(SluiceError) -> Int64 {
        do {
            let statement = try connection.prepare(insertSQL)
            try statement.run([
                .text(record.startedAt), .text(record.finishedAt), .text(record.sources),
                .integer(record.bytes), .integer(record.records), .integer(record.inserted),
                .integer(record.updated), .integer(record.unchanged), .integer(record.rejected),
                .integer(record.unresolved), .text(record.modelSHA256),
            ])
            return connection.lastInsertRowID
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }
}
