import Testing
@testable import Sluice

struct ByteArenaTests {
    @Test func growingKeepsEveryByteAndOffset() {
        var arena = ByteArena(capacity: 4)
        var offsets: [Int] = []
        for word in ["ab", "", "cdefg", "hijklmnopq"] {
            offsets.append(Array(word.utf8).withUnsafeBytes { arena.append(cellBytes: $0) })
        }
        #expect(offsets == [0, 2, 2, 7])
        #expect(Array(arena.bytes) == Array("abcdefghijklmnopq".utf8))
    }

    @Test func anEmptiedArenaFillsFromItsStart() {
        var arena = ByteArena(capacity: 2)
        _ = Array("first record".utf8).withUnsafeBytes { arena.append(cellBytes: $0) }
        arena.removeAll()
        #expect(arena.count == 0)
        #expect(Array("next".utf8).withUnsafeBytes { arena.append(cellBytes: $0) } == 0)
        #expect(Array(arena.bytes) == Array("next".utf8))
    }
}
