/// Tells from the first events of an input whether it is a table (`TabularRows`), for
/// `sluice infer`: header then rows (`["id","name"]` first, alone or as the first element of
/// one array) or pandas' split orientation (a top-level object whose first key is `columns`,
/// an array of strings, followed by `index` or `data`). It stops the parse once it knows.
final class TabularSniffer: EventHandler {
    private(set) var found: (path: [String], header: TabularHeader)?
    private(set) var decided = false

    private enum State { case start, topArray, nestedArray, topObject, columnsKey, columns, afterColumns }
    private var state = State.start

    private static let stop = SluiceError(.data, "sniffed")

    private func decide(_ result: (path: [String], header: TabularHeader)?) throws(SluiceError) {
        found = result
        decided = true
        throw Self.stop
    }

    func startObject() throws(SluiceError) {
        if state == .start { state = .topObject } else { try decide(nil) }
    }

    func key(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        switch state {
        case .topObject where bytes.elementsEqual("columns".utf8): state = .columnsKey
        case .afterColumns where bytes.elementsEqual("index".utf8) || bytes.elementsEqual("data".utf8):
            try decide((["data"], .sibling("columns")))
        default: try decide(nil)
        }
    }

    func endObject() throws(SluiceError) { try decide(nil) }

    func startArray() throws(SluiceError) {
        switch state {
        case .start: state = .topArray
        case .topArray: state = .nestedArray
        case .columnsKey: state = .columns
        default: try decide(nil)
        }
    }

    func endArray() throws(SluiceError) {
        if state == .columns { state = .afterColumns } else { try decide(nil) }
    }

    func null() throws(SluiceError) { try decide(nil) }
    func bool(_ value: Bool) throws(SluiceError) { try decide(nil) }
    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) { try decide(nil) }

    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        switch state {
        case .topArray, .nestedArray: try decide(([], .first))
        case .columns: return
        default: try decide(nil)
        }
    }

    /// Sniffs `bytes`, the start of an input.
    static func sniff(_ bytes: [UInt8], name: String) -> (path: [String], header: TabularHeader)? {
        let sniffer = TabularSniffer()
        let parser = JSONParser(sourceName: name, handler: sniffer)
        do {
            try bytes.withUnsafeBytes { try parser.parse($0) }
        } catch {}
        return sniffer.found
    }
}
