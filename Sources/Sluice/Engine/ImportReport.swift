/// What an import did (SPEC §5), for the summary on stderr and `--stats`.
public struct ImportReport: Sendable, Equatable, Codable {
    public struct EntityCounts: Sendable, Equatable, Codable {
        public var entity: String
        public var inserted = 0
        public var updated = 0
        public var unchanged = 0
        public var rejected = 0

        public init(entity: String) { self.entity = entity }

        /// Every record of the entity lands in exactly one of the four counts.
        public var records: Int { inserted + updated + unchanged + rejected }
    }

    public var entities: [EntityCounts]
    public var sources: [String]
    public var bytes: Int64
    public var records: Int
    public var seconds: Double
    /// Peak resident memory of the process, in bytes.
    public var peakMemoryBytes: Int64

    public var inserted: Int { entities.reduce(0) { $0 + $1.inserted } }
    public var updated: Int { entities.reduce(0) { $0 + $1.updated } }
    public var unchanged: Int { entities.reduce(0) { $0 + $1.unchanged } }
    public var rejected: Int { entities.reduce(0) { $0 + $1.rejected } }
    public var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }
}
