/// Which table column each key of a zero-config import goes to (`docs/cli.md`, zero-config).
///
/// Every distinct key has a column of its own. A key goes to the column named as it is (as
/// the store can name it: `FreeformTableStore.columnName(forKey:)`) unless that name is taken
/// as the store compares names: on SQLite, which ignores ASCII case, by a column of another
/// spelling (`Name` before `name`); on every store, by the table's primary key `pk`. Such a
/// key gets the first free `<key>_2`, `<key>_3`, … as `sluice infer` names clashing
/// attributes (`NameScope`): `Name`, `name_2`, `NAME_3`.
///
/// A renamed key is recorded in the database (`FreeformTableStore.recordRenamedKeys`), so that
/// a later import, whatever order its keys come in, maps each key to the same column, and a
/// key that happens to be spelled like another's renamed column (`name_2`) does not share it.
struct FreeformColumns {
    /// The table's columns in order, those this import adds at the end.
    private(set) var names: [String]
    private var scope: NameScope
    /// The column number of each name exactly as spelled.
    private var numbers: [String: Int] = [:]
    /// Recorded and new renames: key (as the store names it) → column.
    private var renamed: [String: String]
    /// The columns renamed keys go to: no other key may take them.
    private var renameTargets: Set<String>
    /// Renames made by this import and not yet recorded.
    private var unrecorded: [(key: String, column: String)] = []
    /// Every renamed key this import met, in the order met, for the note.
    private(set) var renamesUsed: [(key: String, column: String)] = []
    /// The name the store gives a column for a key.
    private let legalName: (String) -> String

    /// - Parameters:
    ///   - foldsCase: the store's column names ignore ASCII case (SQLite's).
    ///   - legalName: the store's name for a key's column (`FreeformTableStore.columnName(forKey:)`).
    init(columns: [String], renamed: [String: String], foldsCase: Bool, legalName: @escaping (String) -> String = { $0 }) {
        names = columns
        self.renamed = renamed
        self.legalName = legalName
        scope = NameScope(reserved: columns + [Model.primaryKeyColumn], foldsCase: foldsCase)
        for (number, name) in columns.enumerated() where numbers[name] == nil {
            numbers[name] = number
        }
        renameTargets = Set(renamed.values)
    }

    /// The column `key` goes to, and whether it is new (to be added, named `names[number]`);
    /// nil when it would be new and the table already has `limit` columns.
    mutating func column(forKey key: String, limit: Int) -> (number: Int, isNew: Bool)? {
        // SQL text ends at a NUL: the column is named with U+FFFD in its place.
        let key = legalName(key.utf8.contains(0) ? key.replacing("\u{0}", with: "\u{FFFD}") : key)
        if let column = renamed[key], let number = numbers[column] {
            renamesUsed.append((key, column))
            return (number, false)
        }
        if key != Model.primaryKeyColumn, let number = numbers[key], !renameTargets.contains(key) {
            return (number, false)
        }
        guard names.count < limit else { return nil }
        var name = key
        var suffix = 1
        while !scope.isFree(name) || renameTargets.contains(name) {
            suffix += 1
            name = legalName("\(key)_\(suffix)")
        }
        scope.reserve(name)
        let number = names.count
        names.append(name)
        numbers[name] = number
        if name != key {
            renamed[key] = name
            renameTargets.insert(name)
            unrecorded.append((key, name))
            renamesUsed.append((key, name))
        }
        return (number, true)
    }

    /// The renames made since the last call, to record with the columns they name.
    mutating func takeUnrecorded() -> [(key: String, column: String)] {
        defer { unrecorded.removeAll() }
        return unrecorded
    }

    /// What a note says of the renamed keys: `"name" → "name_2", "NAME" → "NAME_3"`, the
    /// first few and how many more.
    static func describe(_ renames: [(key: String, column: String)], limit: Int = 5) -> String {
        var text = renames.prefix(limit).map { "\(quoteIdentifier($0.key)) → \(quoteIdentifier($0.column))" }
            .joined(separator: ", ")
        if renames.count > limit { text += " and \(renames.count - limit) more" }
        return text
    }
}
