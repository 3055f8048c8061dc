import Testing
@testable import Sluice

/// An `EventRecorder` called through a table of its own (`JSONEventCallbacks`), as the record
/// streams are, that counts the calls of its table.
private final class DirectRecorder: EventHandler {
    let recorder = EventRecorder()
    /// Events that came through `callbacks` (a C function cannot capture a counter).
    nonisolated(unsafe) static var tableCalls = 0

    static let callbacks: JSONEventCallbacks? = JSONEventCallbacks(
        null: { DirectRecorder.tableCalls += 1; return JSONParser.null($0, to: DirectRecorder.self) },
        bool: { DirectRecorder.tableCalls += 1; return JSONParser.bool($0, $1, to: DirectRecorder.self) },
        number: { DirectRecorder.tableCalls += 1; return JSONParser.number($0, $1, $2, to: DirectRecorder.self) },
        string: { DirectRecorder.tableCalls += 1; return JSONParser.string($0, $1, $2, to: DirectRecorder.self) },
        startObject: { DirectRecorder.tableCalls += 1; return JSONParser.startObject($0, to: DirectRecorder.self) },
        key: { DirectRecorder.tableCalls += 1; return JSONParser.key($0, $1, $2, to: DirectRecorder.self) },
        endObject: { DirectRecorder.tableCalls += 1; return JSONParser.endObject($0, to: DirectRecorder.self) },
        startArray: { DirectRecorder.tableCalls += 1; return JSONParser.startArray($0, to: DirectRecorder.self) },
        endArray: { DirectRecorder.tableCalls += 1; return JSONParser.endArray($0, to: DirectRecorder.self) })

    /// Set to make `startObject` fail, as a handler's error.
    var refusesObjects = false

    func startObject() throws(SluiceError) {
        if refusesObjects { throw SluiceError(.data, "no objects here") }
        recorder.startObject()
    }
    func key(_ bytes: UnsafeRawBufferPointer) { recorder.key(bytes) }
    func endObject() { recorder.endObject() }
    func startArray() { recorder.startArray() }
    func endArray() { recorder.endArray() }
    func null() { recorder.null() }
    func bool(_ value: Bool) { recorder.bool(value) }
    func number(_ text: UnsafeRawBufferPointer) { recorder.number(text) }
    func string(_ bytes: UnsafeRawBufferPointer) { recorder.string(bytes) }
}

/// A handler with a table of its own hears exactly what one called through the protocol does:
/// the same events, the same errors at the same places. Serialized: the table's counter is
/// shared.
@Suite(.serialized) struct JSONEventCallbacksTests {
    /// The events and error of `text` parsed through `DirectRecorder`'s table, in chunks of
    /// `chunkSize`, and how many events came through the table.
    private func direct(_ text: [UInt8], chunkSize: Int = 1 << 20, options: JSONParser.Options = .init(),
                        refusesObjects: Bool = false) -> (events: [String], error: String?, tableCalls: Int) {
        let handler = DirectRecorder()
        handler.refusesObjects = refusesObjects
        DirectRecorder.tableCalls = 0
        let parser = JSONParser(sourceName: "in.json", handler: handler, options: options)
        var error: String?
        do {
            try parse(text, with: parser, chunkSize: chunkSize)
        } catch let failure as SluiceError {
            error = failure.description
        } catch {}
        return (handler.recorder.events, error, DirectRecorder.tableCalls)
    }

    /// The same through the protocol (`EventRecorder` has no table of its own).
    private func throughProtocol(_ text: [UInt8], chunkSize: Int = 1 << 20,
                                 options: JSONParser.Options = .init()) -> (events: [String], error: String?) {
        let recorder = EventRecorder()
        let parser = JSONParser(sourceName: "in.json", handler: recorder, options: options)
        do {
            try parse(text, with: parser, chunkSize: chunkSize)
        } catch let failure as SluiceError {
            return (recorder.events, failure.description)
        } catch {}
        return (recorder.events, nil)
    }

    @Test func everyEventComesThroughTheTypesOwnTable() {
        let text = Array(#"[{"id": 42, "name": "Caf\u00e9", "tags": [true, false, null], "x": 1.5e300}, []]"#.utf8)
        let outcome = direct(text)
        #expect(outcome.events == ["[", "{", "k:id", "n:42", "k:name", "s:Café", "k:tags", "[", "b:true", "b:false",
                                   "null", "]", "k:x", "n:1.5e300", "}", "[", "]", "]"])
        #expect(outcome.error == nil)
        #expect(outcome.tableCalls == outcome.events.count)
        #expect(RecordStream.callbacks != nil && FreeformStream.callbacks != nil)
        #expect(EventRecorder.callbacks == nil)
    }

    @Test(arguments: [
        #"{"a": [1, 2}"#,                       // a parse error
        #"["ab\u12"]"#,                         // a bad escape
        "[\"a\u{0B}\"]",                        // a vertical tab
        #"[{"a": "\uD800"}]"#,                  // invalid text, repaired and reported
        "[" + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1001),  // too deep
        #"["\#(String(repeating: "y", count: 200))"]"#,                                   // too large
    ])
    func errorsAreTheSameAsThroughTheProtocol(_ text: String) {
        let options = JSONParser.Options(maxValueBytes: 100)
        for chunkSize in [1 << 20, 3] {
            let direct = direct(Array(text.utf8), chunkSize: chunkSize, options: options)
            let expected = throughProtocol(Array(text.utf8), chunkSize: chunkSize, options: options)
            #expect(direct.events == expected.events, "\(text)")
            #expect(direct.error == expected.error, "\(text)")
            #expect(direct.error != nil, "\(text)")
        }
    }

    @Test func aHandlersErrorStopsTheParseUnchanged() {
        let outcome = direct(Array(#"[1, {"a": 2}, 3]"#.utf8), refusesObjects: true)
        #expect(outcome.events == ["[", "n:1"])
        #expect(outcome.error == "no objects here")
    }
}
