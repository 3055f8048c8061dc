import Testing

@testable import Sluice

extension InputTests {
    @Suite("Input: byte order mark")
    struct ByteOrderMarkTests {
        private func chunks(_ bytes: [UInt8], chunkSize: Int = 4) throws -> (chunks: [[UInt8]], bytesRead: Int64) {
            var reader = ChunkReader(source: MemorySource(bytes), chunkSize: chunkSize)
            var chunks: [[UInt8]] = []
            while let chunk = try reader.next() { chunks.append(Array(chunk)) }
            return (chunks, reader.bytesRead)
        }

        @Test("a UTF-8 byte order mark that starts the input is left out; its bytes still count as read")
        func leadingMark() throws {
            let read = try chunks([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8))
            #expect(read.chunks == [Array("{".utf8), Array("\"a\":".utf8), Array("1}".utf8)])
            #expect(read.bytesRead == 10)
        }

        @Test("only a whole mark at the very start is left out")
        func otherBytesStay() throws {
            let input: [[UInt8]] = [
                [0xEF, 0xBB, 0x7B, 0x7D],  // two bytes of a mark: not a mark
                [0x20, 0xEF, 0xBB, 0xBF],  // not at the start
                [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF],  // a second mark is text (and invalid JSON)
            ]
            #expect(try chunks(input[0]).chunks.joined().elementsEqual(input[0]))
            #expect(try chunks(input[1]).chunks.joined().elementsEqual(input[1]))
            #expect(try chunks(input[2], chunkSize: 8).chunks == [[0xEF, 0xBB, 0xBF]])
        }

        @Test("an input that is only a mark is empty")
        func onlyAMark() throws {
            #expect(try chunks([0xEF, 0xBB, 0xBF]).chunks == [])
            #expect(try chunks([0xEF, 0xBB, 0xBF, 0x31], chunkSize: 3).chunks == [[0x31]])
        }
    }
}
