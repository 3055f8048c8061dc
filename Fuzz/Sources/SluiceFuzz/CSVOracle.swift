@_spi(Fuzzing) import Sluice

/// The CSV target's structured mode (byte 0's bit 6): the fuzz bytes describe a table (a
/// header of names, some given twice or empty or needing quotes; rows of fields, quoted or not,
/// fewer or more than the header's; LF, CRLF or CR; empty lines), written
/// here by the grammar of `docs/import-semantics.md` (CSV), maybe with one damage per row (a
/// quote inside an unquoted field, a byte after a closing quote) or the input ending inside
/// quotes. What the reader must give is known from the description: each row's fields by the
/// header's names at the row's position, the record error of a damaged row at its byte, a
/// name given twice an input error at the second, an unclosed quote one at its opening quote.
///
/// After a closing quote, spaces and tabs are dropped (and counted) and anything else is a record
/// error: the damage puts a letter there, and nothing here writes a blank there, so the count is
/// 0. A header name loses the spaces and tabs at its ends (counted as padded names), so its key is
/// the name trimmed.
struct CSVDescription {
    static let names: [String] = ["id", "name", "a,b", "say \"hi\"", "", "名前", "x\ny", " sp ", "é", "e\u{301}", "c\rr", "t\tb",
                                  "stop_id", "id"]
    static let values: [String] = ["", "1", "01", "a b", "x,y", "q\"q", "line\nbreak", "cr\rx", "crlf\r\nz", "ü", "😀", " lead",
                                   "trail ", "\"", "t\tb", "-0"]

    /// One expected line, or any lines up to the row's end (after a damaged row's record error).
    enum Expected: Equatable {
        case line(String)
        case prefix(String, suffix: String)
        case restOfRow
    }

    var bytes: [UInt8] = []
    var expected: [Expected] = []
    /// The reader's last line but one: the header's padded names (nil when the header is refused
    /// before its end, where the count stops at the refused name), and no blanks after quotes.
    var padding: String? = "padding dropped 0 names 0 after quotes"

    /// A header name as the reader keys it: without spaces and tabs at its ends.
    static func trimmed(_ name: [UInt8]) -> [UInt8] {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = name.firstIndex(where: { !blank($0) }), let last = name.lastIndex(where: { !blank($0) }) else { return [] }
        return Array(name[first...last])
    }

    init(_ input: [UInt8], tab: Bool) {
        var choices = ByteCursor(input)
        let separator: UInt8 = tab ? 0x09 : 0x2C
        // A byte order mark is skipped before the reader (`ChunkReader`).
        let bodyStart = 0

        func needsQuotes(_ text: [UInt8]) -> Bool { text.contains { $0 == separator || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D } }
        func quoted(_ text: [UInt8]) -> [UInt8] { [0x22] + text.flatMap { $0 == 0x22 ? [0x22, 0x22] : [$0] } + [0x22] }
        /// Line and column of `offset` (in `bytes`): lines by line feeds, columns in bytes, after the BOM.
        func position(_ offset: Int) -> String {
            let body = bytes[bodyStart..<offset]
            let line = body.count(where: { $0 == 0x0A }) + 1
            let lineStart = body.lastIndex(of: 0x0A).map { $0 + 1 } ?? bodyStart
            return "\(line):\(offset - lineStart + 1)"
        }
        func text(_ bytes: [UInt8]) -> String { "\"" + String(decoding: bytes, as: UTF8.self) + "\"" }
        func lineEnd() -> [UInt8] { [[0x0A], [0x0D, 0x0A], [0x0D]][Int(choices.next()) % 3] }

        // The most fields a header may have (`docs/cli.md`, bounds), or one more: one name, then
        // empty ones (a spreadsheet's unnamed columns).
        let wide = choices.next()
        if wide % 32 == 0 {
            let fields = 65_536 + Int(wide >> 7)
            bytes = Array("h".utf8) + [UInt8](repeating: separator, count: fields - 1)
            if fields > 65_536 {
                expected = [.line("error fuzz.csv:1:\(bytes.count + 1): the header has more than 65536 fields, the most a CSV "
                    + "input may have")]
            }
            // The field past the cap is found as soon as it is read, wherever it ends.
            if choices.next() & 1 != 0 { bytes += Array("\n1".utf8) }
            if fields <= 65_536, bytes.last == UInt8(ascii: "1") { expected = [.line("{ 2:1"), .line("key \"h\""), .line("string \"1\""), .line("}")] }
            return
        }

        // The header.
        let count = Int(choices.next() % 5) + 1
        var header: [[UInt8]] = []
        var padded = 0
        for index in 0..<count {
            var name = Array(Self.names[Int(choices.next()) % Self.names.count].utf8)
            if index == 0, name.isEmpty { name = Array("first".utf8) }  // an empty line is no header
            if index > 0 { bytes.append(separator) }
            let fieldStart = bytes.count
            bytes += needsQuotes(name) || choices.next() & 1 != 0 ? quoted(name) : name
            if Self.trimmed(name) != name { padded += 1 }
            name = Self.trimmed(name)
            if !name.isEmpty, let first = header.firstIndex(of: name) {
                expected = [.prefix("error fuzz.csv:\(position(fieldStart)): the header names the column ",
                                    suffix: " twice, fields \(first + 1) and \(index + 1): each column needs a name of its own")]
                padding = nil
                return
            }
            header.append(name)
        }
        padding = "padding dropped \(padded) names 0 after quotes"
        let rows = Int(choices.next() % 6)
        if rows > 0 || choices.next() & 1 != 0 { bytes += lineEnd() }

        for row in 0..<rows {
            // Empty lines between rows are no rows.
            if choices.next() % 4 == 0 { bytes += lineEnd() }
            let fields = max(count + Int(choices.next() % 3) - 1, 1)
            let damage = choices.next()
            let damaged = Int(damage >> 2) % count
            let last = row == rows - 1
            let unclosed = last && damage & 3 == 3
            let rowStart = bytes.count
            var lines: [Expected] = []
            var problem = false
            var ended = false
            for index in 0..<fields {
                if index > 0 { bytes.append(separator) }
                let fieldStart = bytes.count
                let value = Array(Self.values[Int(choices.next()) % Self.values.count].utf8)
                if unclosed, index == fields - 1 {
                    bytes += [0x22] + value.flatMap { $0 == 0x22 ? [0x22, 0x22] : [$0] }
                    lines.append(.line("error fuzz.csv:\(position(fieldStart)): a quoted field is not closed: the input ends inside it"))
                    ended = true
                    break
                }
                let quote = needsQuotes(value) || choices.next() & 1 != 0
                if !problem, index == damaged, damage & 3 == 1, !quote, !value.isEmpty {
                    // A quote inside an unquoted field, after its first byte.
                    let at = 1 + Int(choices.next()) % value.count
                    bytes += value[..<at]
                    lines.append(.line("record error fuzz.csv:\(position(bytes.count)): a quote inside a field that does not begin "
                        + "with one (quote the whole field and double the quote: \"a\"\"b\")"))
                    lines.append(.restOfRow)
                    bytes += [0x22] + value[at...]
                    problem = true
                    continue
                }
                if !problem, index == damaged, damage & 3 == 2 {
                    // A letter after the closing quote.
                    bytes += quoted(value)
                    lines.append(.line("record error fuzz.csv:\(position(bytes.count)): a quoted field goes on after its closing "
                        + "quote (a quote inside quotes is doubled: \"a\"\"b\")"))
                    lines.append(.restOfRow)
                    bytes += Array("x".utf8)
                    problem = true
                    continue
                }
                bytes += quote ? quoted(value) : value
                guard !problem, !value.isEmpty else { continue }
                if index < count {
                    lines += [.line("key \(text(header[index]))"), .line("string \(text(value))")]
                } else {
                    lines.append(.line("record error fuzz.csv:\(position(fieldStart)): a row has more fields than the header's \(count)"))
                    problem = true
                }
            }
            // A row of no bytes is an empty line.
            if bytes.count > rowStart {
                expected.append(.line("{ \(position(rowStart))"))
                expected += lines
                if ended { return }
                if lines.last != .restOfRow { expected.append(.line("}")) }
            }
            if !last || choices.next() & 1 != 0 { bytes += lineEnd() }
        }
    }

    /// Whether `got` (`Fuzzing.readCSV`'s lines, without its last two: "replaced", "padding") is what was expected.
    func matches(_ got: [String]) -> Bool {
        var index = 0
        for item in expected {
            switch item {
            case .line(let line):
                guard index < got.count, got[index] == line else { return false }
                index += 1
            case .prefix(let prefix, let suffix):
                guard index < got.count, got[index].hasPrefix(prefix), got[index].hasSuffix(suffix) else { return false }
                index += 1
            case .restOfRow:
                // The damaged row's other fields, up to its end.
                while index < got.count, got[index] != "}" {
                    guard got[index].hasPrefix("key ") || got[index].hasPrefix("string ") else { return false }
                    index += 1
                }
                guard index < got.count else { return false }
                index += 1
            }
        }
        return index == got.count
    }
}

/// Checks the CSV reader against a described table (`CSVDescription`), read whole and in
/// small chunks.
func fuzzCSVDescribed(_ chunkSize: Int, tab: Bool, _ input: [UInt8]) -> Int32 {
    let description = CSVDescription(input, tab: tab)
    // A header of 65,536 fields is read in chunks of thousands: in bytes of 1 to 8 it takes seconds.
    let small = description.bytes.count > 65_536 ? chunkSize * 1_021 : chunkSize
    for chunk in [max(description.bytes.count, 1), small] {
        var got = Fuzzing.readCSV(description.bytes, chunkSize: chunk, tab: tab)
        let padding = got.popLast()
        let replaced = got.popLast()
        if replaced != "replaced 0" || !description.matches(got)
            || (description.padding != nil && padding != description.padding) {
            report("CSV: not the described table's rows (chunks of \(chunk)):\n"
                + String(decoding: description.bytes, as: UTF8.self), description.expected.map { "\($0)" }, got)
        }
    }
    return 0
}
