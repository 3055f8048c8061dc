/// What an import read of one input, recorded in its `sluice_imports` row (`inputs`, compact
/// JSON: `docs/database-layout.md#sluice_imports`) and compared by `--skip-unchanged`: its
/// name, its size and SHA-256 as read from the file (before gzip or zip decoding:
/// `DigestingSource`), and a GTFS feed's `feed_info.txt` `feed_version` when it has one.
struct InputDigest: Equatable, Sendable {
    var name: String
    var bytes: Int64
    var sha256: String
    var feedVersion: String?

    /// Whether `other` is the same bytes under the same name (the feed version aside: it is
    /// read from the bytes, so the digest already decides).
    func sameBytes(as other: InputDigest) -> Bool {
        name == other.name && bytes == other.bytes && sha256 == other.sha256
    }

    /// The digest of the file at `path`, read once through (`--skip-unchanged`'s pass before
    /// the import); nil for standard input, which cannot be read twice.
    static func ofFile(at path: String) throws(SluiceError) -> InputDigest? {
        guard path != "-" else { return nil }
        let file = DigestingSource(try FileSource(path: path))
        let (bytes, sha256) = try file.finish()
        return InputDigest(name: path, bytes: bytes, sha256: sha256)
    }

    /// `[{"name":"feed.zip","bytes":1234,"sha256":"…","feed_version":"…"},…]`.
    static func json(_ inputs: [InputDigest]) -> String {
        var writer = JSONTextWriter()
        writer.startArray()
        for input in inputs {
            writer.startObject()
            writer.member("name", string: input.name)
            writer.member("bytes", number: input.bytes)
            writer.member("sha256", string: input.sha256)
            if let version = input.feedVersion { writer.member("feed_version", string: version) }
            writer.endObject()
        }
        writer.endArray()
        return writer.text
    }

    /// The inputs `json` wrote; nil for text it did not write.
    static func parse(_ text: String) -> [InputDigest]? {
        guard case .array(let values)? = try? JSONValue.parse(Array(text.utf8), sourceName: "sluice_imports.inputs") else { return nil }
        var inputs: [InputDigest] = []
        for value in values {
            guard case .string(let name)? = value["name"], case .number(let size)? = value["bytes"], let bytes = Int64(size),
                  case .string(let sha256)? = value["sha256"] else { return nil }
            var version: String?
            if case .string(let text)? = value["feed_version"] { version = text }
            inputs.append(InputDigest(name: name, bytes: bytes, sha256: sha256, feedVersion: version))
        }
        return inputs
    }
}

private extension JSONTextWriter {
    mutating func member(_ name: String, string value: String) {
        var (name, value) = (name, value)
        name.withUTF8 { key(UnsafeRawBufferPointer($0)) }
        value.withUTF8 { scalar(.string(UnsafeRawBufferPointer($0))) }
    }

    mutating func member(_ name: String, number: Int64) {
        var (name, text) = (name, String(number))
        name.withUTF8 { key(UnsafeRawBufferPointer($0)) }
        text.withUTF8 { scalar(.number(UnsafeRawBufferPointer($0))) }
    }
}

/// Passes a CSV input's events on, keeping the first row's `feed_version` (`feed_info.txt`
/// of a GTFS feed: one row). Only that input's reader goes through it.
final class FeedVersionTap: EventForwarding {
    let inner: any EventHandler
    private(set) var version: String?

    init(inner: any EventHandler) {
        self.inner = inner
    }

    static func wanted(for fileNames: [String]) -> Bool { fileNames.contains("feed_info.txt") }

    func field(_ column: Int, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(SluiceError) {
        if version == nil, name.elementsEqual("feed_version".utf8) {
            version = String(decoding: value, as: UTF8.self)
        }
        try inner.field(column, name: name, value: value)
    }

    func columnsNamed() { inner.columnsNamed() }
}
