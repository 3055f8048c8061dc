#if canImport(FoundationEssentials)
import FoundationEssentials  // JSONEncoder without ICU: a smaller resident footprint
#else
import Foundation
#endif
import Sluice

/// `--stats FILE`: the summary's figures as JSON (`docs/cli.md`), keys documented in `docs/cli.md`.
/// Its own shape rather than `ImportReport`'s `Codable` one, so that the totals and the rate
/// are in the file and the file's keys do not change when the library's report does.
struct StatsFile: Encodable {
    struct Counts: Encodable {
        var entity: String?
        var inserted: Int
        var updated: Int
        var unchanged: Int
        var rejected: Int
        var deleted: Int
        var links: Int
        var unresolved: Int
        /// Per entity only: whether `links` and `unresolved` can be other than 0.
        var hasRelationships: Bool?
    }

    /// The seconds of each phase of the import, in the order they run.
    struct Phases: Encodable {
        var reading: Double
        /// The second pass over every relationship, then per relationship.
        var linking: Double
        var linkingByRelationship: [String: Double]
        var indexing: Double
        var deleting: Double
        var analyzing: Double
        var committing: Double
        var vacuuming: Double

        init(_ phases: ImportReport.Phases) {
            reading = phases.reading
            linking = phases.linkingTotal
            linkingByRelationship = Dictionary(phases.linking.map { ($0.relationship, $0.seconds) }, uniquingKeysWith: +)
            indexing = phases.indexing
            deleting = phases.deleting
            analyzing = phases.analyzing
            committing = phases.committing
            vacuuming = phases.vacuuming
        }
    }

    var entities: [Counts]
    var totals: Counts
    var sources: [String]
    var records: Int
    var bytes: Int64
    var seconds: Double
    var phases: Phases
    var recordsPerSecond: Double
    var peakMemoryBytes: Int64
    var replacementCharacters: Int
    var unresolvedExamples: [String]
    var notes: [String]

    init(_ report: ImportReport) {
        entities = report.entities.map { entity in
            Counts(entity: entity.entity, inserted: entity.inserted, updated: entity.updated,
                   unchanged: entity.unchanged, rejected: entity.rejected, deleted: entity.deleted, links: entity.links,
                   unresolved: entity.unresolved, hasRelationships: entity.hasRelationships)
        }
        totals = Counts(entity: nil, inserted: report.inserted, updated: report.updated, unchanged: report.unchanged,
                        rejected: report.rejected, deleted: report.deleted, links: report.links,
                        unresolved: report.unresolved, hasRelationships: nil)
        sources = report.sources
        records = report.records
        bytes = report.bytes
        seconds = report.seconds
        phases = Phases(report.phases)
        recordsPerSecond = report.recordsPerSecond
        peakMemoryBytes = report.peakMemoryBytes
        replacementCharacters = report.replacementCharacters
        unresolvedExamples = report.unresolvedExamples
        notes = report.notes
    }

    /// Writes the JSON (pretty, keys sorted) to `output` and moves it into place; a failure
    /// is an I/O error (exit 74).
    static func write(_ report: ImportReport, to output: OutputFile) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes = Array(try encoder.encode(StatsFile(report))) + [UInt8(ascii: "\n")]
        try output.write(bytes)
        try output.place()
    }
}
