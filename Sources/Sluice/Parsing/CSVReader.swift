/// A streaming CSV reader (RFC 4180, and TSV with a tab as the separator): feed it chunks, it
/// calls its handler with the events the JSON parser gives for a stream of top-level objects,
/// so the rows go through the same assembler, mapping and writers as JSON records
/// (`docs/import-semantics.md#csv`).
///
/// The first row is the header: its fields name the keys (`columnsNamed` once it ends). Each
/// later row is `startObject`, then `field` (`key(name)` and `string(field)`, with the field's
/// column) for each field that is not empty, then `endObject`.
/// Every value is a string; the model's types convert it as they convert a JSON string.
///
/// * Quoted fields may hold separators, line breaks and doubled quotes (`""` is one `"`).
/// * Rows end with LF, CRLF or CR, mixed as they come; an empty line is no row.
/// * Fewer fields than the header: the others are missing. More: a record error naming the
///   first extra field, unless every extra field is empty (a trailing separator).
/// * Spaces and tabs between a closing quote and the separator or line break are dropped and
///   counted (`blanksAfterQuotes`), as CSV writers that pad columns leave them. A quote inside
///   an unquoted field, or anything else after a closing quote (after such blanks: at its first
///   byte): a record error (the row is still split where its separators are).
/// * A header name's spaces and tabs at either end are dropped and counted (`paddedNames`):
///   `stop_id, stop_name` names `stop_name`. Values keep theirs (the model's types decide).
/// * The input ending inside quotes: an input error at the opening quote (nothing after it
///   can be told apart from the field).
/// * A header naming a column twice is an input error at the second: each of its rows would
///   hold two values for one key. Empty names are left alone (a spreadsheet's unnamed columns).
/// * Invalid UTF-8 follows `InvalidTextPolicy`: in a row a record error at the first bad
///   byte, or U+FFFD; in the header an input error, or U+FFFD.
/// * A field longer than `maxValueBytes` in the input (quotes included), or a header row
///   longer than that, is an input error at its start: memory stays bounded for any field.
/// * A header of more than `maxHeaderFields` fields is an input error at the first field past
///   them: each name costs memory here and in every handler (about 75 bytes a field for a
///   zero-config import, whatever the name's length), and `maxValueBytes` alone would let a
///   64 MiB header of one-letter names take over 2 GB.
///
/// The events, and every position and error, are the same however the input is cut into
/// chunks. Lines are counted by line feeds (as for JSON); columns are bytes from the line's
/// start, from 1. A field is handed over from the chunk itself unless it spans chunks or holds
/// a doubled quote, then from one reused buffer: no allocation per field.
final class CSVReader: EventReader {
    struct Options: Sendable {
        /// `,` for CSV, a tab for TSV.
        var separator = UInt8(ascii: ",")
        var maxValueBytes = 64 << 20
        var invalidText = InvalidTextPolicy.reject

        init(separator: UInt8 = UInt8(ascii: ","), maxValueBytes: Int = 64 << 20, invalidText: InvalidTextPolicy = .reject) {
            self.separator = separator
            self.maxValueBytes = maxValueBytes
            self.invalidText = invalidText
        }
    }

    /// The most fields a header may have: 32 times SQLite's 2,000 columns, 4 times a
    /// spreadsheet's 16,384; a header this wide costs a few MiB.
    static let maxHeaderFields = 65_536

    let options: Options
    private let handler: any EventHandler
    /// U+FFFD put in place of invalid text (`InvalidTextPolicy.replace`).
    private(set) var replacementCharacters = 0
    /// Quoted fields (header and rows) whose closing quote had spaces or tabs after it, dropped.
    private(set) var blanksAfterQuotes = 0
    /// Header names that had spaces or tabs at either end, dropped.
    private(set) var paddedNames = 0

    private enum State {
        /// Before a row: a line break here ends an empty line.
        case lineStart
        /// After a CR that ended a row: an LF here belongs to it.
        case afterCR
        /// After a separator, or at a row's first byte.
        case fieldStart
        case unquoted
        case quoted
        /// A quote inside a quoted field: the field's end, or the first of a doubled quote.
        case quoteInQuoted
        /// Spaces or tabs after a closing quote: the field's text is all in `field`, followed
        /// by those blanks from `blanksStart` on (dropped at a separator or line break, kept
        /// when other text follows, which is then an error).
        case blanksAfterQuote
    }

    private var state = State.lineStart
    private var inHeader = true
    /// The header's names while it is read, then one block that keys point into.
    private var headerNames: [[UInt8]] = []
    /// Each name's index in `headerNames` while the header is read (the same arrays, shared).
    private var headerIndex: [[UInt8]: Int] = [:]
    /// Read for every field: a buffer of plain values is read without the dynamic exclusivity
    /// check that an array property costs (one per field, 7% of a GTFS feed's reading thread).
    private var names = UnsafeMutableBufferPointer<UnsafeRawBufferPointer>(start: nil, count: 0)
    private var nameStorage: UnsafeMutableRawBufferPointer?

    // The field being read. Its text is `field` (what earlier chunks and doubled quotes left)
    // followed by `chunk[segmentStart..<…]`: in the chunk, to the separator; after a closing
    // quote, to `segmentEnd`.
    /// A field's text when it spans chunks or holds a doubled quote, reused from field to field.
    /// Looked at for every field by the one thread that reads: dynamic exclusivity checks cost
    /// W3's re-import 3% (callgrind, scale 0.05).
    @exclusivity(unchecked) private var field = ByteArena(capacity: 256)
    private var segmentStart = 0
    private var segmentEnd = 0
    private var fieldStart: Int64 = 0
    private var fieldQuoted = false
    /// In `.blanksAfterQuote`, where the field's text ends in `field` (the blanks follow it).
    private var blanksStart = 0
    /// The bytes an unquoted field's scan passed over, or-ed together: below 0x80 when they
    /// are all ASCII, which spares `endField` a second pass over the field.
    private var unquotedBits: UInt8 = 0
    /// The field's start as a position, once worked out: before the lines are counted past it.
    private var fieldPosition: InputPosition?
    /// The index of the field in its row.
    private var column = 0

    private var rowStart: Int64 = 0
    private var rowPosition = InputPosition(line: 0, column: 0, offset: 0)
    /// The row's first problem was reported: the others are not (the row is rejected once).
    private var rowHasProblem = false
    /// `startObject` is being delivered: positions asked for are the row's.
    private var deliveringRow = false

    private var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    private var chunkStart: Int64 = 0
    private var lines = LineTracker()
    /// An error ended the input: later calls do nothing.
    private var stopped = false

    init(sourceName: String, handler: any EventHandler, options: Options = Options()) {
        self.options = options
        self.handler = handler
        super.init(sourceName: sourceName)
    }

    deinit {
        nameStorage?.deallocate()
        names.deallocate()
    }

    /// The header's names once its row has ended; nil before.
    var header: [String]? { inHeader ? nil : names.map { String(decoding: $0, as: UTF8.self) } }

    /// Total bytes fed so far.
    var bytesParsed: Int64 { chunkStart + Int64(chunk.count) }

    override func tokenPosition(length _: Int) -> InputPosition {
        deliveringRow ? rowPosition : fieldStartPosition()
    }

    /// Reads the next chunk of input. The chunk need only stay valid during the call.
    func parse(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        guard !stopped else { return }
        chunkStart += Int64(chunk.count)
        chunk = bytes
        do {
            try scan()
            try endChunk()
        } catch {
            stopped = true
            throw error
        }
    }

    /// Ends the input: the last row needs no line break; an open quote is an error.
    func finish() throws(SluiceError) {
        guard !stopped else { return }
        stopped = true
        chunkStart += Int64(chunk.count)
        chunk = UnsafeRawBufferPointer(start: nil, count: 0)
        switch state {
        case .lineStart, .afterCR:
            return
        case .quoted:
            throw SluiceError(.data, "a quoted field is not closed: the input ends inside it",
                              in: sourceName, at: fieldStartPosition())
        case .fieldStart:
            // After a trailing separator: one more field, empty.
            fieldStart = chunkStart
            fieldQuoted = false
            field.removeAll()
            segmentStart = 0
            try endField(contentEnd: 0, rawEnd: chunkStart)
            try endRow()
        case .unquoted, .quoteInQuoted:
            try endField(contentEnd: 0, rawEnd: chunkStart)
            try endRow()
        case .blanksAfterQuote:
            try endFieldAfterBlanks(rawEnd: chunkStart)
            try endRow()
        }
    }

    // MARK: Scanning

    private static let lineFeed = UInt8(0x0A)
    private static let carriageReturn = UInt8(0x0D)
    private static let quote = UInt8(ascii: "\"")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(0x09)

    private func scan() throws(SluiceError) {
        guard let base = chunk.baseAddress else { return }
        let count = chunk.count
        let separator = options.separator
        var index = 0
        while index < count {
            switch state {
            case .afterCR:
                state = .lineStart
                if base.load(fromByteOffset: index, as: UInt8.self) == Self.lineFeed { index += 1 }
            case .lineStart:
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte == Self.lineFeed {
                    index += 1
                } else if byte == Self.carriageReturn {
                    state = .afterCR
                    index += 1
                } else {
                    try beginRow(at: index)
                    state = .fieldStart
                }
            case .fieldStart:
                fieldStart = chunkStart + Int64(index)
                fieldPosition = nil
                unquotedBits = 0
                field.removeAll()
                if base.load(fromByteOffset: index, as: UInt8.self) == Self.quote {
                    fieldQuoted = true
                    state = .quoted
                    index += 1
                } else {
                    fieldQuoted = false
                    state = .unquoted
                }
                segmentStart = index
            case .unquoted:
                var end = index
                var byte: UInt8 = 0
                var bits = unquotedBits
                while end < count {
                    byte = base.load(fromByteOffset: end, as: UInt8.self)
                    if byte == separator || byte == Self.lineFeed || byte == Self.carriageReturn || byte == Self.quote { break }
                    bits |= byte
                    end += 1
                }
                unquotedBits = bits
                guard end < count else {
                    index = count
                    break
                }
                if byte == Self.quote {
                    // Taken as it is; the row is rejected.
                    try problem("a quote inside a field that does not begin with one (quote the whole field and double "
                                + "the quote: \"a\"\"b\")", at: end)
                    index = end + 1
                    continue
                }
                try endField(contentEnd: end, rawEnd: chunkStart + Int64(end), scannedASCII: bits < 0x80)
                index = end + 1
                try endFieldSeparated(by: byte)
            case .quoted:
                guard let end = MemoryBytes.firstIndex(of: Self.quote, in: base, from: index, to: count) else {
                    index = count
                    break
                }
                segmentEnd = end
                state = .quoteInQuoted
                index = end + 1
            case .quoteInQuoted:
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte == Self.quote {
                    // A doubled quote: one quote in the text.
                    field.append(UnsafeRawBufferPointer(rebasing: chunk[segmentStart..<segmentEnd]))
                    field.append(byte: Self.quote)
                    index += 1
                    segmentStart = index
                    state = .quoted
                } else if byte == separator || byte == Self.lineFeed || byte == Self.carriageReturn {
                    try endField(contentEnd: segmentEnd, rawEnd: chunkStart + Int64(index))
                    index += 1
                    try endFieldSeparated(by: byte)
                } else if byte == Self.space || byte == Self.tab {
                    beginBlanks()
                } else {
                    try textAfterClosingQuote(at: index)
                }
            case .blanksAfterQuote:
                index = try scanBlanks(from: index)
            }
        }
    }

    /// `.blanksAfterQuote` from `index`: the blanks to the chunk's end, or to what ends them.
    /// Out of line, as the other rare cases: inlined, it cost the loop over every field 2%.
    @inline(never)
    private func scanBlanks(from index: Int) throws(SluiceError) -> Int {
        let base = chunk.baseAddress!
        let separator = options.separator
        var end = index
        var byte: UInt8 = 0
        while end < chunk.count {
            byte = base.load(fromByteOffset: end, as: UInt8.self)
            if byte == separator || (byte != Self.space && byte != Self.tab) { break }
            end += 1
        }
        field.append(UnsafeRawBufferPointer(rebasing: chunk[index..<end]))
        guard end < chunk.count else { return end }
        if byte == separator || byte == Self.lineFeed || byte == Self.carriageReturn {
            try endFieldAfterBlanks(rawEnd: chunkStart + Int64(end))
            try endFieldSeparated(by: byte)
            return end + 1
        }
        try textAfterClosingQuote(at: end)
        return end
    }

    /// Text other than blanks after a quoted field's closing quote (and its blanks), at `index`:
    /// a record error; the rest, to the separator, is taken as it is.
    @inline(never)
    private func textAfterClosingQuote(at index: Int) throws(SluiceError) {
        try problem("a quoted field goes on after its closing quote (a quote inside quotes is doubled: \"a\"\"b\")",
                    at: index)
        if state == .quoteInQuoted { field.append(UnsafeRawBufferPointer(rebasing: chunk[segmentStart..<segmentEnd])) }
        segmentStart = index
        state = .unquoted
    }

    /// Blanks after a closing quote: the text moves to `field`, so that they may span chunks.
    @inline(never)
    private func beginBlanks() {
        field.append(UnsafeRawBufferPointer(rebasing: chunk[segmentStart..<segmentEnd]))
        blanksStart = field.count
        state = .blanksAfterQuote
    }

    /// A quoted field whose closing quote had blanks after it ends: they are dropped.
    private func endFieldAfterBlanks(rawEnd: Int64) throws(SluiceError) {
        field.removeLast(field.count - blanksStart)
        segmentStart = 0
        try endField(contentEnd: 0, rawEnd: rawEnd)
        // After: a field too large ends the input as it would at a chunk's end, uncounted.
        blanksAfterQuotes += 1
    }

    /// The chunk ends: the field being read keeps its text so far, and its start.
    private func endChunk() throws(SluiceError) {
        let end = chunkStart + Int64(chunk.count)
        switch state {
        case .unquoted, .quoted, .quoteInQuoted, .blanksAfterQuote:
            let position = fieldStartPosition()
            if inHeader {
                if end - rowStart > Int64(options.maxValueBytes) { throw headerTooLarge() }
            } else if end - fieldStart > Int64(options.maxValueBytes) {
                throw tooLarge(at: position)
            }
            // After blanks, `field` holds the text already.
            if state != .blanksAfterQuote {
                let to = state == .quoteInQuoted ? segmentEnd : chunk.count
                field.append(UnsafeRawBufferPointer(rebasing: chunk[segmentStart..<to]))
            }
            segmentStart = 0
            segmentEnd = 0
        case .fieldStart:
            if inHeader, end - rowStart > Int64(options.maxValueBytes) { throw headerTooLarge() }
        case .lineStart, .afterCR:
            break
        }
        lines.advance(to: end, in: chunk, chunkStart: chunkStart)
    }

    // MARK: Rows and fields

    private func beginRow(at index: Int) throws(SluiceError) {
        rowStart = chunkStart + Int64(index)
        column = 0
        rowHasProblem = false
        lines.advance(to: rowStart, in: chunk, chunkStart: chunkStart)
        rowPosition = lines.position(of: rowStart)
        guard !inHeader else { return }
        deliveringRow = true
        defer { deliveringRow = false }
        try handler.startObject()
    }

    private func endFieldSeparated(by byte: UInt8) throws(SluiceError) {
        if byte == options.separator {
            state = .fieldStart
        } else {
            try endRow()
            state = byte == Self.carriageReturn ? .afterCR : .lineStart
        }
    }

    private func endRow() throws(SluiceError) {
        if inHeader {
            inHeader = false
            keepHeader()
        } else {
            try handler.endObject()
        }
    }

    /// A field ends: its text is `field` then `chunk[segmentStart..<contentEnd]`; its bytes in
    /// the input end at `rawEnd` (absolute, before the separator). `scannedASCII`: it is an
    /// unquoted field's end, and every byte the scan passed over since the field began is
    /// ASCII; when the text is only the chunk's (`field` empty), those bytes are all of it.
    private func endField(contentEnd: Int, rawEnd: Int64, scannedASCII: Bool = false) throws(SluiceError) {
        defer {
            column += 1
            fieldPosition = nil
        }
        let segment = UnsafeRawBufferPointer(rebasing: chunk[segmentStart..<contentEnd])
        if inHeader {
            if rawEnd - rowStart > Int64(options.maxValueBytes) { throw headerTooLarge() }
        } else if rawEnd - fieldStart > Int64(options.maxValueBytes) {
            throw tooLarge(at: fieldStartPosition())
        }
        let text: UnsafeRawBufferPointer
        let isASCII: Bool
        if field.isEmpty {
            text = segment
            isASCII = scannedASCII || UTF8Check.isASCII(text)
        } else {
            field.append(segment)
            text = field.bytes
            isASCII = UTF8Check.isASCII(text)
        }
        if inHeader {
            guard headerNames.count < Self.maxHeaderFields else {
                throw SluiceError(.data, "the header has more than \(Self.maxHeaderFields) fields, the most a CSV input may have",
                                  in: sourceName, at: fieldStartPosition())
            }
            var name = try checkedText(text)
            if let first = name.first, let last = name.last, Self.isBlank(first) || Self.isBlank(last) {
                name = Array(name.drop(while: Self.isBlank).reversed().drop(while: Self.isBlank).reversed())
                paddedNames += 1
            }
            if !name.isEmpty {
                if let first = headerIndex[name] { throw duplicateName(name, first: first) }
                headerIndex[name] = headerNames.count
            }
            headerNames.append(name)
            return
        }
        if column >= names.count {
            if !text.isEmpty {
                try problem("a row has more fields than the header's \(names.count)", position: fieldStartPosition())
            }
            return
        }
        guard !text.isEmpty else { return }
        if isASCII {
            try handler.field(column, name: names[column], value: text)
            return
        }
        let checked = try checkedText(text)
        try checked.withRawBytes { bytes throws(SluiceError) in try handler.field(column, name: names[column], value: bytes) }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// `text` as it is when it is valid UTF-8; else with U+FFFD in place of each bad sequence,
    /// after reporting the first (`InvalidTextPolicy.reject`): an input error in the header, a
    /// record error in a row.
    private func checkedText(_ text: UnsafeRawBufferPointer) throws(SluiceError) -> [UInt8] {
        guard let fault = UTF8Check.firstFault(in: text) else { return Array(text) }
        let repaired = StringRepair.decode(text, escapes: false)
        if options.invalidText == .replace {
            replacementCharacters += repaired.replacements
        } else if !rowHasProblem {
            try problem(fault.problem.message, position: position(ofTextIndex: fault.index, in: text))
        }
        return repaired.bytes
    }

    /// The position of byte `index` of the current field's text: its bytes in the input are
    /// the text's, after the opening quote and with each quote doubled when it is quoted.
    private func position(ofTextIndex index: Int, in text: UnsafeRawBufferPointer) -> InputPosition {
        let start = fieldStartPosition()
        let lead = fieldQuoted ? 1 : 0
        var line = start.line
        var lineStartRaw: Int64?
        var quotes = 0
        for offset in 0..<index {
            let byte = text[offset]
            if byte == Self.quote && fieldQuoted { quotes += 1 }
            if byte == Self.lineFeed {
                line += 1
                lineStartRaw = fieldStart + Int64(lead + offset + quotes + 1)
            }
        }
        let raw = fieldStart + Int64(lead + index + quotes)
        let column = lineStartRaw.map { Int(raw - $0) + 1 } ?? start.column + Int(raw - fieldStart)
        return InputPosition(line: line, column: column, offset: raw)
    }

    /// The header is complete: its names in one block, for the rows' keys.
    private func keepHeader() {
        let total = headerNames.reduce(0) { $0 + $1.count }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 1)
        nameStorage = storage
        names = .allocate(capacity: headerNames.count)
        var offset = 0
        for (index, name) in headerNames.enumerated() {
            let target = UnsafeMutableRawBufferPointer(rebasing: storage[offset..<offset + name.count])
            target.copyBytes(from: name)
            names.initializeElement(at: index, to: UnsafeRawBufferPointer(target))
            offset += name.count
        }
        headerNames = []
        headerIndex = [:]
        handler.columnsNamed()
    }

    // MARK: Positions and errors

    /// Where the current field starts, worked out once: positions are asked for in input order,
    /// and the field's start is kept before anything after it is counted.
    private func fieldStartPosition() -> InputPosition {
        if let fieldPosition { return fieldPosition }
        lines.advance(to: fieldStart, in: chunk, chunkStart: chunkStart)
        let position = lines.position(of: fieldStart)
        fieldPosition = position
        return position
    }

    /// A problem at `index` in the chunk, inside the current field.
    private func problem(_ message: String, at index: Int) throws(SluiceError) {
        guard !rowHasProblem else { return }
        let offset = chunkStart + Int64(index)
        // A field (in the header, the row) already too large is that error first, as a chunk
        // ending before this byte would have found.
        if inHeader, offset - rowStart > Int64(options.maxValueBytes) { throw headerTooLarge() }
        if !inHeader, offset - fieldStart > Int64(options.maxValueBytes) { throw tooLarge(at: fieldStartPosition()) }
        _ = fieldStartPosition()
        lines.advance(to: offset, in: chunk, chunkStart: chunkStart)
        try problem(message, position: lines.position(of: offset))
    }

    /// The row's first problem: a record error (the handler rejects the row), or in the header
    /// an input error.
    private func problem(_ message: String, position: InputPosition) throws(SluiceError) {
        guard !rowHasProblem else { return }
        rowHasProblem = true
        let error = SluiceError(.data, message, in: sourceName, at: position)
        if inHeader { throw error }
        try handler.invalidText(error)
    }

    private func tooLarge(at position: InputPosition) -> SluiceError {
        SluiceError(.data, "a single value is larger than \(options.maxValueBytes) bytes (--max-value-bytes)",
                    in: sourceName, at: position)
    }

    /// The header's current field repeats field `first`'s name.
    private func duplicateName(_ name: [UInt8], first: Int) -> SluiceError {
        let quoted = ModelProblem.quote(String(decoding: name, as: UTF8.self))
        return SluiceError(.data, "the header names the column \(quoted) twice, fields \(first + 1) and \(column + 1): each "
                           + "column needs a name of its own", in: sourceName, at: fieldStartPosition())
    }

    private func headerTooLarge() -> SluiceError {
        SluiceError(.data, "the header row is larger than \(options.maxValueBytes) bytes (--max-value-bytes)",
                    in: sourceName, at: rowPosition)
    }
}

@available(*, unavailable, message: "a reader belongs to the thread that reads")
extension CSVReader: Sendable {}
