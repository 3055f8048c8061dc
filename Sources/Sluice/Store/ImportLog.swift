/// Writes and reads the `"sluice_imports"` rows, in SQL both stores run alike (`SQLRunning`).
/// The row is written inside the import's transaction, so it commits (or vanishes) with the
/// import: the last row is the last committed import. The table must exist (`DatabaseLayout`
/// lists it).
enum ImportLog {
    static let insertSQL = """
        INSERT INTO "sluice_imports" ("started_at", "finished_at", "sources", "bytes", "records", \
        "inserted", "updated", "unchanged", "rejected", "unresolved", "model_sha256", "inputs", "feed") \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func insert(_ record: ImportRecord, into runner: some SQLRunning) throws(SluiceError) {
        try runner.run(insertSQL, [
            .text(record.startedAt), .text(record.finishedAt), .text(record.sources),
            .integer(record.bytes), .integer(record.records), .integer(record.inserted),
            .integer(record.updated), .integer(record.unchanged), .integer(record.rejected),
            .integer(record.unresolved), .text(record.modelSHA256), .text(record.inputs),
            record.feed.map(ColumnValue.text) ?? .null,
        ])
    }

    /// The last committed import of `feed` (nil: of no feed): what `--skip-unchanged` compares
    /// the inputs with. Nil when there was none.
    static func last(in runner: some SQLRunning, feed: String?) throws(SluiceError) -> LoggedImport? {
        let rows = try runner.rows("""
            SELECT "id", "finished_at", "model_sha256", "inputs" FROM "sluice_imports" \
            WHERE "feed" \(feed == nil ? "IS NULL" : "= ?") ORDER BY "id" DESC LIMIT 1
            """, feed.map { [.text($0)] } ?? [])
        guard let row = rows.first, row.count == 4, let id = row[0].integerValue else { return nil }
        return LoggedImport(number: id, finishedAt: row[1].textValue ?? "", modelSHA256: row[2].textValue ?? "",
                            inputs: row[3].textValue)
    }
}
