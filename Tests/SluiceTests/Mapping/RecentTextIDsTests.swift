import Testing
@testable import Sluice

@Suite struct RecentTextIDsTests {
    private func text(_ ids: inout RecentTextIDs, _ id: String, _ index: Int) -> String {
        Array(id.utf8).withUnsafeBytes { ids.text(of: $0, for: index) }
    }

    /// Each id is its text, whatever the one before it was: the same, another of the same
    /// length (short and long), longer than 16 bytes, empty, another relationship's.
    @Test func anIdIsItsTextWhateverCameBefore() {
        var ids = RecentTextIDs(count: 2)
        let sequence = ["T1", "T1", "T2", "T2", "abcdefgh", "abcdefgi", "bbcdefgh", "0123456789abcdef", "0123456789abcdeF",
                        "a much longer id than sixteen bytes", "a much longer id than sixteen bytez", "", "T2", "é", "e"]
        for id in sequence {
            #expect(text(&ids, id, 0) == id)
            #expect(text(&ids, id + "x", 1) == id + "x")
        }
    }
}
