/// The names an input's rows may be mapped by in the model's root: its path as given, its
/// file name, its file name without the extension (`data/stops.txt`: `data/stops.txt`,
/// `stops.txt`, `stops`). A `.gz` is not part of the name (`stops.csv.gz` is `stops.csv`).
enum InputNames {
    static func fileNames(of path: String) -> [String] {
        var full = Substring(path)
        if full.lowercased().hasSuffix(".gz") { full = full.dropLast(3) }
        let base = full.split(separator: "/", omittingEmptySubsequences: false).last ?? full
        var names = [String(full)]
        if base != full { names.append(String(base)) }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { names.append(String(base[..<dot])) }
        return names.filter { !$0.isEmpty }
    }

    /// The file name without its directory and extension (`.gz` first): `gtfs/stops.txt` → `stops`.
    static func stem(of path: String) -> String {
        let names = fileNames(of: path)
        return names.last ?? path
    }
}
