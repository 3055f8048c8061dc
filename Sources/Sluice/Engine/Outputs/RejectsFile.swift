/// `--rejects FILE`: one JSON line per rejected record (NDJSON), written as the import goes.
///
///     {"file":"stops.json","line":12,"column":3,"entity":"Stop","reason":"Stop.lat: cannot convert \"north\" to double","record":{"stop_id":"S1","lat":"north"}}
///
/// `record` is the record itself as JSON (its compact re-serialisation, numbers as written),
/// or `null` when it was larger than `--max-value-bytes`.
///
/// Lines are written (no buffer of ours) to a temporary file beside `path` as each record is
/// rejected (`OutputFile`). The importer moves it into place when the import ends, committed
/// or not, so the file shows the rejects even when a later error aborts the import and the
/// database keeps none of it; an import that fails before it begins (the database cannot be
/// opened, its schema does not fit) leaves `path` as it was.
final class RejectsFile {
    var path: String { output.path }
    private let output: OutputFile
    private var line: [UInt8] = []

    /// Prepares `path`. Failure is `.io` (exit 74), before the import begins.
    init(path: String) throws(SluiceError) {
        output = try OutputFile(path: path, role: "rejects file")
    }

    /// Prepares `path` (`ImportOptions.rejectsPath`; nil: no file) for an import into the
    /// database file `database`, refused first when it would overwrite it.
    static func open(_ path: String?, database: String?) throws(SluiceError) -> RejectsFile? {
        guard let path else { return nil }
        try check(path, database: database)
        return try RejectsFile(path: path)
    }

    /// Refuses `path` as the rejects file when it is the database, an input or the model
    /// (`OutputPathCheck`), before anything is opened.
    static func check(_ path: String, database: String?, inputs: [String] = [], model: String? = nil) throws(SluiceError) {
        try OutputPathCheck.check([.init(option: "the rejects file", path: path)], database: database, inputs: inputs, model: model)
    }

    /// Moves the file into place.
    func place() throws(SluiceError) {
        try output.place()
    }

    /// Drops the file; its path keeps what it held.
    func discard() {
        output.discard()
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
        try output.write(line)
    }
}

@available(*, unavailable, message: "an import belongs to one thread")
extension RejectsFile: Sendable {}
