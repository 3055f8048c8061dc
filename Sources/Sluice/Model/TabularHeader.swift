/// Where the names of a tabular input's columns are (`docs/model.md`, tabular JSON): a root's
/// `header`, or `--header`. The model says it; `TabularRows` reads by it.
public enum TabularHeader: Sendable, Equatable {
    /// Header then rows: the first array at the record location names the columns
    /// (`["id","name"]` then `[1,"a"]` …, as NDJSON or inside one array).
    case first
    /// pandas' split orientation: the array of strings under this key of the object that holds
    /// the record location (`{"columns": [...], "data": [[...], ...]}`), before the rows.
    case sibling(String)

    /// `first`, or the sibling key.
    public init(_ text: String) { self = text == "first" ? .first : .sibling(text) }
    /// As the model and `--header` spell it: `first`, or the sibling key.
    public var text: String {
        switch self {
        case .first: "first"
        case .sibling(let key): key
        }
    }
}
