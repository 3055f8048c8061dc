/// A PostgreSQL connection URI as `--db` takes it: `postgresql://user@host:5432/db`,
/// `postgres://…`, `postgresql:///db` for the local socket (`docs/postgresql.md`). libpq
/// parses it; Sluice only recognises it and names it without its password.
enum PostgresURI {
    static func isURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// `uri` without a password: the one after `user:` in the authority, and any
    /// `password=` parameter, become `***`, and so does anything else that may be the password
    /// (`secrets(of:)`), however malformed the URI is.
    static func displayName(_ uri: String) -> String {
        mask(structuralDisplayName(uri), secrets: secrets(of: uri))
    }

    /// `message` (libpq's or the server's) with `uri` named by `displayName` and every string
    /// that may be its password (`secrets(of:)`) replaced by `***`: libpq echoes the raw URI
    /// when it cannot parse it (`… in URI: "postgresql://u:pw@[::1/db"`), and a token it cannot
    /// percent-decode (`invalid percent-encoded token: "Secr3tPW%zz"`).
    static func masked(_ message: String, uri: String) -> String {
        let secrets = secrets(of: uri)
        return mask(message.replacing(uri, with: mask(structuralDisplayName(uri), secrets: secrets)), secrets: secrets)
    }

    /// What in `uri` may be a password, longest first: the text after `user:` up to the first
    /// `@` (libpq's reading) and up to the last `@` (a password holding `@`, `/` or `?`), the
    /// value of every `password=` parameter, each also percent-decoded, and the pieces of each
    /// between the characters libpq splits a URI at (a password holding `/` is read as a host
    /// and a port, and libpq then echoes the piece it calls a port). A string shorter than 3
    /// bytes is masked only where it stands quoted, as libpq echoes what it cannot read
    /// (`invalid integer value "b" for connection option "port"`): masking every `p` of a
    /// message would hide the message, not a secret (the URI itself is still replaced whole,
    /// and its name masked by its structure).
    static func secrets(of uri: String) -> [String] {
        guard let scheme = uri.firstRange(of: "://") else { return [] }
        let rest = uri[scheme.upperBound...]
        var whole: [Substring] = []
        func userPassword(_ userInfo: Substring) {
            if let colon = userInfo.firstIndex(of: ":") { whole.append(userInfo[userInfo.index(after: colon)...]) }
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        if let at = rest[..<authorityEnd].firstIndex(of: "@") { userPassword(rest[..<at]) }
        if let at = rest.lastIndex(of: "@") { userPassword(rest[..<at]) }
        if let mark = rest.firstIndex(of: "?") {
            for part in rest[rest.index(after: mark)...].split(separator: "&") where part.lowercased().hasPrefix("password=") {
                whole.append(part.dropFirst("password=".count))
            }
        }
        var found: Set<String> = []
        for candidate in whole where !candidate.isEmpty {
            for form in [String(candidate), percentDecoded(candidate)] {
                found.insert(form)
                for piece in form.split(whereSeparator: { "@/:?&=#[],".contains($0) }) { found.insert(String(piece)) }
            }
        }
        return found.filter { !$0.isEmpty }.sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }
    }

    private static func mask(_ text: String, secrets: [String]) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty && text.contains(secret) {
            if secret.utf8.count >= 3 {
                text = text.replacing(secret, with: "***")
            } else {
                text = text.replacing("\"\(secret)\"", with: "\"***\"")
            }
        }
        return text
    }

    /// `%XX` decoded where it is valid, left as it is elsewhere.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var at = 0
        while at < utf8.count {
            if utf8[at] == UInt8(ascii: "%"), at + 2 < utf8.count,
               let high = hexDigit(utf8[at + 1]), let low = hexDigit(utf8[at + 2]) {
                bytes.append(high << 4 | low)
                at += 3
            } else {
                bytes.append(utf8[at])
                at += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The user's password in the authority and `password=` parameters as `***`.
    private static func structuralDisplayName(_ uri: String) -> String {
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
