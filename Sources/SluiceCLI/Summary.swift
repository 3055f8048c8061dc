import Sluice

/// The end-of-import summary on stderr (`docs/cli.md`): a table of counts per entity, a totals row
/// when there are several entities, then one line with the time, records, bytes, rate and
/// peak memory, and the first unresolved references if any were left.
///
/// ```
///             inserted  updated  unchanged  rejected  links  unresolved
///   Stop            76        0          0         0     38           0
///   StopTime        76        0          0         0    152           0
///   total          152        0          0         0    190           0
/// sluice: imported 152 records (20.3 KiB) in 0.02 s, 8,806 records/s, peak memory 19.6 MiB
/// ```
///
/// `deleted` appears only when `--delete-missing` deleted rows; `links` and `unresolved` only
/// when an entity has relationships (an entity without any shows `-` there).
enum Summary {
    static func text(of report: ImportReport) -> String {
        var lines = table(of: report)
        lines.append("sluice: imported \(Format.grouped(report.records)) \(report.records == 1 ? "record" : "records") "
            + "(\(Format.bytes(report.bytes))) in \(Format.seconds(report.seconds)), "
            + "\(Format.rate(report.records, seconds: report.seconds)) records/s, "
            + "peak memory \(Format.bytes(report.peakMemoryBytes))")
        if report.replacementCharacters > 0 {
            let count = report.replacementCharacters
            lines.append("sluice: \(Format.grouped(count)) invalid text \(count == 1 ? "sequence" : "sequences") "
                + "replaced with U+FFFD (--invalid-text replace)")
        }
        if report.unresolved > 0 {
            let count = report.unresolved
            lines.append("sluice: \(count) \(count == 1 ? "reference" : "references") left unresolved (links left empty), "
                + "first: " + report.unresolvedExamples.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// `--remove`'s one line: the rows deleted, in all and per entity that lost any
    /// (`sluice: removed feed 'A' from t.sqlite: 12 rows deleted (Stop 8, Trip 4) in 0.01 s`).
    static func removal(of feed: String, from database: String, report: ImportReport) -> String {
        let entities = report.entities.filter { $0.deleted > 0 }.map { "\($0.entity) \(Format.grouped($0.deleted))" }
        return "sluice: removed feed '\(feed)' from \(database): \(Format.grouped(report.deleted)) "
            + "\(report.deleted == 1 ? "row" : "rows") deleted"
            + (entities.isEmpty ? "" : " (\(entities.joined(separator: ", ")))") + " in \(Format.seconds(report.seconds))"
    }

    /// The table's lines: a header, a row per entity, and `total` under several entities.
    /// Names are left-aligned, numbers right-aligned under their headers.
    static func table(of report: ImportReport) -> [String] {
        guard !report.entities.isEmpty else { return [] }
        var columns: [(header: String, value: (ImportReport.EntityCounts) -> Int?)] = [
            ("inserted", { $0.inserted }), ("updated", { $0.updated }),
            ("unchanged", { $0.unchanged }), ("rejected", { $0.rejected }),
        ]
        if report.deleted > 0 { columns.append(("deleted", { $0.deleted })) }
        let linked = report.entities.contains(where: \.hasRelationships)
        if linked {
            columns.append(("links", { $0.hasRelationships ? $0.links : nil }))
            columns.append(("unresolved", { $0.hasRelationships ? $0.unresolved : nil }))
        }

        var counts = report.entities
        if counts.count > 1 {
            var total = ImportReport.EntityCounts(entity: "total", hasRelationships: linked)
            (total.inserted, total.updated, total.unchanged, total.rejected) =
                (report.inserted, report.updated, report.unchanged, report.rejected)
            (total.deleted, total.links, total.unresolved) = (report.deleted, report.links, report.unresolved)
            counts.append(total)
        }
        let rows = counts.map { entity in (entity.entity, columns.map { $0.value(entity).map(Format.grouped) ?? "-" }) }

        let nameWidth = rows.map(\.0.count).max() ?? 0
        let widths = columns.indices.map { column in
            rows.map { $0.1[column].count }.reduce(columns[column].header.count, max)
        }
        func line(_ name: String, _ cells: [String]) -> String {
            var text = "  " + name + String(repeating: " ", count: nameWidth - name.count)
            for (cell, width) in zip(cells, widths) {
                text += "  " + String(repeating: " ", count: width - cell.count) + cell
            }
            return text
        }
        return [line("", columns.map(\.header))] + rows.map { line($0.0, $0.1) }
    }
}
