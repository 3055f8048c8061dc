/// The indexes over a new table's to-one columns that were made with the table
/// (`SecondaryIndexes.early`) and are kept up while the writer's new rows fill them in the
/// index's order: each value no smaller than the last, so that every entry goes in at the
/// index's end, as the rows do in the table. W3's stop times name their trips in the order
/// the trips were written: keeping `stop_times_trip_pk` up costs the writer 1,900
/// instructions a row, where building it after the load cost 2,400 on the path (and the
/// writer, not the reading thread, sets W3's pace while the rows go in).
///
/// The first batch that would put an entry anywhere else drops the index before its rows go
/// in, and it is built after the load with the others: a smaller value than the last, a row
/// that existed before the batch (an update lands where its pk sorts), or a link left for
/// later (the second pass sets it in any order). A table another entity writes to, or one the
/// import did not create, is not watched: its early indexes are dropped when first filled, as
/// `LinkWriter.noteFilledColumns` does for every other column.
struct EarlyIndexOrder {
    private struct Watched {
        let relationship: Int
        /// The column among the writer's row columns.
        let column: Int
        let name: String
        /// The largest value an inserted row gave the column so far.
        var last = Int64.min
    }

    private let table: String
    private let indexes: SecondaryIndexes?
    private var watched: [Watched] = []

    /// Watches the early index of each of `toOnes` (its relationship, its column among the
    /// row's columns, and the column's name) that `indexes` has for `table`; none unless
    /// `enabled`.
    init(table: String, toOnes: [(relationship: Int, column: Int, name: String)], indexes: SecondaryIndexes?, enabled: Bool) {
        self.table = table
        self.indexes = indexes
        guard enabled, let indexes else { return }
        for toOne in toOnes where indexes.keepWhileInOrder(table: table, column: toOne.name) {
            watched.append(Watched(relationship: toOne.relationship, column: toOne.column, name: toOne.name))
        }
    }

    /// Whether no index is kept in order any more.
    var isEmpty: Bool { watched.isEmpty }

    /// Before a batch's rows go in: drops each watched index whose column the batch would not
    /// fill at the index's end. `newRows` are the records inserted, in the order of their pks;
    /// `existed` those whose row was found; `width` and `relationshipCount` the batch's shape.
    mutating func check(newRows: [Int], existed: some Sequence<Int>, in batch: borrowing EntityBatch, width: Int,
                        relationshipCount: Int) throws(SluiceError) {
        var kept: [Watched] = []
        for var index in watched {
            if fills(&index, newRows: newRows, existed: existed, in: batch, width: width, relationshipCount: relationshipCount) {
                kept.append(index)
            } else {
                try indexes?.willFill(table: table, column: index.name)
            }
        }
        watched = kept
    }

    /// Whether the batch fills `index`'s column only at the index's end (raising its `last`).
    private func fills(_ index: inout Watched, newRows: [Int], existed: some Sequence<Int>, in batch: borrowing EntityBatch,
                       width: Int, relationshipCount: Int) -> Bool {
        for record in existed where batch.linksSomething(record * relationshipCount + index.relationship) {
            return false
        }
        var last = index.last
        for record in newRows {
            let cell = batch.values[record * width + index.column]
            switch cell.kind {
            case .integer:
                guard cell.integer >= last else { return false }
                last = cell.integer
            case .missing:
                // No value with the row: a link waiting for its target is set later, anywhere.
                if batch.linksSomething(record * relationshipCount + index.relationship) { return false }
            case .null:
                continue  // not in an index that leaves out NULL
            case .real, .text, .blob:
                return false
            }
        }
        index.last = last
        return true
    }
}
