import Testing
@testable import Sluice

extension StoreTests {
    /// `CopyBinary`: the bytes of `COPY … (FORMAT binary)`, and the pk placeholders that let a
    /// batch be encoded before its pks are taken.
    @Suite struct CopyBinaryTests {
        @Test func aRowIsTheFormatsBytes() {
            var binary = CopyBinary()
            binary.removeAll()
            binary.beginRow(fields: 4)
            binary.append(5)
            var arena: [UInt8] = []
            let text = Cell(.text("ab"), in: &arena)
            let flags = arena.withUnsafeBytes { bytes in
                [binary.append(.null, as: .text, in: bytes),
                 binary.append(.integer(1), as: .boolean, in: bytes),
                 binary.append(text, as: .text, in: bytes)]
            }
            binary.finish()
            #expect(flags == [true, true, true])
            let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            let row: [UInt8] = [0, 4, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 5, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1, 1,
                                0, 0, 0, 2, UInt8(ascii: "a"), UInt8(ascii: "b")]
            #expect(Array(binary.bytes) == header + row + [0xFF, 0xFF])
        }

        @Test(arguments: [Int64(0), 1, 42, -1, 1 << 40, .max, .min])
        func aPlaceholderSetLaterIsTheNumberAppended(_ number: Int64) {
            var direct = CopyBinary()
            direct.removeAll()
            direct.beginRow(fields: 2)
            direct.append(number)
            direct.appendNull()
            direct.finish()

            var later = CopyBinary()
            later.removeAll()
            later.beginRow(fields: 2)
            let offset = later.appendPlaceholder()
            later.appendNull()
            later.finish()
            later.set(number, at: offset)
            #expect(Array(later.bytes) == Array(direct.bytes))
        }

        @Test func eachRowsPlaceholderTakesItsOwnNumber() {
            var direct = CopyBinary()
            var later = CopyBinary()
            direct.removeAll()
            later.removeAll()
            var offsets: [Int] = []
            for row in Int64(1)...3 {
                direct.beginRow(fields: 1)
                direct.append(row * 1000)
                later.beginRow(fields: 1)
                offsets.append(later.appendPlaceholder())
            }
            later.set([1000, 2000, 3000], at: offsets)
            #expect(Array(later.bytes) == Array(direct.bytes))
        }
    }
}
