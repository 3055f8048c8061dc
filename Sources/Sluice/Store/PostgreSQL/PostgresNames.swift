/// The names PostgreSQL cannot take as they are (`docs/postgresql.md`, names): one longer than
/// 63 bytes (the server cuts it, so a second import no longer finds it by its full name, and
/// two names alike in their first 63 bytes become one), the empty name (a zero-length quoted
/// identifier is a syntax error), and a column named like a system column (`xmin`, `ctid`…,
/// which every table already has).
///
/// * A zero-config key is data: it is mapped to a legal name (`columnName(forKey:)`), the same
///   every time, so a second import finds its column.
/// * A model's names are the user's to choose: a table, column or index name that cannot be
///   used is refused before anything is written (`problems(in:)`), with what to change.
enum PostgresNames {
    /// `NAMEDATALEN - 1`: the longest identifier the server keeps whole, in bytes.
    static let maxBytes = 63
    /// The most columns a table may have.
    static let maxColumns = 1600
    /// The most an entity's table may have: the server's limit (`PostgresEntityRows` stages
    /// no batch in a table of more columns).
    static let maxEntityColumns = maxColumns
    /// Columns every table has (PostgreSQL 12 and later; `oid` is no longer one of them).
    static let systemColumns: Set<String> = ["tableoid", "xmin", "cmin", "xmax", "cmax", "ctid"]

    /// The column of a zero-config key: the key itself when PostgreSQL takes it as it is; else
    /// (empty, over 63 bytes, a system column's name in any ASCII case, or already of the form
    /// below) the key's first bytes, `~`, and 16 hex digits of the SHA-256 of the key in ASCII
    /// lowercase: at most 63 bytes, distinct for keys that differ other than in ASCII case, and
    /// the same on every import (`FreeformColumns` tells apart keys whose names still meet).
    static func columnName(forKey key: String) -> String {
        let folded = ColumnName.fold(key)
        if !key.isEmpty, key.utf8.count <= maxBytes, !systemColumns.contains(folded), !isMapped(folded) { return key }
        let hash = SHA256.hex(of: Array(folded.utf8)).prefix(16)
        return prefix(of: key, bytes: maxBytes - 17) + "~" + hash
    }

    /// Whether `folded` ends as a mapped name does (`~` and 16 lowercase hex digits): such a key
    /// is mapped too, so that no key takes the column another key was mapped to.
    private static func isMapped(_ folded: String) -> Bool {
        let utf8 = Array(folded.utf8.suffix(17))
        guard utf8.count == 17, utf8[0] == UInt8(ascii: "~") else { return false }
        return utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The longest start of `text` of at most `bytes` UTF-8 bytes that ends between characters.
    static func prefix(of text: String, bytes: Int) -> String {
        var count = 0
        var result = ""
        for scalar in text.unicodeScalars {
            count += String(scalar).utf8.count
            guard count <= bytes else { break }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// The usage error refusing `tables` whose names PostgreSQL cannot take (`problems(in:)`),
    /// all in one line with what to change; nil when it takes them all.
    static func refusal(of tables: [TableDefinition]) -> SluiceError? {
        let problems = problems(in: tables)
        guard !problems.isEmpty else { return nil }
        return SluiceError(.usage, "the model's names do not fit PostgreSQL: " + problems.joined(separator: "; ")
            + " (rename them in the model: an attribute keeps reading its JSON key through \"key\", an entity names its table with \"table\")")
    }

    /// A `--schema` name the server would cut (so that a second import would not find it).
    static func schemaRefusal(_ schema: String) -> SluiceError? {
        if schema.hasPrefix("pg_") {
            return SluiceError(.usage, "the schema name (--schema) \(quoteIdentifier(schema)) begins with pg_, which PostgreSQL "
                + "keeps for its system schemas")
        }
        guard schema.utf8.count > maxBytes else { return nil }
        return SluiceError(.usage, "the schema name (--schema) \(quoteIdentifier(schema)) is \(schema.utf8.count) bytes long, "
            + "PostgreSQL's names at most \(maxBytes)")
    }

    /// `is 70 bytes long, PostgreSQL's names at most 63` for a name the server would cut.
    private static func lengthProblem(_ name: String) -> String? {
        name.utf8.count > maxBytes ? "is \(name.utf8.count) bytes long, PostgreSQL's names at most \(maxBytes)" : nil
    }

    /// Why a column that an import adds to a model's table (`AddedNames`)
    /// cannot be named `name`: over 63 bytes, or a system column's name; nil when it can.
    static func problem(ofAddedColumn name: String) -> String? {
        if systemColumns.contains(name) { return "PostgreSQL tables have a system column of this name" }
        return lengthProblem(name).map { "its name \($0)" }
    }

    /// Why a table that an import adds (`AddedNames`) cannot be named `name`: over 63 bytes.
    static func problem(ofAddedTable name: String) -> String? {
        lengthProblem(name).map { "its table's name \($0)" }
    }

    /// What in `tables` PostgreSQL cannot take, one phrase each: empty names, names over 63
    /// bytes, system column names, and relations (tables and indexes share a schema's names)
    /// whose names the server would cut to the same 63 bytes.
    static func problems(in tables: [TableDefinition]) -> [String] {
        var problems: [String] = []
        /// `what`: "table", or "column of table "t"".
        func check(_ what: String, _ name: String) {
            if name.isEmpty {
                problems.append("a \(what) has an empty name")
            } else if let long = lengthProblem(name) {
                let words = what.split(separator: " ", maxSplits: 1)
                problems.append("\(words[0]) \(quoteIdentifier(name))" + (words.count > 1 ? " " + words[1] : "") + " " + long)
            }
        }
        for table in tables {
            check("table", table.name)
            for column in table.columns {
                check("column of table \(quoteIdentifier(table.name))", column.name)
                if systemColumns.contains(column.name) {
                    problems.append("column \(quoteIdentifier(column.name)) of table \(quoteIdentifier(table.name)) "
                        + "has the name of a PostgreSQL system column")
                }
            }
        }
        // Index names are made from their table's and columns' names: the server cuts a long
        // one, which is harmless unless two relations are then named alike.
        var relations: [String: String] = [:]
        for table in tables {
            let named = [(table.name, "table \(quoteIdentifier(table.name))")]
                + table.indexDefinitions.map { ($0.name, "index \(quoteIdentifier($0.name))") }
            for (name, what) in named where !name.isEmpty {
                let cut = prefix(of: name, bytes: maxBytes)
                if let other = relations[cut], other != what {
                    problems.append("\(other) and \(what) are the same name to PostgreSQL, which keeps \(maxBytes) bytes of a name")
                } else {
                    relations[cut] = what
                }
            }
        }
        return problems
    }
}
