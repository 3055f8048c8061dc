import Testing
import SluiceTestSupport

@testable import Sluice

extension InputTests {
    /// The zip archive reader: entries in order from their local headers, every form, every
    /// damage one clear error naming the entry.
    @Suite("Input: zip")
    struct ZipReaderTests {
        /// Each entry's path and bytes, read from `archive` fed by `source` (default: whole).
        private func entries(of archive: [UInt8], trickle: Bool = false, chunkSize: Int = 7)
            throws(SluiceError) -> [(String, [UInt8])]
        {
            let source: ByteSource = trickle ? TrickleSource(archive) : MemorySource(archive, name: "feed.zip")
            let reader = ZipReader(source: source)
            var found: [(String, [UInt8])] = []
            while let entry = try reader.nextEntry() {
                found.append((entry.path, try readAll(entry, chunkSize: chunkSize)))
            }
            return found
        }

        private func error(of archive: [UInt8]) -> String? {
            do throws(SluiceError) {
                _ = try entries(of: archive)
                return nil
            } catch {
                return error.description
            }
        }

        @Test("stored and deflate entries, in archive order, also from a pipe a byte at a time")
        func storedAndDeflate() throws {
            let large = sampleBytes(count: 300_000, seed: 5)
            let archive = try ZipBuilder([
                .init("stops.txt", Array("stop_id\n1\n".utf8), method: .stored),
                .init("dir/stop_times.txt", large),
                .init("empty.txt", [], method: .deflate),
            ]).bytes()
            for trickle in [false, true] {
                let read = try entries(of: archive, trickle: trickle, chunkSize: trickle ? 4_096 : 7)
                #expect(read.map(\.0) == ["stops.txt", "dir/stop_times.txt", "empty.txt"])
                #expect(read.map(\.1) == [Array("stop_id\n1\n".utf8), large, []])
            }
        }

        @Test("sizes in a data descriptor, with and without its signature, and zip64 sizes")
        func descriptorsAndZip64() throws {
            let data = sampleBytes(count: 70_000, seed: 9)
            let archive = try ZipBuilder([
                .init("a.txt", data, descriptor: .withSignature),
                .init("b.txt", data, descriptor: .withoutSignature),
                .init("c.txt", data, zip64: true),
                .init("d.txt", data, descriptor: .withSignature, zip64: true),
                .init("e.txt", data, method: .stored, zip64: true),
            ]).bytes()
            let read = try entries(of: archive)
            #expect(read.map(\.0) == ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"])
            #expect(read.allSatisfy { $0.1 == data })
        }

        @Test("an entry not read to its end is skipped, and still checked")
        func skipping() throws {
            var bad = ZipBuilder.Entry("skipped.txt", Array("x".utf8))
            bad.crc = 1
            let archive = try ZipBuilder([.init("first.txt", Array("1".utf8)), bad, .init("last.txt", Array("2".utf8))]).bytes()
            let reader = ZipReader(source: MemorySource(archive, name: "feed.zip"))
            #expect(try reader.nextEntry()?.path == "first.txt")
            #expect(try reader.nextEntry()?.path == "skipped.txt")
            #expect(throws: SluiceError.self) { _ = try reader.nextEntry() }
        }

        /// `skipUnchecked` (reading the headers ahead, `CSVHeaders`): an entry whose size its
        /// header gives is passed over unread and unchecked, after its first bytes or none;
        /// one whose size is in a data descriptor is read to find its end. The next entry is
        /// read whole either way, also from a pipe.
        @Test("an entry is passed over unchecked when its header gives its size")
        func skippingUnchecked() throws {
            let data = sampleBytes(count: 200_000, seed: 3)
            var damaged = ZipBuilder.Entry("damaged.txt", data)
            damaged.crc = 1  // never checked: never read
            let archive = try ZipBuilder([
                damaged,
                .init("stored.txt", data, method: .stored),
                .init("streamed.txt", data, descriptor: .withSignature),
                .init("last.txt", Array("2".utf8)),
            ]).bytes()
            for trickle in [false, true] {
                let source: ByteSource = trickle ? TrickleSource(archive) : MemorySource(archive, name: "feed.zip")
                let reader = ZipReader(source: source)
                var paths: [String] = []
                while let entry = try reader.nextEntry() {
                    paths.append(entry.path)
                    if entry.path == "last.txt" {
                        #expect(try readAll(entry, chunkSize: 7) == Array("2".utf8))
                        continue
                    }
                    if entry.path == "stored.txt" {
                        var first = [UInt8](repeating: 0, count: 10)
                        let count = try first.withUnsafeMutableBytes { buffer throws(SluiceError) in try entry.read(into: buffer) }
                        #expect(Array(first[..<count]) == Array(data[..<count]))
                    }
                    try entry.skipUnchecked()
                }
                #expect(paths == ["damaged.txt", "stored.txt", "streamed.txt", "last.txt"])
            }
        }

        @Test("a wrong CRC-32 is an error naming the entry")
        func crcMismatch() throws {
            var entry = ZipBuilder.Entry("stops.txt", Array("stop_id\n1\n".utf8))
            entry.crc = 0xDEAD_BEEF
            #expect(error(of: try ZipBuilder([entry]).bytes())
                == "feed.zip:stops.txt: invalid zip archive: CRC-32 mismatch (the archive is damaged)")
        }

        @Test("a truncated archive is an error naming the entry it ends in")
        func truncated() throws {
            let archive = try ZipBuilder([.init("a.txt", Array("a".utf8)), .init("stops.txt", sampleBytes(count: 5_000))]).bytes()
            #expect(error(of: Array(archive.prefix(archive.count - 200)))
                == "feed.zip:stops.txt: invalid zip archive: it ends inside this entry (truncated?)")
            #expect(error(of: Array(archive.prefix(33)))
                == "feed.zip: invalid zip archive: the archive ends inside an entry's header (truncated?)")
            let entriesOnly = ZipBuilder.entriesOnly(archive)
            #expect(error(of: entriesOnly) == "feed.zip: invalid zip archive: the archive ends before its central directory (truncated?)")
        }

        @Test("the central directory is read to its end record: cut anywhere in it, the archive is truncated")
        func centralDirectoryToItsEnd() throws {
            let data = Array("stop_id\n1\n".utf8)
            let built = try ZipBuilder([.init("stops.txt", data, method: .stored)]).bytes()
            let entriesOnly = ZipBuilder.entriesOnly(built)
            func le(_ value: UInt64, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
            // A central header with a name, an extra field and a comment; zip64's end record
            // (with 4 bytes of extensible data) and its locator; the end record with a comment.
            var header = le(0x0201_4B50, 4) + [UInt8](repeating: 0, count: 12) + le(UInt64(Gzip.crc32(data)), 4) + le(10, 4)
                + le(10, 4) + le(9, 2) + le(4, 2) + le(3, 2)
            header += [UInt8](repeating: 0, count: 12) + Array("stops.txt".utf8) + [1, 2, 3, 4] + Array("abc".utf8)
            let zip64End = le(0x0606_4B50, 4) + le(44 + 4, 8) + [UInt8](repeating: 0, count: 44 + 4)
            let locator = le(0x0706_4B50, 4) + [UInt8](repeating: 0, count: 16)
            let end = le(0x0605_4B50, 4) + [UInt8](repeating: 0, count: 16) + le(5, 2) + Array("hello".utf8)
            let tail = header + zip64End + locator + end
            #expect(try entries(of: entriesOnly + tail).map(\.0) == ["stops.txt"])
            #expect(try entries(of: entriesOnly + tail, trickle: true).map(\.0) == ["stops.txt"])
            // Bytes after the end record are not read.
            #expect(try entries(of: entriesOnly + tail + [9, 9]).map(\.0) == ["stops.txt"])
            // (Less than a signature is "before its central directory".)
            for cut in 4..<tail.count {
                #expect(error(of: entriesOnly + tail.prefix(cut))
                    == "feed.zip: invalid zip archive: the archive ends inside its central directory (truncated?)", "cut at \(cut)")
            }
            #expect(error(of: entriesOnly + header + [0x50, 0x4B, 9, 9] + end)
                == "feed.zip: invalid zip archive: no record of the central directory begins at offset \(entriesOnly.count + header.count) (a damaged archive)")
        }

        /// A stored entry of unknown size is read as empty only when a descriptor of CRC-32 0
        /// and sizes 0 comes first, then the next record; data beginning with a descriptor's
        /// signature cannot be told from its end as it streams, and is refused. (When it
        /// begins with a whole empty descriptor and a disguised entry, the central directory's
        /// sizes for the outer entry, or its silence on the inner one, refuse it at the end.)
        @Test("a stored entry of unknown size whose data begins with a descriptor's signature is refused")
        func storedEntryBeginningWithADescriptorSignature() throws {
            let signature: [UInt8] = [0x50, 0x4B, 0x07, 0x08]
            let empty = try ZipBuilder([.init("empty.txt", [], method: .stored, descriptor: .withSignature),
                                        .init("empty64.txt", [], method: .stored, descriptor: .withSignature, zip64: true),
                                        .init("last.txt", Array("2".utf8))]).bytes()
            #expect(try entries(of: empty).map(\.1) == [[], [], Array("2".utf8)])
            #expect(try entries(of: empty, trickle: true).map(\.0) == ["empty.txt", "empty64.txt", "last.txt"])
            for data in [signature, signature + [1, 2, 3], signature + [UInt8](repeating: 0, count: 12),
                         signature + [UInt8](repeating: 0, count: 12) + Array("PK\u{3}x".utf8)] {
                let archive = try ZipBuilder([.init("a.txt", data, method: .stored, descriptor: .withSignature)]).bytes()
                #expect(error(of: archive) == "feed.zip:a.txt: the entry is stored with its size after its data, which cannot "
                    + "be read as a stream", "\(data)")
            }
            // A whole empty descriptor, then a local header inside the data: read as an empty
            // entry and the next, whose central directory record is missing.
            let inner = ZipBuilder.entriesOnly(try ZipBuilder([.init("inner.txt", Array("x".utf8), method: .stored)]).bytes())
            let disguised = try ZipBuilder([.init("a.txt", signature + [UInt8](repeating: 0, count: 12) + inner,
                                                  method: .stored, descriptor: .withSignature)]).bytes()
            #expect(error(of: disguised) != nil)
        }

        @Test("a data descriptor is held to the local header's values where given, every entry to the central directory")
        func descriptorsAndCentralDirectoryAgree() throws {
            let data = sampleBytes(count: 3_000, seed: 4)
            let crc = ZipReader.hex(Gzip.crc32(data))
            var header = ZipBuilder.Entry("h.txt", data, descriptor: .withSignature)
            header.headerSizes = true
            #expect(try entries(of: try ZipBuilder([header]).bytes()).map(\.1) == [data])
            header.headerCRC = 7
            #expect(error(of: try ZipBuilder([header]).bytes())
                == "feed.zip:h.txt: invalid zip archive: its local header says CRC-32 0x00000007, its data descriptor \(crc)")
            var central = ZipBuilder.Entry("c.txt", data, method: .stored, zip64: true)
            central.centralSize = 3_001
            #expect(error(of: try ZipBuilder([.init("a.txt", data), central]).bytes())
                == "feed.zip:c.txt: invalid zip archive: its central directory says it holds 3001 bytes, the entry 3000")
            central.centralSize = nil
            central.centralCRC = 0
            #expect(error(of: try ZipBuilder([central]).bytes())
                == "feed.zip:c.txt: invalid zip archive: its central directory says CRC-32 0x00000000, the entry's is \(crc)")
            central.centralCRC = nil
            central.listed = false
            #expect(error(of: try ZipBuilder([.init("a.txt", data), central]).bytes())
                == "feed.zip:c.txt: invalid zip archive: its central directory does not list this entry (readers that go by "
                    + "it would not see it)")
        }

        @Test("an entry whose path an earlier entry had is an error naming it")
        func duplicatePaths() throws {
            let archive = try ZipBuilder([
                .init("stops.txt", Array("a".utf8)), .init("Stops.txt", Array("b".utf8)), .init("stops.txt", Array("c".utf8)),
            ]).bytes()
            #expect(error(of: archive) == "feed.zip:stops.txt: invalid zip archive: a second entry of this name "
                + "(an archive holds each path once; unzip would keep only one of them)")
        }

        @Test("an encrypted entry, or another compression method, is one error naming the entry")
        func unsupported() throws {
            var encrypted = ZipBuilder.Entry("secret.txt", Array("x".utf8))
            encrypted.flags = 1
            #expect(error(of: try ZipBuilder([encrypted]).bytes())
                == "feed.zip:secret.txt: the entry is encrypted: sluice reads archives without encryption")
            var bzip2 = ZipBuilder.Entry("stops.txt", Array("x".utf8), method: .stored)
            bzip2.methodNumber = 12
            #expect(error(of: try ZipBuilder([bzip2]).bytes())
                == "feed.zip:stops.txt: the entry is compressed with method 12 (bzip2), which sluice does not read: only stored (0) and deflate (8)")
            var streamedStored = ZipBuilder.Entry("s.txt", Array("x".utf8), method: .stored, descriptor: .withSignature)
            streamedStored.crc = nil
            #expect(error(of: try ZipBuilder([streamedStored]).bytes())
                == "feed.zip:s.txt: the entry is stored with its size after its data, which cannot be read as a stream")
        }

        @Test("damaged deflate data and bytes that are no entry are errors")
        func damaged() throws {
            var archive = try ZipBuilder([.init("a.txt", sampleBytes(count: 2_000))]).bytes()
            for index in 40..<60 { archive[index] ^= 0xFF }
            #expect(error(of: archive)?.hasPrefix("feed.zip:a.txt: invalid zip archive: ") == true)
            #expect(error(of: Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 26) + Array("garbage".utf8))
                == "feed.zip: invalid zip archive: no entry begins at offset 30 (not a zip archive, or a damaged one)")
        }

        /// Fuzz finding (crash-313cd5e0): a zip64 field longer than the extra field that holds
        /// it was read past the header, into bytes not yet read (or into the entry's data).
        @Test("a zip64 field is read only inside the extra field")
        func zip64FieldPastTheExtraField() throws {
            let data = Array("ab".utf8)
            var archive: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            archive += withUnsafeBytes(of: Gzip.crc32(data).littleEndian, Array.init)
            archive += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 5, 0, 4, 0] + Array("a.txt".utf8)
            archive += [1, 0, 16, 0] + data + [UInt8](repeating: 0, count: 16)
            // The field holds no size: the header's 0xFFFFFFFF stands, and the archive ends first.
            #expect(error(of: archive) == "feed.zip:a.txt: invalid zip archive: it ends inside this entry (truncated?)")
            for step in 1...8 {
                do throws(SluiceError) {
                    let reader = ZipReader(source: TrickleSource(archive, step: step))
                    while let entry = try reader.nextEntry() { _ = try readAll(entry) }
                    Issue.record("no error reading \(step) bytes at a time")
                } catch {
                    #expect(error.message == "<trickle>:a.txt: invalid zip archive: it ends inside this entry (truncated?)", "step \(step)")
                }
            }
        }

        /// Fuzz finding (crash-65ca465c): deflate data with an error, then the archive's end.
        /// Inflated into a small buffer, zlib still held input when the archive ended, and the
        /// entry was called truncated; whole, the data's error came first. zlib is now asked
        /// again until it makes no progress: the same error however the archive is read.
        @Test("an error in deflate data just before the archive ends is that error, read in any chunks")
        func deflateErrorBeforeTheEnd() throws {
            // A local header with sizes in a data descriptor (flag 3), no name, 9 bytes of bad deflate data.
            let archive: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0x08, 0, 0x08, 0, 0xB4, 0x59, 0x7A, 0x5D, 0, 0, 0, 0x8D,
                                    0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0x52, 0x52, 0x52, 0xC5, 0x0A, 0x37, 0x03, 0xDB, 0x46]
            let expected = "invalid zip archive: invalid deflate data: invalid distance too far back"
            #expect(error(of: archive) == "feed.zip:: " + expected)
            for step in 1...8 {
                for chunkSize in 1...8 {
                    do throws(SluiceError) {
                        let reader = ZipReader(source: TrickleSource(archive, step: step))
                        while let entry = try reader.nextEntry() { _ = try readAll(entry, chunkSize: chunkSize) }
                        Issue.record("no error reading \(step) bytes at a time")
                    } catch {
                        #expect(error.message == "<trickle>:: " + expected, "step \(step), chunks of \(chunkSize)")
                    }
                }
            }
        }

        @Test("an archive is found by its magic bytes, and an empty one holds no entry")
        func magic() throws {
            let archive = try ZipBuilder([.init("a.txt", Array("a".utf8))]).bytes()
            #expect(InputOpener.isZip(try InputOpener.decompressing(MemorySource(archive))))
            #expect(!InputOpener.isZip(try InputOpener.decompressing(MemorySource(Array("[1]".utf8)))))
            let empty: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
            #expect(InputOpener.isZip(try InputOpener.decompressing(MemorySource(empty))))
            #expect(try entries(of: empty).isEmpty)
        }
    }
}
