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
    /// What was read of each input, as compact JSON (`InputDigest.json`): name, size, SHA-256
    /// of the bytes as read, a GTFS feed's `feed_version`.
    var inputs = ""
    /// `--feed`: the feed imported (or removed); nil without it.
    var feed: String?
}

/// What the import log keeps of the last committed import that `--skip-unchanged` needs.
struct LoggedImport: Sendable, Equatable {
    /// `sluice_imports.id` (in a Core Data store, the count of Sluice's imports into it).
    var number: Int64
    var finishedAt: String
    var modelSHA256: String
    /// `ImportRecord.inputs`; nil when that import recorded none (before the column existed).
    var inputs: String?
}
