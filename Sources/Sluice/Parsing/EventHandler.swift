/// Receives the events of an input, in document order: a JSON stream's (`JSONParser`), or a
/// CSV or TSV input's rows (`CSVReader`: each row an object of `field`s).
///
/// Buffers handed to a method are valid only during that call: they point into the input
/// chunk or yajl's decode buffer, so copy or convert before keeping anything.
/// A method that throws stops the parse; the reader rethrows that error unchanged.
protocol EventHandler: AnyObject {
    /// The C functions the parser has yajl call for this type's events, which call its
    /// methods directly (see `JSONEventCallbacks`); nil (the default) to be called through
    /// the protocol.
    static var callbacks: JSONEventCallbacks? { get }
    func startObject() throws(SluiceError)
    /// An object key: decoded UTF-8 bytes.
    func key(_ bytes: UnsafeRawBufferPointer) throws(SluiceError)
    func endObject() throws(SluiceError)
    func startArray() throws(SluiceError)
    func endArray() throws(SluiceError)
    func null() throws(SluiceError)
    func bool(_ value: Bool) throws(SluiceError)
    /// A number exactly as written in the input, e.g. `-9223372036854775808` or `1e3`.
    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError)
    /// A string value: decoded UTF-8 bytes, escapes resolved, validated.
    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError)
    /// The next string or key holds invalid text (`error` names it, at its first bad byte);
    /// it follows with U+FFFD in place of each bad sequence. Throw to stop the parse (what
    /// every handler does by default: an input error), or return to take it as a record error.
    func invalidText(_ error: SluiceError) throws(SluiceError)
    /// A CSV field that is not empty: `key(name)` then `string(value)` (what the default
    /// does), with the index of its column in the header, so that a handler may look each
    /// column's name up once per header rather than once per row. `name` is the same bytes
    /// for a column from one `columnsNamed()` to the next.
    func field(_ column: Int, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(SluiceError)
    /// A CSV header has ended: from now on a column names what this header says, whatever
    /// an earlier header said.
    func columnsNamed()
}

extension EventHandler {
    static var callbacks: JSONEventCallbacks? { nil }
    func invalidText(_ error: SluiceError) throws(SluiceError) { throw error }
    func field(_ column: Int, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(SluiceError) {
        try key(name)
        try string(value)
    }
    func columnsNamed() {}
}

/// A handler that passes every event on to another, but those it implements itself.
protocol EventForwarding: EventHandler {
    var inner: any EventHandler { get }
}

extension EventForwarding {
    func startObject() throws(SluiceError) { try inner.startObject() }
    func key(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) { try inner.key(bytes) }
    func endObject() throws(SluiceError) { try inner.endObject() }
    func startArray() throws(SluiceError) { try inner.startArray() }
    func endArray() throws(SluiceError) { try inner.endArray() }
    func null() throws(SluiceError) { try inner.null() }
    func bool(_ value: Bool) throws(SluiceError) { try inner.bool(value) }
    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) { try inner.number(text) }
    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) { try inner.string(bytes) }
    func invalidText(_ error: SluiceError) throws(SluiceError) { try inner.invalidText(error) }
}
