/// What an input's bytes are: JSON (one value, several, NDJSON), or CSV/TSV rows under a
/// header (`docs/import-semantics.md#csv`). A zip archive is found by its magic bytes, and each
/// of its entries is an input of its own format (`ZipReader`).
public enum InputFormat: String, Sendable, CaseIterable {
    /// JSON: an array, one object, an object holding record arrays, or a stream of values.
    case json
    /// CSV: a header row naming the keys, then one record per row, fields separated by commas.
    case csv
    /// CSV with a tab between fields.
    case tsv

    /// The separator of CSV and TSV.
    var separator: UInt8 { self == .tsv ? 0x09 : UInt8(ascii: ",") }

    /// The format a file's name says, a `.gz` after it ignored: `.csv` and `.tsv`; `.json`,
    /// `.ndjson`, `.jsonl`; inside a zip archive `.txt` is CSV too (GTFS names its tables so).
    /// Nil for any other name.
    static func named(_ fileName: String, inArchive: Bool = false) -> InputFormat? {
        var name = Substring(fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? "").lowercased()
        if name.hasSuffix(".gz") { name = String(name.dropLast(3)) }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "txt" where inArchive: return .csv
        case "json", "ndjson", "jsonl", "geojson": return .json
        default: return nil
        }
    }
}
