@_spi(Fuzzing) import Sluice

/// The CSV reader's target (`SLUICE_FUZZ_TARGET=csv`). Byte 0: bits 0–2 the small chunk size
/// (1–8), bit 3 TSV, bit 4 a small `--max-value-bytes` (16), bit 5 `--invalid-text replace`;
/// bit 6 the structured mode (`CSVOracle.swift`: the rest describes a table, checked against
/// the rows written, bits 4–5 unused); otherwise the rest is the CSV. Checked: the events, positions, record errors, replacements and final
/// error are the same whole and chunked; every key and value handed over is valid UTF-8; the
/// rows mapped as `Item` records agree whole and chunked, and with the fast and the general
/// paths (without `--rejects`, where the fast path looks each column's name up once), and each
/// captured rejected row is one JSON value.
func fuzzCSV(_ config: UInt8, _ input: [UInt8]) -> Int32 {
    let chunkSize = Int(config & 7) + 1
    let tab = config & 8 != 0
    let maxValueBytes = config & 0x10 != 0 ? 16 : 1 << 20
    let replace = config & 0x20 != 0
    if config & 0x40 != 0 { return fuzzCSVDescribed(chunkSize, tab: tab, input) }
    let whole = Fuzzing.readCSV(input, chunkSize: max(input.count, 1), tab: tab, maxValueBytes: maxValueBytes, replace: replace)
    let chunked = Fuzzing.readCSV(input, chunkSize: chunkSize, tab: tab, maxValueBytes: maxValueBytes, replace: replace)
    if whole != chunked { report("CSV: whole and chunked (\(chunkSize)) reads differ", whole, chunked) }
    if whole.contains(where: { $0.hasSuffix("INVALID UTF-8") }) { report("CSV: invalid UTF-8 handed over", whole, []) }
    guard !tab else { return 0 }
    let mappedWhole = try! Fuzzing.mapCSV(input, model: fuzzModel, entity: "Item", chunkSize: max(input.count, 1),
                                          maxValueBytes: maxValueBytes)
    let mappedChunked = try! Fuzzing.mapCSV(input, model: fuzzModel, entity: "Item", chunkSize: chunkSize,
                                            maxValueBytes: maxValueBytes)
    if mappedWhole != mappedChunked { report("CSV: mapped whole and chunked differ", mappedWhole.lines, mappedChunked.lines) }
    let fast = try! Fuzzing.mapCSV(input, model: fuzzModel, entity: "Item", chunkSize: chunkSize,
                                   maxValueBytes: maxValueBytes, capturesRejectedRecords: false)
    let general = try! Fuzzing.mapCSV(input, model: fuzzModel, entity: "Item", chunkSize: chunkSize,
                                      maxValueBytes: maxValueBytes, capturesRejectedRecords: false, fastPaths: false)
    if fast != general { report("CSV: mapped by the fast and the general paths differ", fast.lines, general.lines) }
    for text in mappedWhole.rejectedTexts {
        if let text, !Fuzzing.isOneJSONValue(text) {
            report("CSV: a captured row is not one JSON value: \(String(decoding: text, as: UTF8.self))", [], [])
        }
    }
    return 0
}

/// The zip reader's target (`SLUICE_FUZZ_TARGET=zip`). Byte 0: bits 0–2 how many bytes a read
/// of the archive gives at most (1–8), bits 3–5 the entries' chunk size (1–8); bit 7 the
/// structured mode (`ZipOracle.swift`: the rest describes an archive, checked against what was
/// written); otherwise the rest is the archive. Checked: no crash, and the entries (paths,
/// sizes, hashes) and final error are the same read whole and in short reads and small chunks.
func fuzzZip(_ config: UInt8, _ input: [UInt8]) -> Int32 {
    let readSize = Int(config & 7) + 1
    let chunkSize = Int((config >> 3) & 7) + 1
    if config & 0x80 != 0 { return fuzzZipDescribed(readSize, chunkSize, input) }
    let whole = Fuzzing.readZip(input, readSize: max(input.count, 1), chunkSize: 1 << 16)
    let short = Fuzzing.readZip(input, readSize: readSize, chunkSize: chunkSize)
    if whole != short { report("zip: whole and short reads (\(readSize), chunks \(chunkSize)) differ", whole, short) }
    return 0
}
