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
