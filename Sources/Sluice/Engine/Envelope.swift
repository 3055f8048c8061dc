/// The events of the objects around rows read from CSV, so that they reach the record
/// location the model's root gives their file: `{"stops.txt": "Stop"}` is the path `stops` →
/// `txt`, and the rows go between `{"stops": {"txt": [` and `]}}`. An empty path adds nothing.
/// Without `array`, the value inside is the input's own (a JSON input that is one array).
enum Envelope {
    static func open(_ path: [String], in handler: any EventHandler, array: Bool = true) throws(SluiceError) {
        guard !path.isEmpty else { return }
        for key in path {
            try handler.startObject()
            try Array(key.utf8).withRawBytes { bytes throws(SluiceError) in try handler.key(bytes) }
        }
        if array { try handler.startArray() }
    }

    static func close(_ path: [String], in handler: any EventHandler, array: Bool = true) throws(SluiceError) {
        guard !path.isEmpty else { return }
        if array { try handler.endArray() }
        for _ in path { try handler.endObject() }
    }
}
