internal import CSQLite

extension Connection {
    /// Calls `record` with the SQL of every statement as it starts to run (sqlite3_trace_v2),
    /// or stops tracing when `record` is nil. For tests that check what ran, such as one
    /// lookup per batch rather than per record.
    func trace(_ record: ((String) -> Void)?) {
        traceBox = record.map(TraceBox.init)
        guard let box = traceBox else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        let context = Unmanaged.passUnretained(box).toOpaque()
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue().record(String(cString: sql))
            return 0
        }, context)
    }
}

/// Keeps the trace closure alive while SQLite holds a pointer to it.
final class TraceBox {
    let record: (String) -> Void
    init(_ record: @escaping (String) -> Void) { self.record = record }
}
