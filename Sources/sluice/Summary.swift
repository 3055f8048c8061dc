import Sluice

/// The end-of-import summary on stderr (SPEC §5).
enum Summary {
    static func text(of report: ImportReport) -> String {
        let rate = Int(report.recordsPerSecond.rounded())
        var lines = [
            "sluice: imported \(report.records) \(report.records == 1 ? "record" : "records") "
                + "(\(byteCount(report.bytes))) in \(seconds(report.seconds)), \(rate) records/s, "
                + "peak memory \(byteCount(report.peakMemoryBytes))",
        ]
        let width = report.entities.map(\.entity.count).max() ?? 0
        for entity in report.entities {
            let name = entity.entity + String(repeating: " ", count: width - entity.entity.count)
            var line = "  \(name)  \(entity.inserted) inserted, \(entity.updated) updated, "
                + "\(entity.unchanged) unchanged, \(entity.rejected) rejected"
            if entity.deleted > 0 { line += ", \(entity.deleted) deleted" }
            if entity.hasRelationships { line += "; \(entity.links) links, \(entity.unresolved) unresolved" }
            lines.append(line)
        }
        if report.unresolved > 0 {
            let count = report.unresolved
            lines.append("sluice: \(count) \(count == 1 ? "reference" : "references") left unresolved (links left empty), "
                + "first: " + report.unresolvedExamples.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    static func byteCount(_ bytes: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : "\(oneDecimal(value)) \(units[unit])"
    }

    static func seconds(_ value: Double) -> String {
        value < 10 ? "\(twoDecimals(value)) s" : "\(oneDecimal(value)) s"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
