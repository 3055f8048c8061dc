/// The `String` last made of a bare id per relationship (`RecordAssembler.setTextLink`), so that
/// an id repeated record after record is not decoded again: a file of rows sorted by their
/// parent names it in each of them (GTFS stop times, about thirty rows per trip), and making
/// the `String` was most of the cost of a link (callgrind, W3's re-import). A part of
/// `RecordAssembler`, tested on its own (`RecentTextIDsTests`).
///
/// Only ids of at most 16 bytes are kept, compared as two words (`EventPlan.KeyWords`, equal
/// exactly when the bytes are). Noncopyable: it owns its buffer.
struct RecentTextIDs: ~Copyable {
    private struct Entry {
        var count = -1
        var words = EventPlan.KeyWords.empty
        var text = ""
    }

    private let entries: UnsafeMutableBufferPointer<Entry>

    /// Room for `count` relationships (`EventPlan.relationships`).
    init(count: Int) {
        entries = .allocate(capacity: max(count, 1))
        entries.initialize(repeating: Entry())
    }

    deinit {
        _ = entries.deinitialize()
        entries.deallocate()
    }

    /// `String(decoding: id, as: UTF8.self)`, the one made for relationship `index` last time
    /// when `id` holds the same bytes.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func text(of id: UnsafeRawBufferPointer, for index: Int) -> String {
        guard id.count <= 16, let base = id.baseAddress else { return String(decoding: id, as: UTF8.self) }
        let words = EventPlan.KeyWords(base, count: id.count)
        if entries[index].count == id.count && entries[index].words == words { return entries[index].text }
        let text = String(decoding: id, as: UTF8.self)
        entries[index] = Entry(count: id.count, words: words, text: text)
        return text
    }
}
