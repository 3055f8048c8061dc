/// Numbers as the summary and the progress bar print them. FoundationEssentials has no
/// number formatting of its own (the formatters live in FoundationInternationalization,
/// which brings ICU and several MiB of resident memory), so these are written out.
enum Format {
    /// `1023 bytes`, `20.3 KiB`, `1.5 GiB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) bytes" : "\(oneDecimal(value)) \(units[unit])"
    }

    /// `0.02 s` below ten seconds, `12.3 s` above.
    static func seconds(_ value: Double) -> String {
        value < 10 ? "\(twoDecimals(value)) s" : "\(oneDecimal(value)) s"
    }

    /// A clock reading: `0:07`, `12:34`, `1:02:03`.
    static func duration(_ value: Double) -> String {
        let total = value.isFinite ? max(0, Int(value.rounded())) : 0
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)" }
        return "\(minutes):\(ss)"
    }

    /// Thousands separated by commas: `3,000,000`. Millions of records are the normal case.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// Records per second over `seconds` (0 before any time has passed), rounded and grouped.
    static func rate(_ records: Int, seconds: Double) -> String {
        grouped(seconds > 0 ? Int((Double(records) / seconds).rounded()) : 0)
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
