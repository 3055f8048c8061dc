/// A PostgreSQL connection URI as `--db` takes it: `postgresql://user@host:5432/db`,
/// `postgres://…`, `postgresql:///db` for the local socket (`docs/postgresql.md`). libpq
/// parses it; Sluice only recognises it and names it without its password.
enum PostgresURI {
    static func isURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// `uri` without a password: the one after `user:` in the authority, and any
    /// `password=` parameter, become `***`.
    static func displayName(_ uri: String) -> String {
        guard let scheme = uri.firstRange(of: "://") else { return uri }
        var rest = uri[scheme.upperBound...]
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = redactPasswordParameter(String(rest[mark...]))
            rest = rest[..<mark]
        }
        var authority = String(rest)
        var path = ""
        if let slash = rest.firstIndex(of: "/") {
            authority = String(rest[..<slash])
            path = String(rest[slash...])
        }
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            if let colon = user.firstIndex(of: ":") {
                authority = String(user[..<colon]) + ":***" + String(authority[at...])
            }
        }
        return String(uri[..<scheme.upperBound]) + authority + path + query
    }

    private static func redactPasswordParameter(_ query: String) -> String {
        let parts = query.dropFirst().split(separator: "&", omittingEmptySubsequences: false).map { part in
            part.lowercased().hasPrefix("password=") ? "password=***" : String(part)
        }
        return "?" + parts.joined(separator: "&")
    }
}
