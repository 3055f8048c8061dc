internal import CYajl

/// The C functions yajl calls with a parse's events, for one type of handler.
///
/// yajl calls a C function per event, which calls the handler. Through the protocol that is a
/// call into each handler method as a function of its own, with its own entry and exit: for
/// a handler on the hot path, the record streams, a twentieth of W1's parse. A type can
/// instead give the parser a table of its own (`EventHandler.callbacks`), whose functions
/// name the type, so that its methods are inlined into them. A C function cannot be generic,
/// so such a table is written out once per type, each entry a call of the matching generic
/// `JSONParser` event with the type's name:
///
///     static let callbacks: JSONEventCallbacks? = JSONEventCallbacks(
///         null: { JSONParser.null($0, to: Self.self) }, ...)
///
/// Any other handler is called through the protocol (`ForwardingHandler`).
struct JSONEventCallbacks {
    typealias Event = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias Text = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32

    let table: yajl_callbacks

    init(null: Event, bool: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32,
         number: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> Int32,
         string: Text, startObject: Event, key: Text, endObject: Event, startArray: Event, endArray: Event) {
        // No integer or double callbacks: numbers come as their text (`yajl_number`).
        table = yajl_callbacks(yajl_null: null, yajl_boolean: bool, yajl_integer: nil, yajl_double: nil,
                               yajl_number: number, yajl_string: string, yajl_start_map: startObject,
                               yajl_map_key: key, yajl_end_map: endObject, yajl_start_array: startArray,
                               yajl_end_array: endArray)
    }
}

/// Calls a handler whose type has no callbacks of its own through the protocol.
final class ForwardingHandler: EventForwarding {
    let inner: any EventHandler

    init(_ handler: any EventHandler) {
        inner = handler
    }

    static let callbacks: JSONEventCallbacks? = JSONEventCallbacks(
        null: { JSONParser.null($0, to: ForwardingHandler.self) },
        bool: { JSONParser.bool($0, $1, to: ForwardingHandler.self) },
        number: { JSONParser.number($0, $1, $2, to: ForwardingHandler.self) },
        string: { JSONParser.string($0, $1, $2, to: ForwardingHandler.self) },
        startObject: { JSONParser.startObject($0, to: ForwardingHandler.self) },
        key: { JSONParser.key($0, $1, $2, to: ForwardingHandler.self) },
        endObject: { JSONParser.endObject($0, to: ForwardingHandler.self) },
        startArray: { JSONParser.startArray($0, to: ForwardingHandler.self) },
        endArray: { JSONParser.endArray($0, to: ForwardingHandler.self) })
}
