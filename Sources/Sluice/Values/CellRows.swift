/// Rows of cells read in place: `width` cells a row in one flat buffer, their text and blob
/// bytes in `arena`. How the Engine hands a batch to the row writers of `Store/`: a plain
/// value, so passing it per row counts no reference and copies nothing.
///
/// Valid only inside the `withUnsafe…` call over the batch's arrays that made it, like the
/// pointers it holds.
struct CellRows {
    let cells: UnsafeBufferPointer<Cell>
    let width: Int
    let arena: UnsafeRawBufferPointer
    /// Where each row's record starts, and the index of its input (`SluiceError.input`): how
    /// a store names the record of a row the database refuses. Empty when not known.
    var positions = UnsafeBufferPointer<InputPosition>(start: nil, count: 0)
    var inputs = UnsafeBufferPointer<Int>(start: nil, count: 0)

    /// Column `column` of row `row`.
    subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Where row `row`'s record is: its input's index and its position; nil when not known.
    func place(of row: Int) -> (input: Int, position: InputPosition)? {
        guard positions.indices.contains(row), inputs.indices.contains(row) else { return nil }
        return (inputs[row], positions[row])
    }
}
