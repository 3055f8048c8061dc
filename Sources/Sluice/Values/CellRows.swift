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

    /// Column `column` of row `row`.
    subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }
}
