extension ImportReport {
    /// Where an import's time went (`docs/cli.md`, `--stats` `phases`), in seconds. The phases
    /// follow one another, so their sum is at most the import's `seconds` (the rest is opening
    /// the database and bringing its schema up to the model, and making the report).
    public struct Phases: Sendable, Equatable, Codable {
        /// From opening the database until the last batch is written: reading, parsing and
        /// writing the records (the batches are written while the next ones are read).
        public var reading = 0.0
        /// The second pass, per pass with references waiting, named by its relationships
        /// (`Entity.relationship`, or `Entity.a, Entity.b` for to-ones linked together), in the
        /// order they were linked.
        public var linking: [Relationship] = []
        /// Building the indexes deferred until after the load.
        public var indexing = 0.0
        /// `--delete-missing`.
        public var deleting = 0.0
        /// `ANALYZE`.
        public var analyzing = 0.0
        /// Recording the import in `sluice_imports` and committing (for a new database, also
        /// syncing it and moving it into place).
        public var committing = 0.0
        /// `VACUUM`.
        public var vacuuming = 0.0

        /// The seconds the second pass spent on one relationship.
        public struct Relationship: Sendable, Equatable, Codable {
            /// The relationship, `Entity.relationship` (several to-ones of one entity linked together are named together).
            public var relationship: String
            /// Its seconds.
            public var seconds: Double

            /// The seconds of `relationship`.
            public init(relationship: String, seconds: Double) {
                self.relationship = relationship
                self.seconds = seconds
            }
        }

        /// Every phase at zero seconds.
        public init() {}

        /// The second pass over every relationship.
        public var linkingTotal: Double { linking.reduce(0) { $0 + $1.seconds } }

        /// Every phase added up.
        public var total: Double { reading + linkingTotal + indexing + deleting + analyzing + committing + vacuuming }

        /// Adds `seconds` to the phase that `stage` is part of.
        mutating func add(_ seconds: Double, to stage: ImportProgress.Stage) {
            switch stage {
            case .reading, .finishing: reading += seconds
            case .linking(let relationship, _, _):
                if linking.last?.relationship == relationship {
                    linking[linking.count - 1].seconds += seconds
                } else {
                    linking.append(Relationship(relationship: relationship, seconds: seconds))
                }
            case .indexing: indexing += seconds
            case .deleting: deleting += seconds
            case .analyzing: analyzing += seconds
            case .committing: committing += seconds
            case .vacuuming: vacuuming += seconds
            }
        }
    }
}
