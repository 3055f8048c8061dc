/// What each CSV column's name matched in the objects of one key trie node: a part of
/// `RecordAssembler`, tested on its own (`ColumnKeysTests`). A header fixes a column's name
/// for every row after it, so the name is matched (`KeyMatcher.match`) in the first row that
/// fills the column and remembered; later rows reuse the match, which was a tenth of a GTFS
/// feed's parsing thread (callgrind, W3's re-import).
///
/// Remembered per column for one node (a row's record object) until the next header
/// (`reset`); a row of another node forgets them. Only the first `columnLimit` columns are
/// remembered: a header that wide is matched per row as before. Noncopyable: it owns its buffer.
struct ColumnKeys: ~Copyable {
    /// What a column's name matched: its child node, `unmapped`, or `unknown` (not matched yet).
    private var children: UnsafeMutableBufferPointer<Int32>
    /// The node the matches were made in; -1 for none.
    private var node = -1

    static let unknown: Int32 = -2
    static let unmapped: Int32 = -1
    static let columnLimit = 4_096

    init() {
        children = .allocate(capacity: 16)
        children.initialize(repeating: Self.unknown)
    }

    deinit { children.deallocate() }

    /// What column `column`'s name matched in `node`: a child node, `unmapped`, or `unknown`.
    func match(_ column: Int, in node: Int) -> Int32 {
        guard node == self.node, column < children.count else { return Self.unknown }
        return children[column]
    }

    /// Column `column`'s name matched `child` (nil: nothing) in `node`.
    mutating func remember(_ column: Int, in node: Int, child: Int?) {
        guard column < Self.columnLimit else { return }
        if node != self.node {
            reset()
            self.node = node
        }
        if column >= children.count { grow(to: column + 1) }
        children[column] = child.map { Int32($0) } ?? Self.unmapped
    }

    /// A new header: no column's name is known.
    mutating func reset() {
        node = -1
        children.update(repeating: Self.unknown)
    }

    private mutating func grow(to count: Int) {
        let grown = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(count, children.count * 2))
        grown.initialize(repeating: Self.unknown)
        grown.baseAddress!.update(from: children.baseAddress!, count: children.count)
        children.deallocate()
        children = grown
    }
}
