/// A set of column indexes, as a bit set: the columns of a row that changed, and the key of
/// the cached `UPDATE` that writes them (`RowUpdater`).
struct ColumnSet: Hashable {
    /// Columns 0–63, inline: checking a found row for changes, once per record of a
    /// re-import, then allocates nothing (an array here was a fifth of a re-import's writer).
    private var first: UInt64 = 0
    /// Columns from 64 on, 64 per word; empty (no allocation) for narrower rows.
    private var more: [UInt64]

    init(width: Int) {
        more = width > 64 ? Array(repeating: 0, count: (width - 1) / 64) : []
    }

    mutating func insert(_ index: Int) {
        if index < 64 {
            first |= 1 << UInt64(index)
        } else {
            more[index / 64 - 1] |= 1 << UInt64(index % 64)
        }
    }

    func contains(_ index: Int) -> Bool {
        index < 64 ? first & (1 << UInt64(index)) != 0 : more[index / 64 - 1] & (1 << UInt64(index % 64)) != 0
    }

    /// Empties the set in place (no allocation).
    mutating func removeAll() {
        first = 0
        for word in more.indices { more[word] = 0 }
    }

    var isEmpty: Bool { first == 0 && more.allSatisfy { $0 == 0 } }

    var members: [Int] {
        var result: [Int] = []
        for (wordIndex, word) in ([first] + more).enumerated() {
            var bits = word
            while bits != 0 {
                result.append(wordIndex * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
