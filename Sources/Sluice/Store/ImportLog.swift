/// One row of `"sluice_imports"`: what a finished import did. Counts are over all entities,
/// stub rows counted as inserted (`docs/database-layout.md`).
struct ImportRecord: Sendable, Equatable {
    /// ISO 8601 UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    var startedAt: String
    var finishedAt: String
    /// The inputs, as the report names them (e.g. joined with ", "; `-` for standard input).
    var sources: String
    var bytes: Int64
    var records: Int64
    var inserted: Int64
    var updated: Int64
    var unchanged: Int64
    var rejected: Int64
    var unresolved: Int64
    /// Hex SHA-256 of the model file's bytes (empty for zero-config imports).
    var modelSHA256: String
}

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
