/// The plain (non-unique) indexes of tables this import created, built after the load
/// instead of before it.
///
/// A to-one column starts NULL and is set in the second pass, so an index over it would be
/// written twice per row while the import runs; one `CREATE INDEX` at the end sorts each
/// index once. The tables were created empty by this import, so nothing needs the indexes
/// before then, except a statement that looks rows up by such a column (unlinking a to-many
/// through its inverse, `--delete-missing`), which builds its index first with `ensure`.
/// Unique identity indexes are never deferred: every batch's lookups use them.
final class SecondaryIndexes {
    struct Deferred: Equatable {
        var name: String
        var table: String
        var columns: [String]
        var sql: String
    }

    private let sql: any SQLRunning
    private(set) var deferred: [Deferred]

    init(sql: any SQLRunning, deferred: [Deferred]) {
        self.sql = sql
        self.deferred = deferred
    }

    /// Builds the deferred index over exactly `columns` of `table`, if there is one.
    func ensure(table: String, columns: [String]) throws(SluiceError) {
        guard let index = deferred.firstIndex(where: { $0.table == table && $0.columns == columns }) else { return }
        let statement = deferred.remove(at: index)
        try execute(statement.sql)
    }

    /// Builds every index still deferred; `willBuild` is told each one's name first.
    func createAll(willBuild: (String) -> Void = { _ in }) throws(SluiceError) {
        while let statement = deferred.first {
            willBuild(statement.name)
            try execute(statement.sql)
            deferred.removeFirst()
        }
    }

    private func execute(_ sql: String) throws(SluiceError) {
        try self.sql.execute(sql)
    }
}
