import CSQLiteBench
import SluiceFixtures

/// The storage floor: the same stop-time rows as the flat fixture, already in memory as
/// values, inserted with one prepared statement in one transaction with the fastest
/// pragmas (journal off, synchronous off). No JSON, no model, no find-or-create.
public enum PlainInsertLoop {
    public struct Row: Sendable {
        var tripID: String
        var arrival: String
        var departure: String
        var stopID: String
        var sequence: Int64
        var pickupType: Int64?
        var dropOffType: Int64?
        var distance: Double
    }

    /// The rows of the flat fixture at `scale`.
    public static func rows(scale: Double) -> [Row] {
        let fixture = TransitFixture(scale: scale)
        var rows: [Row] = []
        rows.reserveCapacity(fixture.stopTimeCount)
        fixture.forEachStopTime { row in
            rows.append(Row(
                tripID: fixture.tripID(row.trip), arrival: StopTimeRow.timeText(row.arrival),
                departure: StopTimeRow.timeText(row.departure), stopID: fixture.stopID(row.stop),
                sequence: Int64(row.sequence), pickupType: row.pickupType.map(Int64.init),
                dropOffType: row.dropOffType.map(Int64.init), distance: row.distance))
        }
        return rows
    }

    /// Creates `path` (which must not exist) and inserts `rows` into `stop_times`, with the
    /// same columns as `LargeFixtures/models/flat.json` makes.
    public static func insert(_ rows: [Row], into path: String) {
        var connection: OpaquePointer?
        check(sqlite3_open(path, &connection), connection)
        defer { sqlite3_close(connection) }
        exec(connection, """
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
            CREATE TABLE stop_times ("pk" INTEGER PRIMARY KEY, "trip_id" TEXT, "arrival_time" TEXT,
              "departure_time" TEXT, "stop_id" TEXT, "stop_sequence" INTEGER, "pickup_type" INTEGER,
              "drop_off_type" INTEGER, "shape_dist_traveled" REAL);
            BEGIN;
            """)
        var statement: OpaquePointer?
        check(sqlite3_prepare_v3(connection, "INSERT INTO stop_times VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)", -1,
                                 UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), connection)
        defer { sqlite3_finalize(statement) }
        for row in rows {
            row.tripID.withCString { trip in
                row.arrival.withCString { arrival in
                    row.departure.withCString { departure in
                        row.stopID.withCString { stop in
                            sqlite3_bind_text(statement, 1, trip, -1, sluice_bench_sqlite_static())
                            sqlite3_bind_text(statement, 2, arrival, -1, sluice_bench_sqlite_static())
                            sqlite3_bind_text(statement, 3, departure, -1, sluice_bench_sqlite_static())
                            sqlite3_bind_text(statement, 4, stop, -1, sluice_bench_sqlite_static())
                            sqlite3_bind_int64(statement, 5, row.sequence)
                            if let value = row.pickupType { sqlite3_bind_int64(statement, 6, value) } else { sqlite3_bind_null(statement, 6) }
                            if let value = row.dropOffType { sqlite3_bind_int64(statement, 7, value) } else { sqlite3_bind_null(statement, 7) }
                            sqlite3_bind_double(statement, 8, row.distance)
                            let status = sqlite3_step(statement)
                            precondition(status == SQLITE_DONE, "insert failed: \(status)")
                            sqlite3_reset(statement)
                        }
                    }
                }
            }
        }
        exec(connection, "COMMIT")
    }

    private static func exec(_ connection: OpaquePointer?, _ sql: String) {
        check(sqlite3_exec(connection, sql, nil, nil, nil), connection)
    }

    private static func check(_ status: Int32, _ connection: OpaquePointer?) {
        precondition(status == SQLITE_OK, "SQLite: \(String(cString: sqlite3_errmsg(connection)))")
    }
}
