internal import CYajl

/// A streaming JSON parser over yajl's push interface: feed it chunks, it calls its handler.
///
/// It accepts one value, several concatenated values or NDJSON (`allow_multiple_values`),
/// hands numbers over as their exact text (yajl's raw-number callback, so no locale and no
/// 64-bit limit), and adds what yajl lacks: a nesting limit, a limit on the size of a single
/// token, and absolute positions (line, column, offset) across chunks.
///
/// yajl calls the C functions of the handler type's `JSONEventCallbacks` (its own, or ones
/// that call it through the protocol), each a non-capturing closure that recovers the parser
/// from the context pointer and runs one of the generic events below. A Swift error
/// cannot cross C frames, so a callback stores it and returns 0 (yajl then reports "client
/// canceled") and `parse` rethrows the stored error.
final class JSONParser: EventReader {
    struct Options: Sendable {
        var allowComments = false
        var maxDepth = 1_000
        /// The largest single token (a string or number) yajl may buffer.
        var maxValueBytes = 64 << 20
        /// What invalid UTF-8 or an unpaired surrogate escape in a string or key does.
        var invalidText = InvalidTextPolicy.reject
        init(allowComments: Bool = false, maxDepth: Int = 1_000, maxValueBytes: Int = 64 << 20,
             invalidText: InvalidTextPolicy = .reject) {
            self.allowComments = allowComments
            self.maxDepth = maxDepth
            self.maxValueBytes = maxValueBytes
            self.invalidText = invalidText
        }
    }

    let options: Options
    /// The longest decoded string or key that cannot be over `maxValueBytes` in the input
    /// (`refusesString`), worked out once: a division per string was measurable.
    private let surelyShortString: Int
    /// What the callbacks call: the handler, or a `ForwardingHandler` around it; held here,
    /// passed to them unretained.
    private let target: AnyObject
    private let handlerObject: UnsafeMutableRawPointer
    // The state below is touched on every event. It is a class's, not a value a local holds:
    // yajl's C callbacks reach it only through the context pointer they are given. The parser
    // is driven by one thread and never re-entered (yajl calls back synchronously), so Swift's
    // dynamic exclusivity checks on these class properties (a quarter of the per-event cost)
    // are switched off.
    private var handle: yajl_handle?
    private let callbacks: UnsafeMutablePointer<yajl_callbacks>

    @exclusivity(unchecked) fileprivate var depth = 0
    @exclusivity(unchecked) fileprivate var pendingError: SluiceError?
    /// Set by every event; tells whether yajl is still buffering one token across chunks.
    @exclusivity(unchecked) fileprivate var eventsInChunk = 0
    /// Offset in the chunk just past the last token an event was delivered for.
    @exclusivity(unchecked) fileprivate var lastEventEnd = 0
    /// Where the token that yajl is still buffering starts, once a chunk ended inside it.
    @exclusivity(unchecked) private var pendingTokenStart: InputPosition?
    /// What the last event was, for placing a parse error (see `offendingTokenStart`).
    fileprivate enum EventKind { case none, open, key, value }
    @exclusivity(unchecked) fileprivate var lastEventKind = EventKind.none
    /// Whether the one separator the grammar allows after the last event has been passed.
    @exclusivity(unchecked) private var passedSeparator = false
    /// Where the token after the last event (and after its separator) starts, once found.
    @exclusivity(unchecked) private var offendingStart: InputPosition?
    /// Whether the input so far held anything but whitespace (an empty input is zero values).
    @exclusivity(unchecked) private var sawContent = false

    @exclusivity(unchecked) private var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    @exclusivity(unchecked) private var chunkStart: Int64 = 0
    @exclusivity(unchecked) private var lines = LineTracker()
    /// Invalid text found ahead of yajl (see `TextScanner`), taken as strings are delivered.
    @exclusivity(unchecked) fileprivate var faults = FaultQueue()
    /// Scans the chunks given to `parse(_:)`; those given to `parse(_:scan:)` come scanned.
    private var scanner = ChunkScanner()
    /// The input bytes of a string token begun in an earlier chunk, from its opening quote:
    /// a string with invalid text is decoded again from them (`StringRepair`).
    @exclusivity(unchecked) private var spanningString: [UInt8] = []
    /// U+FFFD put in place of invalid text (`InvalidTextPolicy.replace`).
    private(set) var replacementCharacters = 0
    /// Debug builds: `parse` and `finish` run on one thread at a time, never re-entered.
    private let use = ExclusiveUse()

    /// A parser calling `handler`: through its type's own callbacks when it has them
    /// (`EventHandler.callbacks`), else through the protocol.
    init<Handler: EventHandler>(sourceName: String, handler: Handler, options: Options = Options()) {
        self.options = options
        surelyShortString = (options.maxValueBytes - 2) / 6
        let target: AnyObject
        callbacks = .allocate(capacity: 1)
        if let own = Handler.callbacks {
            target = handler
            callbacks.initialize(to: own.table)
        } else {
            target = ForwardingHandler(handler)
            callbacks.initialize(to: ForwardingHandler.callbacks!.table)
        }
        self.target = target
        handlerObject = Unmanaged.passUnretained(target).toOpaque()
        super.init(sourceName: sourceName)
        guard let handle = yajl_alloc(callbacks, nil, Unmanaged.passUnretained(self).toOpaque()) else {
            preconditionFailure("yajl_alloc failed: out of memory")
        }
        self.handle = handle
        sluice_yajl_config_flag(handle, yajl_allow_multiple_values, 1)
        // `TextScanner` checks UTF-8 fully, and can make bad text a record error; yajl's partial
        // check would make some of it an input error first.
        sluice_yajl_config_flag(handle, yajl_dont_validate_strings, 1)
        if options.allowComments { sluice_yajl_config_flag(handle, yajl_allow_comments, 1) }
    }

    deinit {
        if let handle { yajl_free(handle) }
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
    }

    /// Total bytes fed so far.
    var bytesParsed: Int64 { chunkStart + Int64(chunk.count) }

    /// Bytes yajl's lexer read again from its buffer of a token that spans chunks: a few per
    /// chunk boundary inside a token, so lexing one is linear in its length (tests read it).
    var bytesRelexed: Int { handle.map { Int(sluice_yajl_bytes_relexed($0)) } ?? 0 }

    /// Parses the next chunk of input. The chunk need only stay valid during the call.
    func parse(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        try parse(bytes, scan: scanner.scan(bytes))
    }

    /// Parses the next chunk of input with its scan, made by a `ChunkScanner` that has
    /// scanned every chunk before it (use this or `parse(_:)` for a whole input, not both).
    func parse(_ bytes: UnsafeRawBufferPointer, scan: ChunkScan) throws(SluiceError) {
        use.enter("a JSONParser")
        defer { use.leave() }
        guard let handle else { return }
        chunkStart += Int64(chunk.count)
        faults.add(scan.faults)
        // A vertical tab or form feed ends the input: yajl lexes what comes before it.
        let invalidByte = scan.stop.map { (index: $0, value: bytes[$0]) }
        let bytes = invalidByte.map { UnsafeRawBufferPointer(rebasing: bytes[..<$0.index]) } ?? bytes
        chunk = bytes
        if !sawContent { sawContent = bytes.contains { !Self.isWhitespace($0) } }
        eventsInChunk = 0
        let status = yajl_parse(handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        try check(status, handle: handle)
        // yajl keeps an unfinished string or number in a buffer of its own, growing it chunk
        // after chunk; stop before one token can take unbounded memory. A token's size is
        // its bytes in the input, from its first byte (whitespace and separators before it
        // do not count), the same measure whether it arrives whole or across chunks.
        if eventsInChunk > 0 {
            pendingTokenStart = nil
            passedSeparator = false
            offendingStart = nil
        }
        // In this order: line counting cannot go back, and the refused token of a parse
        // error never starts after the pending token.
        if offendingStart == nil { offendingStart = scanForOffendingToken() }
        if pendingTokenStart == nil { pendingTokenStart = currentTokenStart() }
        lines.advance(to: chunkStart + Int64(bytes.count), in: bytes, chunkStart: chunkStart)
        if let start = pendingTokenStart, chunkStart + Int64(bytes.count) - start.offset > Int64(options.maxValueBytes) {
            throw tooLarge(at: start)
        }
        // After the size check: the bytes before it are lexed as a chunk ending there would be.
        if let invalidByte {
            let offset = chunkStart + Int64(invalidByte.index)
            self.handle = nil
            yajl_free(handle)
            throw fail(TextProblem.notWhitespace(invalidByte.value).message, at: lines.position(of: offset))
        }
        keepSpanningString()
    }

    /// Keeps the input bytes of a string token that goes on in the next chunk, from its
    /// opening quote (bounded by `maxValueBytes`, checked just before).
    private func keepSpanningString() {
        guard let start = pendingTokenStart else {
            spanningString.removeAll()
            return
        }
        if start.offset >= chunkStart {
            spanningString.removeAll()
            let index = Int(start.offset - chunkStart)
            if chunk[index] == UInt8(ascii: "\"") { spanningString.append(contentsOf: chunk[index...]) }
        } else if eventsInChunk > 0 {
            spanningString.removeAll()
        } else if !spanningString.isEmpty {
            spanningString.append(contentsOf: chunk)
        }
    }

    /// Whether the string or key being delivered holds a fault `TextScanner` found: one compare
    /// per string when the input has none.
    fileprivate var hasTextFault: Bool {
        faults.nextFaultOffset != .max && faults.nextFaultOffset < consumedOffset
    }

    /// Delivers a string or key whose text `TextScanner` found faults in, decoded again from its
    /// input bytes with U+FFFD in place of each bad sequence; under `.reject` the handler
    /// first hears of the first fault (`invalidText`), with its position. Out of line: rare.
    @inline(never)
    fileprivate func deliverRepaired<Handler: EventHandler>(key: Bool, to _: Handler.Type) -> Int32 {
        let (bytes, error) = repairedText()
        return bytes.withUnsafeBytes { text in
            deliver(key ? .key : .value, to: Handler.self) { handler throws(SluiceError) in
                if let error { try handler.invalidText(error) }
                if key { try handler.key(text) } else { try handler.string(text) }
            }
        }
    }

    /// The string or key being delivered, decoded again (`deliverRepaired`), and under
    /// `.reject` the error for its first fault.
    private func repairedText() -> (bytes: [UInt8], error: SluiceError?) {
        let end = consumedOffset
        let faults = self.faults.take(before: end)
        let closing = Int(end - chunkStart) - 1
        let decoded: (bytes: [UInt8], replacements: Int)
        if eventsInChunk == 0, pendingTokenStart != nil, !spanningString.isEmpty, closing >= 0 {
            var raw = spanningString
            raw.append(contentsOf: chunk[..<closing])
            decoded = raw.withUnsafeBytes { StringRepair.decode(UnsafeRawBufferPointer(rebasing: $0[1...])) }
        } else {
            let opening = openingQuote(before: closing) ?? -1
            decoded = StringRepair.decode(UnsafeRawBufferPointer(rebasing: chunk[(opening + 1)..<max(closing, opening + 1)]))
        }
        var error: SluiceError?
        if options.invalidText == .replace {
            replacementCharacters += decoded.replacements
        } else if let first = faults.first {
            error = fail(first.problem.message, at: position(of: first.offset))
        }
        return (decoded.bytes, error)
    }

    /// The opening quote of the string token whose closing quote is at `closing` in this
    /// chunk: the nearest quote before it not escaped (an even run of backslashes before it).
    private func openingQuote(before closing: Int) -> Int? {
        var index = closing - 1
        while index >= 0 {
            if chunk[index] == UInt8(ascii: "\"") {
                var backslashes = 0
                while index - backslashes - 1 >= 0, chunk[index - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { return index }
            }
            index -= 1
        }
        return nil
    }

    /// The position of an absolute offset in this chunk or in the token that spans into it.
    private func position(of offset: Int64) -> InputPosition {
        if offset >= chunkStart { lines.advance(to: offset, in: chunk, chunkStart: chunkStart) }
        return lines.position(of: offset)
    }

    /// Where the token yajl is lexing now starts: the first byte after the last event (in this
    /// chunk, or since the chunk's start when it had none yet) that is not whitespace or a
    /// separator; a token begun in an earlier chunk starts where that chunk noted. Nil when
    /// only whitespace and separators followed the last event.
    private func currentTokenStart() -> InputPosition? {
        if eventsInChunk == 0, let pendingTokenStart { return pendingTokenStart }
        return firstByteAfterLastEvent(skippingSeparators: true)
    }

    /// The first byte of this chunk after the last event (or from the chunk's start when it
    /// had none) that is not whitespace (nor `:` or `,` when `skippingSeparators`).
    private func firstByteAfterLastEvent(skippingSeparators: Bool) -> InputPosition? {
        var index = eventsInChunk > 0 ? lastEventEnd : 0
        while index < chunk.count, Self.isWhitespace(chunk[index])
            || (skippingSeparators && (chunk[index] == UInt8(ascii: ":") || chunk[index] == UInt8(ascii: ","))) {
            index += 1
        }
        guard index < chunk.count else { return nil }
        let offset = chunkStart + Int64(index)
        lines.advance(to: offset, in: chunk, chunkStart: chunkStart)
        return lines.position(of: offset)
    }

    /// Where the token yajl refuses in a parse error starts: the first token after the last
    /// event, past the one separator the grammar allows there (`:` after a key, `,` after a
    /// value inside a container). Scans this chunk after the last event (or from its start,
    /// carrying what earlier chunks showed), so it is the same however the input is chunked.
    private func scanForOffendingToken() -> InputPosition? {
        let separator: UInt8?
        switch lastEventKind {
        case .key: separator = UInt8(ascii: ":")
        case .value where depth > 0: separator = UInt8(ascii: ",")
        default: separator = nil
        }
        var index = eventsInChunk > 0 ? lastEventEnd : 0
        while index < chunk.count {
            let byte = chunk[index]
            if Self.isWhitespace(byte) {
                index += 1
            } else if !passedSeparator, byte == separator {
                passedSeparator = true
                index += 1
            } else {
                let offset = chunkStart + Int64(index)
                lines.advance(to: offset, in: chunk, chunkStart: chunkStart)
                return lines.position(of: offset)
            }
        }
        return nil
    }

    /// The token being delivered (or lexed) if its bytes in the input so far, up to `end`
    /// (absolute), are more than `maxValueBytes`: where it starts.
    fileprivate func oversizedToken(endingAt end: Int64) -> InputPosition? {
        guard let start = currentTokenStart(), end - start.offset > Int64(options.maxValueBytes) else { return nil }
        return start
    }

    /// The absolute offset just past what yajl has consumed of the current chunk.
    fileprivate var consumedOffset: Int64 {
        handle.map { chunkStart + Int64(sluice_yajl_offset_in_chunk($0)) } ?? chunkStart
    }

    fileprivate func tooLarge(at position: InputPosition) -> SluiceError {
        fail("a single value is larger than \(options.maxValueBytes) bytes (--max-value-bytes)", at: position)
    }

    /// Ends the input: fails if it stopped inside a value.
    func finish() throws(SluiceError) {
        use.enter("a JSONParser")
        defer { use.leave() }
        guard let handle else { return }
        // yajl_complete_parse feeds yajl one space, so its offsets count from the input's end.
        chunkStart += Int64(chunk.count) - 1
        chunk = UnsafeRawBufferPointer(start: nil, count: 0)
        let status = yajl_complete_parse(handle)
        chunkStart += 1
        if status == yajl_status_error && !sawContent { return }
        try check(status, handle: handle)
    }

    /// The position of the token that ends where the parser is now and is `length` bytes long
    /// in the input. Meaningful only inside a handler call: 1 for a bracket, the text's length
    /// for a number, the decoded length plus the quotes for a string (escapes make that an
    /// estimate of where it starts).
    override func tokenPosition(length: Int) -> InputPosition {
        let end = handle.map { chunkStart + Int64(sluice_yajl_offset_in_chunk($0)) } ?? chunkStart
        let start = max(end - Int64(length), 0)
        lines.advance(to: start, in: chunk, chunkStart: chunkStart)
        return lines.position(of: start)
    }

    private func check(_ status: yajl_status, handle: yajl_handle) throws(SluiceError) {
        switch status {
        case yajl_status_ok:
            return
        case yajl_status_client_canceled:
            let error = pendingError ?? SluiceError(.data, "parse stopped")
            self.handle = nil
            yajl_free(handle)
            throw error
        default:
            // A parse error (a well-formed token in the wrong place) is placed where the
            // refused token starts: yajl's own offset for it is its guess of the token's start
            // within the current chunk, wrong once the token spans chunks. (Found before any
            // later offset is asked for: line counting cannot go back past a newline.)
            var refused: InputPosition?
            if chunk.count > 0, Self.isParseError(handle) {
                if eventsInChunk > 0 {
                    passedSeparator = false
                    offendingStart = nil
                }
                refused = offendingStart ?? scanForOffendingToken()
            }
            // An error inside a token already too large is reported as too large: the same
            // error as when a chunk boundary had fallen inside the token before the error.
            if chunk.count > 0, let start = oversizedToken(endingAt: chunkStart + Int64(yajl_get_bytes_consumed(handle))) {
                self.handle = nil
                yajl_free(handle)
                throw tooLarge(at: start)
            }
            // yajl stops just past the byte it could not accept: point at that byte, or at the
            // end of the input when the input ended too soon.
            // That byte may be the last of the previous chunk: a token that ended exactly at a
            // chunk boundary is only known to have ended (and then refused) in the next chunk,
            // where yajl has consumed nothing yet.
            // A bad character inside a string (a control character, a non-hex digit after
            // `\u`) is the exception: yajl backs up onto it, so it is the byte at `consumed`.
            // It is always in this chunk: the bytes yajl kept of a token from the last one had
            // passed its checks.
            let consumed = Int(yajl_get_bytes_consumed(handle))
            let offset = chunk.count == 0 || Self.isBadCharacterInString(handle) ? consumed : consumed - 1
            let position = refused
                ?? (offset >= 0 ? positionInChunk(offset) : lines.position(of: max(chunkStart + Int64(offset), 0)))
            var message = Self.describeError(handle: handle, chunk: chunk, offset: max(offset, 0))
            // A byte of 0x80 or more outside a string: what the byte alone says (the bytes after it
            // may be in the next chunk, and the message must not depend on the chunking).
            if refused == nil, offset >= 0, offset < chunk.count, chunk[offset] >= 0x80,
               Self.isInvalidCharOutsideString(handle) {
                message = Self.describeNonASCII(chunk[offset])
            }
            self.handle = nil
            yajl_free(handle)
            throw fail(message, at: position)
        }
    }

    private func positionInChunk(_ offset: Int) -> InputPosition {
        let absolute = chunkStart + Int64(offset)
        lines.advance(to: absolute, in: chunk, chunkStart: chunkStart)
        return lines.position(of: absolute)
    }

    fileprivate func fail(_ message: String, at position: InputPosition) -> SluiceError {
        SluiceError(.data, message, in: sourceName, at: position)
    }

    /// JSON's whitespace. (yajl also skips vertical tab and form feed; `TextScanner` stops
    /// the input at them first.)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

@available(*, unavailable, message: "a parser belongs to the thread that parses")
extension JSONParser: Sendable {}

// MARK: - Callbacks

extension JSONParser {
    /// Runs one call of the handler, which is a `Handler` (the type whose callbacks yajl
    /// calls); a thrown error is kept for `parse` and stops yajl.
    fileprivate func deliver<Handler: EventHandler>(_ kind: EventKind = .value, to _: Handler.Type,
                                                        _ body: (Handler) throws(SluiceError) -> Void) -> Int32 {
        eventsInChunk &+= 1
        lastEventKind = kind
        if let handle { lastEventEnd = Int(sluice_yajl_offset_in_chunk(handle)) }
        // Not retained: the parser holds the handler, and a retain and release per event
        // was measurable.
        return Unmanaged<Handler>.fromOpaque(handlerObject)._withUnsafeGuaranteedRef { handler in
            do throws(SluiceError) {
                try body(handler)
                return 1
            } catch {
                return stop(error)
            }
        }
    }

    /// Keeps a handler's error for `parse` and stops yajl. Out of line: copying the error
    /// inside every callback gave each a large stack frame to set up on every event.
    @inline(never)
    fileprivate func stop(_ error: SluiceError) -> Int32 {
        pendingError = error
        return 0
    }

    /// Whether a string (or key) of `length` decoded bytes just lexed is over the limit in the
    /// input: its raw bytes (quotes and escapes included) are at least `length + 2` and at
    /// most `6 * length + 2`, so they are counted only in between.
    fileprivate func refusesString(length: Int) -> Bool {
        length > surelyShortString && refusesLongString()
    }

    @inline(never)
    private func refusesLongString() -> Bool {
        if let start = oversizedToken(endingAt: consumedOffset) {
            pendingError = tooLarge(at: start)
            return true
        }
        return false
    }

    /// A number of `length` bytes just lexed (raw and decoded are the same) is over the limit.
    fileprivate func refuseLargeNumber(length: Int) -> Int32 {
        pendingError = tooLarge(at: currentTokenStart() ?? tokenPosition(length: length))
        return 0
    }

    fileprivate func descend<Handler: EventHandler>(to _: Handler.Type,
                                                        _ body: (Handler) throws(SluiceError) -> Void) -> Int32 {
        depth += 1
        if depth > options.maxDepth { return refuseDepth() }
        return deliver(.open, to: Handler.self, body)
    }

    @inline(never)
    private func refuseDepth() -> Int32 {
        pendingError = fail("nesting deeper than \(options.maxDepth) levels", at: tokenPosition(length: 1))
        return 0
    }
}

// MARK: - Events

/// What yajl's callbacks run for each event, for a handler of type `Handler`: each C function
/// of a `JSONEventCallbacks` table is one call of these, its context the parser. Inlined into
/// that function, with `Handler`'s method (see `JSONEventCallbacks`).
extension JSONParser {
    /// Calls `body` with the parser behind a callback's context, without retaining it: yajl
    /// calls back only from inside `parse`/`finish`, while the parser is alive (a retain and
    /// release per event was a twentieth of the parse).
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private static func withParser(_ context: UnsafeMutableRawPointer?, _ body: (JSONParser) -> Int32) -> Int32 {
        Unmanaged<JSONParser>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
    }

    static func null<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, to _: Handler.Type) -> Int32 {
        withParser(context) { $0.deliver(to: Handler.self) { handler throws(SluiceError) in try handler.null() } }
    }

    static func bool<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, _ value: Int32,
                                                to _: Handler.Type) -> Int32 {
        withParser(context) { $0.deliver(to: Handler.self) { handler throws(SluiceError) in try handler.bool(value != 0) } }
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func number<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?,
                                                  _ length: Int, to _: Handler.Type) -> Int32 {
        withParser(context) { parser in
            guard length <= parser.options.maxValueBytes else { return parser.refuseLargeNumber(length: length) }
            return parser.deliver(to: Handler.self) { handler throws(SluiceError) in
                try handler.number(UnsafeRawBufferPointer(start: text, count: length))
            }
        }
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func string<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?,
                                                  _ length: Int, to _: Handler.Type) -> Int32 {
        text(context, bytes, length, key: false, to: Handler.self)
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func startObject<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, to _: Handler.Type) -> Int32 {
        withParser(context) { $0.descend(to: Handler.self) { handler throws(SluiceError) in try handler.startObject() } }
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func key<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?,
                                               _ length: Int, to _: Handler.Type) -> Int32 {
        text(context, bytes, length, key: true, to: Handler.self)
    }

    /// A string value or a key: refused when too large, decoded again when it holds invalid
    /// text, else handed over as it is.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private static func text<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?,
                                                        _ length: Int, key: Bool, to _: Handler.Type) -> Int32 {
        withParser(context) { parser in
            if parser.refusesString(length: length) { return 0 }
            if parser.hasTextFault { return parser.deliverRepaired(key: key, to: Handler.self) }
            let text = UnsafeRawBufferPointer(start: bytes, count: length)
            return parser.deliver(key ? .key : .value, to: Handler.self) { handler throws(SluiceError) in
                if key { try handler.key(text) } else { try handler.string(text) }
            }
        }
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func endObject<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, to _: Handler.Type) -> Int32 {
        withParser(context) { parser in
            parser.depth -= 1
            return parser.deliver(to: Handler.self) { handler throws(SluiceError) in try handler.endObject() }
        }
    }

    static func startArray<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, to _: Handler.Type) -> Int32 {
        withParser(context) { $0.descend(to: Handler.self) { handler throws(SluiceError) in try handler.startArray() } }
    }

    static func endArray<Handler: EventHandler>(_ context: UnsafeMutableRawPointer?, to _: Handler.Type) -> Int32 {
        withParser(context) { parser in
            parser.depth -= 1
            return parser.deliver(to: Handler.self) { handler throws(SluiceError) in try handler.endArray() }
        }
    }
}
