/// The JSON text of records that get rejected, for `--rejects`: a record stream that has one
/// tees the events of each record (or of whatever stands where a record should) into a
/// `JSONTextWriter`, from the record's opening bracket to its closing one, and hands the
/// text to the sink with the rejection.
///
/// The text is the compact re-serialisation of the record (numbers as written, strings
/// re-escaped), not a byte-for-byte copy of the input: the same value, without the input's
/// whitespace. It grows to at most `limit` bytes (`--max-value-bytes`); past that it is
/// dropped and the rejection carries no text.
///
/// A rejection that arrives while the captured value is still open (an array where a record
/// should be is rejected at its `[`) is kept in `deferred` and delivered when the value
/// closes, so it too gets its whole text.
///
/// A stream without `--rejects` has no capture at all: the only cost is one nil check per event.
struct RejectedRecordCapture {
    let limit: Int
    private var writer = JSONTextWriter()
    /// Containers open in the value being captured; 0 when nothing is captured.
    private(set) var depth = 0
    private var overflowed = false
    /// Rejections to deliver when the captured value closes: the error and its entity.
    private var deferred: [(error: SluiceError, entity: Int)] = []

    init(limit: Int) {
        self.limit = limit
    }

    var isCapturing: Bool { depth > 0 }

    /// The captured value's text, once it closed; nil when it grew past `limit`.
    var text: [UInt8]? { overflowed ? nil : writer.bytes }

    /// What a stream does with a rejection.
    enum Delivery {
        /// Nothing yet: the captured value is still open; `takeDeferred()` returns it later.
        case later
        /// Deliver it now, with this text (nil when there is none).
        case now([UInt8]?)
    }

    /// Decides when a rejection is delivered and with what text: `scalar` when the rejected
    /// event was that scalar, `closedCapture` when the event closed the captured value.
    mutating func route(_ error: SluiceError, entity: Int, scalar: Scalar?, closedCapture: Bool) -> Delivery {
        if isCapturing {
            deferred.append((error, entity))
            return .later
        }
        if let scalar { return .now(Self.text(of: scalar)) }
        return .now(closedCapture ? text : nil)
    }

    /// The rejections that waited for the captured value, which has just closed (its text is
    /// `text`); the list is emptied.
    mutating func takeDeferred() -> [(error: SluiceError, entity: Int)] {
        defer { deferred.removeAll() }
        return deferred
    }

    /// Starts capturing a record (an object) or a rejected array at its opening bracket.
    mutating func begin(array: Bool) {
        writer.reset()
        overflowed = false
        depth = 1
        if array { writer.startArray() } else { writer.startObject() }
    }

    mutating func startObject() {
        guard depth > 0 else { return }
        depth += 1
        write { $0.startObject() }
    }

    mutating func startArray() {
        guard depth > 0 else { return }
        depth += 1
        write { $0.startArray() }
    }

    /// Returns true when this bracket closed the captured value.
    mutating func endObject() -> Bool {
        guard depth > 0 else { return false }
        write { $0.endObject() }
        depth -= 1
        return depth == 0
    }

    /// Returns true when this bracket closed the captured value.
    mutating func endArray() -> Bool {
        guard depth > 0 else { return false }
        write { $0.endArray() }
        depth -= 1
        return depth == 0
    }

    mutating func key(_ bytes: UnsafeRawBufferPointer) {
        guard depth > 0 else { return }
        write { $0.key(bytes) }
    }

    mutating func scalar(_ value: Scalar) {
        guard depth > 0 else { return }
        write { $0.scalar(value) }
    }

    /// The text of a scalar standing where a record should.
    static func text(of value: Scalar) -> [UInt8] {
        var writer = JSONTextWriter(reservingCapacity: 16)
        writer.scalar(value)
        return writer.bytes
    }

    private mutating func write(_ body: (inout JSONTextWriter) -> Void) {
        guard !overflowed else { return }
        body(&writer)
        if writer.bytes.count > limit {
            overflowed = true
            writer.reset()
        }
    }
}
