/// What the second pass did for one relationship, whichever store ran it
/// (`PendingLinkStore.resolve`): the links made, the stub rows created, the references still
/// missing and the first of them.
struct LinkOutcome {
    var linked = 0
    var stubs = 0
    var unresolved = 0
    var examples: [UnresolvedLink] = []

    /// Records `count` references still missing after the second pass, described by the first
    /// of them (`rows`: key, input, line, column each, in input order), for the report; for the
    /// `fail` policy, stops the import with the first one's position. The one place the
    /// policies `null` and `fail` are decided, for every store.
    mutating func leaveUnresolved(_ count: Int, examples rows: [[ColumnValue]], plan: LinkPlan,
                                  policy: Model.UnresolvedPolicy, sources: [String]) throws(SluiceError) {
        func integer(_ value: ColumnValue) -> Int? {
            if case .integer(let number) = value { return Int(number) }
            return nil
        }
        unresolved = count
        examples = rows.map { row in
            UnresolvedLink(relationship: plan.name, key: row[0],
                           source: integer(row[1]).map { sources.indices.contains($0) ? sources[$0] : "?" } ?? "?",
                           position: InputPosition(line: integer(row[2]) ?? 0, column: integer(row[3]) ?? 0, offset: 0))
        }
        if policy == .fail, let first = examples.first {
            let more = count > 1 ? " (and \(count - 1) more)" : ""
            throw SluiceError(.data, "\(plan.name): unresolved reference \(first.key)\(more)", in: first.source, at: first.position)
        }
    }
}

/// A reference the second pass could not link, for the report.
struct UnresolvedLink: Equatable {
    var relationship: String
    var key: ColumnValue
    /// The input's name, and where the record is in it.
    var source: String
    var position: InputPosition
}
