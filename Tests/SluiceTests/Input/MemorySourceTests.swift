import Foundation
import Testing

@testable import Sluice

extension InputTests {
    @Suite("Input: memory and peeking")
    struct MemorySourceTests {
        @Test("a memory source gives back its bytes and knows its size")
        func memory() throws {
            let content = sampleBytes(count: 100)
            let source = MemorySource(content)
            #expect(source.name == "<memory>")
            #expect(source.expectedSize == 100)
            #expect(try readAll(source, chunkSize: 7) == content)
        }

        @Test("any collection of bytes will do")
        func collections() throws {
            #expect(try readAll(MemorySource("[1,2]".utf8, name: "s")) == Array("[1,2]".utf8))
            #expect(try readAll(MemorySource(Data([1, 2, 3]))) == [1, 2, 3])
            #expect(try readAll(MemorySource(sampleBytes(count: 20)[5..<15])) == Array(sampleBytes(count: 20)[5..<15]))
        }

        @Test("non-gzip input is passed on with the peeked bytes first", arguments: [
            "[{\"a\":1},{\"a\":2}]", "7", "", "{}", "\u{1F}x not gzip",
        ])
        func peekReplay(text: String) throws {
            let content = Array(text.utf8)
            let source = try InputOpener.decompressing(MemorySource(content, name: "in.json"))
            #expect(source is ReplaySource)
            #expect(source.name == "in.json")
            #expect(source.expectedSize == Int64(content.count))
            #expect(try readAll(source, chunkSize: 3) == content)
        }

        @Test("peeking works on a source that gives one byte per read")
        func peekTrickle() throws {
            let content = Array("[true]".utf8)
            let source = try InputOpener.decompressing(TrickleSource(content))
            #expect(try readAll(source, chunkSize: 4) == content)
        }

        @Test("the replay wrapper hands out its prefix, then the rest")
        func replayDirectly() throws {
            let source = ReplaySource([0x5B, 0x31], then: MemorySource(Array(",2]".utf8)))
            var one = [UInt8](repeating: 0, count: 1)
            let count = try one.withUnsafeMutableBytes { try source.read(into: $0) }
            #expect(count == 1 && one == [0x5B])
            #expect(try readAll(source, chunkSize: 2) == Array("1,2]".utf8))
        }
    }
}
