import CYajl
import Testing

/// Pins the one read of yajl's private memory: `sluice_yajl_offset_in_chunk`
/// (`Vendor/CYajl/include/sluice_yajl.h`) takes the offset of the current token from a field of yajl's
/// handle that yajl does not publish (`bytesConsumed`, the fifth pointer-sized field in the
/// 2.x layout). Every position Sluice reports, and the size limit of a token, rest on it.
///
/// yajl is driven here directly, with the shim's read taken inside each callback and compared
/// with the byte offset just past the token in a known input, whole and split at every byte.
/// A yajl whose handle is laid out otherwise fails here, by name, before any position is wrong.
@Suite struct YajlLayoutTests {
    /// The input, as pieces: a token with the event it makes, or what lies between tokens.
    private static let pieces: [(text: String, event: String?)] = [
        ("{", "{"), ("\"id\"", "key"), (": ", nil), ("42", "number"), (", ", nil),
        ("\"name\"", "key"), (":", nil), ("\"Caf\\u00e9 \\\"A\\\"\"", "string"), (",\n  ", nil),
        ("\"tags\"", "key"), (": ", nil), ("[", "["), ("true", "bool"), (", ", nil), ("false", "bool"), (",", nil),
        ("null", "null"), ("]", "]"), (", ", nil), ("\"n\"", "key"), (" : ", nil), ("-1.5e3", "number"),
        ("", nil), ("}", "}"),
    ]

    private static var input: [UInt8] { Array(pieces.map(\.text).joined().utf8) }

    /// Each event with the offset just past its token in the input.
    private static var expected: [String] {
        var end = 0
        var events: [String] = []
        for piece in pieces {
            end += piece.text.utf8.count
            if let event = piece.event { events.append("\(event)@\(end)") }
        }
        return events
    }

    @Test func theShimReadsTheOffsetPastEachTokenInsideCallbacks() throws {
        let events = try OffsetRecorder.events(of: Self.input, splitAt: nil)
        #expect(events == Self.expected, """
            sluice_yajl_offset_in_chunk (Vendor/CYajl/include/sluice_yajl.h) does not read the offset past each token: \
            this yajl's handle is not laid out as yajl 2.x's (callbacks, ctx, lexer, parseError, \
            bytesConsumed), and every position Sluice reports would be wrong
            """)
    }

    @Test func theOffsetIsInTheChunkWhereTheTokenEndsWhereverTheInputIsSplit() throws {
        var wrong: [Int] = []
        for split in 0...Self.input.count where try OffsetRecorder.events(of: Self.input, splitAt: split) != Self.expected {
            wrong.append(split)
        }
        #expect(wrong.isEmpty, """
            split at \(wrong): sluice_yajl_offset_in_chunk (Vendor/CYajl/include/sluice_yajl.h) does not read the \
            offset past each token within the chunk it ends in: this yajl's handle is not laid out as \
            yajl 2.x's, and positions across chunks would be wrong
            """)
    }
}

/// Drives yajl with callbacks that record, per event, the chunk's start plus the shim's offset.
private final class OffsetRecorder {
    var handle: yajl_handle?
    var chunkStart = 0
    var events: [String] = []

    /// The events of `input`, fed whole or in two chunks split at `splitAt`, each with the
    /// absolute offset the shim gives inside its callback.
    static func events(of input: [UInt8], splitAt split: Int?) throws -> [String] {
        let recorder = OffsetRecorder()
        var callbacks = Self.callbacks
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        let handle = try #require(yajl_alloc(&callbacks, nil, context))
        defer { yajl_free(handle) }
        recorder.handle = handle
        let chunks = split.map { [Array(input[..<$0]), Array(input[$0...])] } ?? [input]
        for chunk in chunks {
            let status = chunk.withUnsafeBufferPointer { yajl_parse(handle, $0.baseAddress, $0.count) }
            try #require(status == yajl_status_ok)
            recorder.chunkStart += chunk.count
        }
        try #require(yajl_complete_parse(handle) == yajl_status_ok)
        return recorder.events
    }

    private static func record(_ context: UnsafeMutableRawPointer?, _ event: String) -> Int32 {
        let recorder = Unmanaged<OffsetRecorder>.fromOpaque(context!).takeUnretainedValue()
        let offset = Int(sluice_yajl_offset_in_chunk(recorder.handle!))
        recorder.events.append("\(event)@\(recorder.chunkStart + offset)")
        return 1
    }

    private static let callbacks = yajl_callbacks(
        yajl_null: { record($0, "null") },
        yajl_boolean: { context, _ in record(context, "bool") },
        yajl_integer: nil,
        yajl_double: nil,
        yajl_number: { context, _, _ in record(context, "number") },
        yajl_string: { context, _, _ in record(context, "string") },
        yajl_start_map: { record($0, "{") },
        yajl_map_key: { context, _, _ in record(context, "key") },
        yajl_end_map: { record($0, "}") },
        yajl_start_array: { record($0, "[") },
        yajl_end_array: { record($0, "]") }
    )
}
