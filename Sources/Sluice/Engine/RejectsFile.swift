/// `--rejects FILE`: one JSON line per rejected record (NDJSON), written as the import goes.
///
///     {"file":"stops.json","line":12,"column":3,"entity":"Stop","reason":"Stop.lat: cannot convert \"north\" to double","record":{"stop_id":"S1","lat":"north"}}
///
/// `record` is the record itself as JSON (its compact re-serialisation, numbers as written),
/// or `null` when it was larger than `--max-value-bytes`.
///
/// Lines are written straight to the file (no buffer of ours) as each record is rejected, so
/// the file shows the rejects even when a later error aborts the import and the database
/// keeps none of it. The file is created (or emptied) when the import starts.
final class RejectsFile {
    let path: String
    private let descriptor: Int32
    private var line: [UInt8] = []

    /// Creates or truncates `path`. Failure is `.cannotCreate` (exit 73), as for the database.
    init(path: String) throws(SluiceError) {
        let fd = SystemCalls.createForWriting(path)
        guard fd >= 0 else {
            throw SluiceError(.cannotCreate, "cannot create rejects file '\(path)': \(SystemCalls.describe(errno: SystemCalls.errno))")
        }
        self.path = path
        descriptor = fd
    }

    deinit {
        SystemCalls.close(descriptor)
    }

    /// Appends the line of one rejected record of `entity`. A failed write is `.io` (exit 74).
    func write(_ error: SluiceError, entity: String, record: [UInt8]?) throws(SluiceError) {
        line.removeAll(keepingCapacity: true)
        field("file", first: true)
        quoted(error.source ?? "")
        field("line")
        line.append(contentsOf: String(error.position?.line ?? 0).utf8)
        field("column")
        line.append(contentsOf: String(error.position?.column ?? 0).utf8)
        field("entity")
        quoted(entity)
        field("reason")
        quoted(error.message)
        field("record")
        if let record { line.append(contentsOf: record) } else { line.append(contentsOf: "null".utf8) }
        line.append(contentsOf: "}\n".utf8)
        try writeLine()
    }

    private func field(_ name: String, first: Bool = false) {
        line.append(UInt8(ascii: first ? "{" : ","))
        quoted(name)
        line.append(UInt8(ascii: ":"))
    }

    private func quoted(_ text: String) {
        var text = text
        text.withUTF8 { JSONEscaping.appendQuoted(UnsafeRawBufferPointer($0), to: &line) }
    }

    private func writeLine() throws(SluiceError) {
        let failure = line.withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
        if let failure {
            throw SluiceError(.io, "cannot write rejects file '\(path)': \(SystemCalls.describe(errno: failure))")
        }
    }
}

@available(*, unavailable, message: "an import belongs to one thread")
extension RejectsFile: Sendable {}
