import CSQLite
import Foundation
@testable import Sluice
import Testing

/// The Store layer's suites, nested here so `swift test --filter Store` selects them.
@Suite enum StoreTests {}

extension Connection {
    /// The single integer of a query, for assertions.
    func integer(_ sql: String) throws -> Int64? {
        try scalar(sql)?.integerValue
    }

    /// Calls `record` with the SQL of every statement as it starts to run (sqlite3_trace_v2),
    /// for tests that check what ran, such as one lookup per batch rather than per record.
    /// SQLite holds the closure until the connection closes (`SQLITE_TRACE_CLOSE` lets it go).
    /// `expanded`: with the values bound to its parameters written in (`sqlite3_expanded_sql`).
    func trace(expanded: Bool = false, _ record: @escaping (String) -> Void) {
        let context = Unmanaged.passRetained(TraceBox(record, expanded: expanded)).toOpaque()
        let events = UInt32(SQLITE_TRACE_STMT) | UInt32(SQLITE_TRACE_CLOSE)
        sqlite3_trace_v2(handle, events, { event, context, statement, _ in
            guard let context else { return 0 }
            let box = Unmanaged<TraceBox>.fromOpaque(context)
            if event == UInt32(SQLITE_TRACE_CLOSE) {
                sqlite3_trace_v2(OpaquePointer(statement), 0, nil, nil)  // the connection, for this event
                box.release()
            } else if let statement, box.takeUnretainedValue().expanded {
                guard let sql = sqlite3_expanded_sql(OpaquePointer(statement)) else { return 0 }
                box.takeUnretainedValue().record(String(cString: sql))
                sqlite3_free(sql)
            } else if let statement, let sql = sqlite3_sql(OpaquePointer(statement)) {
                box.takeUnretainedValue().record(String(cString: sql))
            }
            return 0
        }, context)
    }

    /// The bytes of the pages the connection keeps cached, in all its databases.
    var cachedBytes: Int {
        var current: Int32 = 0
        var highwater: Int32 = 0
        _ = sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highwater, 0)
        return Int(current)
    }

    /// How many prepared statements the connection holds (not yet finalized).
    var preparedStatements: Int {
        var count = 0
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(handle, current)
        }
        return count
    }
}

/// The closure `Connection.trace` installed, alive while SQLite holds a pointer to it.
private final class TraceBox {
    let record: (String) -> Void
    let expanded: Bool
    init(_ record: @escaping (String) -> Void, expanded: Bool) {
        self.record = record
        self.expanded = expanded
    }
}
