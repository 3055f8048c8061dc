/// What an import did (`docs/cli.md`), for the summary on stderr and `--stats`.
public struct ImportReport: Sendable, Equatable, Codable {
    /// What an import did to one entity's records: each record is counted once.
    public struct EntityCounts: Sendable, Equatable, Codable {
        /// The entity's name.
        public var entity: String
        /// Records that made a new row.
        public var inserted = 0
        /// Records that changed an existing row (only the columns whose value changed are written).
        public var updated = 0
        /// Records whose row already held every value: nothing was written.
        public var unchanged = 0
        /// Records left out under `--on-error skip` (`ImportOptions.onError`), with all nested in them.
        public var rejected = 0
        /// Records a `shouldImport` hook skipped (`EntityHooks`); always 0 for the CLI.
        public var skipped = 0
        /// Links written by this import from this entity's records (to-one columns set,
        /// inverse columns set or cleared, join rows added or removed).
        public var links = 0
        /// References from this entity's records still missing at the end (`unresolved: null`).
        public var unresolved = 0
        /// Rows deleted by `--delete-missing`.
        public var deleted = 0
        /// Whether the entity has relationships (then its links are reported).
        public var hasRelationships = false

        /// Counts of zero for `entity`.
        public init(entity: String, hasRelationships: Bool = false) {
            self.entity = entity
            self.hasRelationships = hasRelationships
        }

        /// Every record of the entity lands in exactly one of the counts.
        public var records: Int { inserted + updated + unchanged + rejected + skipped }
    }

    /// One entry per entity that had records or work, in the model's order.
    public var entities: [EntityCounts]
    /// The first few references left unresolved, e.g. `StopTime.trip "T9" at stop_times.json:4:3`.
    public var unresolvedExamples: [String] = []
    /// The inputs, as named to the import (`<stdin>` for standard input).
    public var sources: [String]
    /// The bytes read from the inputs (compressed bytes for gzip input).
    public var bytes: Int64
    /// The records read from the inputs, as the summary's `imported N records` counts them.
    public var records: Int
    /// From opening the database until the import is committed (and vacuumed).
    public var seconds: Double
    /// Peak resident memory of the process until the import is committed (and vacuumed), in bytes.
    public var peakMemoryBytes: Int64
    /// Where the time went: the seconds of each phase, which add up to at most `seconds`.
    public var phases = Phases()
    /// U+FFFD put in place of invalid text (`--invalid-text replace`): one per invalid UTF-8
    /// sequence (maximal subpart) and per unpaired surrogate escape.
    public var replacementCharacters = 0
    /// Results that are legal but most likely not what was meant, each with its likely fix
    /// (`docs/import-semantics.md`, notes): an input with no record, records with none of their
    /// entity's keys, a key no record held. The CLI prints each as `sluice: note: …`.
    public var notes: [String] = []

    /// Records inserted, over every entity.
    public var inserted: Int { entities.reduce(0) { $0 + $1.inserted } }
    /// Records updated, over every entity.
    public var updated: Int { entities.reduce(0) { $0 + $1.updated } }
    /// Records unchanged, over every entity.
    public var unchanged: Int { entities.reduce(0) { $0 + $1.unchanged } }
    /// Records rejected, over every entity.
    public var rejected: Int { entities.reduce(0) { $0 + $1.rejected } }
    /// Records a `shouldImport` hook skipped, over every entity.
    public var skipped: Int { entities.reduce(0) { $0 + $1.skipped } }
    /// Links written, over every entity.
    public var links: Int { entities.reduce(0) { $0 + $1.links } }
    /// References left unresolved, over every entity.
    public var unresolved: Int { entities.reduce(0) { $0 + $1.unresolved } }
    /// Rows deleted by `--delete-missing`, over every entity.
    public var deleted: Int { entities.reduce(0) { $0 + $1.deleted } }
    /// `records` per second of `seconds`; 0 for an import that took no measurable time.
    public var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }
}
