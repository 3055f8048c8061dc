import Testing
@testable import Sluice

struct EntityBatchTests {
    @Test func aCellTakesSixteenBytes() {
        // Batches hold batch size x columns of them: 24 bytes (the kind declared first) put
        // the document import over its memory target.
        #expect(MemoryLayout<Cell>.stride == 16)
    }

    /// A record of `texts` (and a trailing integer) with its bytes in an arena of its own,
    /// after `padding` bytes of other records when it shares the arena.
    private func withRecord(_ texts: [String], padding: Int, ownsBytes: Bool,
                            _ body: (borrowing Record) -> Void) {
        var arena = [UInt8](repeating: UInt8(ascii: "x"), count: padding)
        var values: [Cell] = []
        for text in texts {
            var text = text
            values.append(text.withUTF8 { Cell.bytes(.text, UnsafeRawBufferPointer($0), in: &arena) })
        }
        values.append(.integer(7))
        arena.withUnsafeBytes { bytes in
            values.withUnsafeBufferPointer { values in
                var record = Record()
                record.bytesAreItsOwn = ownsBytes
                record.lend(values: values)
                record.lend(bytes: bytes)
                body(record)
            }
        }
    }

    private func texts(of batch: EntityBatch, record: Int) -> [ColumnValue?] {
        batch.bytes.withUnsafeBytes { bytes in
            (0..<batch.width).map { batch.values[record * batch.width + $0].columnValue(in: bytes) }
        }
    }

    @Test func aRecordsBytesAreCopiedWholeOrValueByValueToTheSameValues() {
        var batch = EntityBatch(width: 4, attributeCount: 3, relationshipCount: 0)
        // Whole: the record's own arena is appended as is and its offsets shifted; value by
        // value: only its values' bytes are copied out of a shared arena.
        withRecord(["first", ""], padding: 0, ownsBytes: true) { _ = batch.append($0, source: 0) }
        withRecord(["second", "ü"], padding: 0, ownsBytes: true) { _ = batch.append($0, source: 0) }
        withRecord(["third", "3"], padding: 5, ownsBytes: false) { _ = batch.append($0, source: 1) }
        #expect(batch.count == 3)
        #expect(texts(of: batch, record: 0) == [.text("first"), .text(""), .integer(7), nil])
        #expect(texts(of: batch, record: 1) == [.text("second"), .text("ü"), .integer(7), nil])
        #expect(texts(of: batch, record: 2) == [.text("third"), .text("3"), .integer(7), nil])
        #expect(batch.sources == [0, 0, 1])
        // The shared arena's other bytes were left behind.
        #expect(batch.bytes.count == "first".utf8.count + "second".utf8.count + "ü".utf8.count + "third3".utf8.count)
    }

    @Test func anEmptiedBatchIsFilledAgainFromItsStart() {
        var batch = EntityBatch(width: 2, attributeCount: 2, relationshipCount: 0)
        for _ in 0..<3 { withRecord(["a"], padding: 0, ownsBytes: true) { _ = batch.append($0, source: 0) } }
        batch.removeAll()
        withRecord(["b"], padding: 0, ownsBytes: true) { #expect(batch.append($0, source: 0) == 0) }
        #expect(batch.count == 1)
        #expect(texts(of: batch, record: 0) == [.text("b"), .integer(7)])
        #expect(batch.bytes.withUnsafeBytes { Array($0) } == Array("b".utf8))
    }

    /// A written batch keeps its arrays' memory for the next batch of its entity; one that
    /// held none of its records gives it back (records come in runs of one entity).
    @Test func aWrittenBatchKeepsItsMemoryUnlessItHeldNoRecord() {
        var batch = EntityBatch(width: 2, attributeCount: 2, relationshipCount: 0)
        for _ in 0..<100 { withRecord(["a"], padding: 0, ownsBytes: true) { _ = batch.append($0, source: 0) } }
        batch.removeAllWritten()
        #expect(batch.count == 0)
        #expect(batch.values.capacity >= 200)
        #expect(batch.positions.capacity >= 100)
        #expect(batch.sources.capacity >= 100)
        // Emptied again before it is filled: still kept.
        batch.removeAll()
        #expect(batch.values.capacity >= 200)
        #expect(batch.positions.capacity >= 100)

        batch.removeAllWritten()
        #expect(batch.values.capacity == 0)
        #expect(batch.positions.capacity == 0)
        #expect(batch.sources.capacity == 0)
        #expect(batch.bytes.count == 0)
        withRecord(["b"], padding: 0, ownsBytes: true) { #expect(batch.append($0, source: 0) == 0) }
        #expect(texts(of: batch, record: 0) == [.text("b"), .integer(7)])
    }

    /// Appends a record with no values and `links`.
    private func append(_ links: [Link?], to batch: inout EntityBatch) {
        let values: [Cell] = []
        values.withUnsafeBufferPointer { values in
            var record = Record()
            record.lend(values: values)
            record.links = links
            _ = batch.append(record, source: 0)
        }
    }

    private func links(of batch: EntityBatch) -> [Link?] {
        (0..<batch.count * batch.relationshipCount).map { batch[link: $0] }
    }

    /// A record's links are kept per slot: those it leaves alone read nil, a `null` reads
    /// `.clear`; forgetting the last record forgets its links, and a link set later (a merge)
    /// replaces the slot's, until the batch is emptied.
    @Test func linksReadBackPerSlotThroughRemovalsAndReplacements() {
        var batch = EntityBatch(width: 0, attributeCount: 0, relationshipCount: 3)
        let key = Link.one(.key(.text("a key longer than fifteen bytes")))
        append([key, nil, .clear], to: &batch)
        append([nil, .many([.key(.integer(1)), .key(.integer(2))]), nil], to: &batch)
        batch.removeLast()
        append([nil, nil, .one(.key(.integer(9)))], to: &batch)
        #expect(links(of: batch) == [key, nil, .clear, nil, nil, .one(.key(.integer(9)))])
        #expect((0..<6).map { batch.linksSomething($0) } == [true, false, false, false, false, true])

        batch[link: 1] = .many([.key(.integer(3))])
        batch[link: 0] = nil
        #expect(links(of: batch) == [nil, .many([.key(.integer(3))]), .clear, nil, nil, .one(.key(.integer(9)))])

        batch.removeAll()
        append([nil, .clear, key], to: &batch)
        #expect(links(of: batch) == [nil, .clear, key])
    }
}
