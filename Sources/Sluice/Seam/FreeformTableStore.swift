/// The one table of a zero-config import (`SQLiteFreeformTable`, `PostgresFreeformTable`), written a record at a
/// time by `FreeformWriter`.
protocol FreeformTableStore: AnyObject {
    var name: String { get }
    /// The table's columns in order (`"pk"` among them), as named in the database.
    var columns: [String] { get }
    /// The most columns the table may have, and whose limit that is ("SQLite's").
    var columnLimit: Int { get }
    var columnLimitOwner: String { get }
    /// Whether its columns are text (PostgreSQL's), so a number goes in as written rather than
    /// as an integer or a double, which would change its spelling (`1.5e3`, `-0`).
    var storesNumbersAsText: Bool { get }
    /// The column a key's values go to when the key itself cannot name one (PostgreSQL: over
    /// 63 bytes, empty, a system column's name); the key itself when it can. The same for the
    /// same key on every import, so that a second import finds the column.
    func columnName(forKey key: String) -> String
    /// Whether its column names ignore ASCII case (SQLite's), so that keys differing only in
    /// case need columns named apart (`FreeformColumns`).
    var foldsCase: Bool { get }
    /// The keys earlier imports put in a column of another name (key → column), as
    /// `recordRenamedKeys` recorded them.
    var renamedKeys: [String: String] { get }
    /// Adds columns for values of any JSON type after the others, in one schema change where
    /// the store can (`docs/database-layout.md`, zero-config tables).
    func addColumns(_ names: [String]) throws(SluiceError)
    /// Records keys that go to a column of another name, for later imports (`sluice_renamed_keys`).
    func recordRenamedKeys(_ renames: [(key: String, column: String)]) throws(SluiceError)
    /// Inserts a row setting the columns numbered in `set` to their `values` (indexed by
    /// column number; nil: NULL); the others get their default. It may wait in a buffer until
    /// `flush()`; `source` and `position` name the record in an error found then. A `.data`
    /// error without a position is the record's own (it is rejected, nothing is written).
    func insert(_ values: [ColumnValue?], setting set: [Int], source: String, at position: InputPosition) throws(SluiceError)
    /// Writes every row still waiting; called after the last record.
    func flush() throws(SluiceError)
}
