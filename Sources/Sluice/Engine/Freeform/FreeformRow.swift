/// The row a zero-config record becomes (`FreeformWriter`): a value per table column, and the
/// table columns the record sets, in the order of its keys. Reused from record to record.
///
/// A value the parsing thread alone touches, per record and per value.
struct FreeformRow {
    /// The table column of each record column (`FreeformAssembler`'s numbering) known so far;
    /// -1 for a key that found the table full.
    private(set) var tableColumnOf: [Int] = []
    /// A value per table column; only those in `bound` are the current record's.
    private(set) var values: [ColumnValue?]
    /// The table columns the current record sets, each once.
    private(set) var bound: [Int] = []
    /// Per table column, the number of the last record that set it.
    private var setBy: [Int]
    private var number = 0

    init(tableColumns: Int) {
        values = Array(repeating: nil, count: tableColumns)
        setBy = Array(repeating: -1, count: tableColumns)
    }

    /// The next record column's table column (-1: none).
    mutating func addRecordColumn(_ tableColumn: Int) {
        tableColumnOf.append(tableColumn)
    }

    /// A table column added (planned) after the row was made.
    mutating func addTableColumn() {
        values.append(nil)
        setBy.append(-1)
    }

    /// Starts the next record's row, with nothing set.
    mutating func begin() {
        number += 1
        bound.removeAll(keepingCapacity: true)
    }

    /// Sets the row's values from a record's, by record column; a key without a table column
    /// is left out (its values were checked, `FreeformWriter.checkColumns`).
    mutating func set(_ record: FreeformRecord) {
        begin()
        for (column, value) in record.values.enumerated() {
            guard let value else { continue }
            let target = tableColumnOf[column]
            if target >= 0 { set(target, value) }
        }
    }

    mutating func set(_ target: Int, _ value: ColumnValue) {
        values[target] = value
        if setBy[target] != number {
            setBy[target] = number
            bound.append(target)
        }
    }
}
