/// How many values one statement binds, and the `?` lists that hold them.
enum SQLParameters {
    /// The most parameters one statement binds (SQLite allows 32,766): a statement with a
    /// `VALUES` list of thousands of values takes megabytes to prepare and hold, so a batch's
    /// identities are looked up 1,024 values at a time (with each record's number: 512
    /// identities, 10 queries for 5,000), and a multi-row `INSERT` binds no more.
    static let maxPerStatement = 1_024

    /// `?, ?, …`: `count` placeholders.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The length of a list for `count` values: a power of two (at least 16, at most
    /// `limit`), padded with NULLs, so a few prepared statements serve every batch. A
    /// statement per distinct count would pile up: one with thousands of parameters takes
    /// hundreds of kilobytes.
    static func listSize(for count: Int, limit: Int) -> Int {
        precondition(count <= limit, "callers cut their keys into chunks of at most `limit`")
        var size = 16
        while size < count { size *= 2 }
        return min(size, limit)
    }
}
