import Sluice

/// The text of the progress bar (`docs/cli.md`), a pure function of the progress and the terminal's
/// width so that it can be tested without a terminal. `ProgressBar` draws it.
///
/// With a known total: `[=======>       ]  45%  12.3 MiB of 27.0 MiB  52,310 records/s  ETA 0:14`.
/// Without (a pipe): `12.3 MiB  1,234,567 records  52,310 records/s  0:42` (the time so far).
/// Once the inputs are read, the stage running and the time so far:
/// `finishing: linking StopTime.trip  65,536 of 3,000,000  1,234,567 records  0:42`.
/// The line never reaches the last column, where some terminals wrap; on a narrow terminal
/// the least useful parts go first (the rate, then the byte counts, the bar, the time).
enum ProgressLine {
    /// The bar's width with its brackets: wide enough to move, narrow enough to leave room.
    static let widestBar = 32
    static let narrowestBar = 12

    static func render(_ progress: ImportProgress, width: Int) -> String {
        let budget = max(1, width - 1)
        let line: String
        if progress.stage.isFinishing {
            line = finishing(progress, budget: budget)
        } else if let total = progress.totalBytes {
            line = known(progress, total: total, budget: budget)
        } else {
            line = unknown(progress, budget: budget)
        }
        return String(line.prefix(budget))
    }

    private static func known(_ progress: ImportProgress, total: Int64, budget: Int) -> String {
        let fraction = total > 0 ? min(1, Double(progress.bytesRead) / Double(total)) : 1
        let percent = String(Int(fraction * 100))
        let percentText = String(repeating: " ", count: 3 - percent.count) + percent + "%"
        let bytes = "\(Format.bytes(progress.bytesRead)) of \(Format.bytes(total))"
        let rate = "\(Format.rate(progress.records, seconds: progress.seconds)) records/s"
        let eta = eta(progress, total: total).map { "ETA \(Format.duration($0))" }

        // Dropped in this order until the line fits.
        var showRate = true, showBytes = true, showBar = true, showETA = eta != nil
        while true {
            var parts = [percentText]
            if showBytes { parts.append(bytes) }
            if showRate { parts.append(rate) }
            if showETA, let eta { parts.append(eta) }
            let text = parts.joined(separator: "  ")
            let room = budget - text.count - 2
            if showBar, room >= narrowestBar {
                return bar(fraction, width: min(widestBar, room)) + "  " + text
            }
            if !showBar, text.count <= budget { return text }
            if showRate { showRate = false } else if showBytes { showBytes = false }
            else if showBar { showBar = false } else if showETA { showETA = false } else { return text }
        }
    }

    private static func unknown(_ progress: ImportProgress, budget: Int) -> String {
        var parts = [
            Format.bytes(progress.bytesRead),
            "\(Format.grouped(progress.records)) \(progress.records == 1 ? "record" : "records")",
            "\(Format.rate(progress.records, seconds: progress.seconds)) records/s",
            Format.duration(progress.seconds),
        ]
        // The time goes first, then the rate; bytes and records stay (the line is cut if need be).
        while parts.joined(separator: "  ").count > budget, parts.count > 2 { parts.removeLast() }
        return parts.joined(separator: "  ")
    }

    /// Once every input is read: what runs now, the records read and the time so far (the
    /// second pass of a big linked import takes a while, and a bar frozen at 100% would look
    /// stuck). The time is what moves while one long statement runs, so it stays longest: the
    /// records go first, then the counts of the stage.
    private static func finishing(_ progress: ImportProgress, budget: Int) -> String {
        let (stage, counts) = describe(progress.stage)
        let label = "finishing: " + stage
        let records = "\(Format.grouped(progress.records)) \(progress.records == 1 ? "record" : "records")"
        let time = Format.duration(progress.seconds)
        for parts in [[label, counts, records, time], [label, counts, time], [label, time]] {
            let text = parts.compactMap { $0 }.joined(separator: "  ")
            if text.count <= budget { return text }
        }
        return label
    }

    /// What a stage of the finish is doing, and how far it is when that is known.
    static func describe(_ stage: ImportProgress.Stage) -> (stage: String, counts: String?) {
        switch stage {
        case .reading, .finishing: return ("writing the last records", nil)
        case .linking(let relationship, let done, let total):
            return ("linking \(relationship)", "\(Format.grouped(done)) of \(Format.grouped(total))")
        case .indexing(let name): return ("building index \(name)", nil)
        case .deleting(let entity): return ("deleting \(entity) rows not in the input", nil)
        case .analyzing: return ("ANALYZE", nil)
        case .committing: return ("committing", nil)
        case .vacuuming: return ("VACUUM", nil)
        }
    }

    /// Seconds left at the rate so far; nil before there is a rate to go by.
    static func eta(_ progress: ImportProgress, total: Int64) -> Double? {
        guard progress.bytesRead > 0, progress.seconds > 0 else { return nil }
        let left = max(0, total - progress.bytesRead)
        return Double(left) * progress.seconds / Double(progress.bytesRead)
    }

    /// `[=====>    ]`, `width` columns with the brackets. ASCII: a terminal in the C locale
    /// shows it as well as any other.
    static func bar(_ fraction: Double, width: Int) -> String {
        let inside = width - 2
        let filled = Int(fraction * Double(inside))
        if filled >= inside { return "[" + String(repeating: "=", count: inside) + "]" }
        return "[" + String(repeating: "=", count: filled) + ">"
            + String(repeating: " ", count: inside - filled - 1) + "]"
    }
}
