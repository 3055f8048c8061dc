internal import CLibPQ

/// One libpq connection: the only owner of its `PGconn*`, closed (`PQfinish`) in `deinit` or
/// earlier by `close()`. Synchronous calls only: the batch writer is a thread of its own, and
/// a blocking `PQexecParams` or `PQputCopyData` is the simplest fit for it.
///
/// Errors become `SluiceError` here: the server's message, one line, never the password
/// (`PostgresURI.displayName` leaves it out of the name, and every message of libpq or the
/// server passes through `PostgresURI.masked`: libpq echoes a URI it cannot parse, and a
/// password it cannot percent-decode). A lost connection is `.io` (exit 74), anything else the server refuses is
/// `.cannotCreate` (73) or, for data it cannot store, `.data` (65).
///
/// Not `Sendable`: used by one thread at a time, like an SQLite `Connection`.
final class PostgresConnection {
    /// How messages name the database: the URI without its password.
    let displayName: String
    /// The URI as given, for masking it and its password out of messages.
    private let uri: String
    private let pq: LibPQ
    private var connection: OpaquePointer?
    /// Where the server says the last failed statement failed (its CONTEXT: `COPY t, line
    /// 3, column c: "x"`), if it said.
    private(set) var lastErrorContext: String?
    /// The `COPY` sent without waiting whose results are still to be read, and what names
    /// the record of a row it refuses.
    private var unsettledCopy: (sql: String, refusal: Refusal?)?

    /// Turns the server's refusal of a `COPY`'s row into an error naming that row's record,
    /// given the server's CONTEXT (`rowOfCopy(in:table:)`).
    typealias Refusal = (SluiceError, _ context: String?) -> SluiceError

    /// Connects; libpq reads the `PG*` environment variables and `~/.pgpass` for what `uri`
    /// leaves out. Throws `.cannotConnect` with libpq's reason.
    init(uri: String, displayName: String) throws(SluiceError) {
        self.displayName = displayName
        self.uri = uri
        pq = try LibPQ.shared.get()
        let handle = pq.connectdb(uri)
        guard let handle, pq.status(handle) == CONNECTION_OK else {
            let reason = handle.map { PostgresURI.masked(Self.oneLine(String(cString: pq.errorMessage($0)!)), uri: uri) }
                ?? "out of memory"
            pq.finish(handle)
            throw SluiceError(.cannotConnect, "cannot connect to database '\(displayName)': \(reason)")
        }
        connection = handle
        // Notices (an identifier truncated to 63 bytes, "relation already exists, skipping")
        // would go to stderr: the CLI prints errors only.
        _ = pq.setNoticeProcessor(handle, { _, _ in }, nil)  // the previous processor: libpq's default
    }

    deinit {
        close()
    }

    /// Closes the connection; the server rolls back a transaction still open.
    func close() {
        guard let connection else { return }
        pq.finish(connection)
        self.connection = nil
    }

    var isClosed: Bool { connection == nil }

    /// Watches `shouldStop` and cancels the running statement once it is true
    /// (`PostgresCancelWatcher`); the caller stops it before closing the connection.
    func cancelWatcher(_ shouldStop: @escaping () -> Bool) -> PostgresCancelWatcher? {
        PostgresCancelWatcher(pq: pq, connection: handle, shouldStop: shouldStop)
    }

    private var handle: OpaquePointer {
        guard let connection else { preconditionFailure("PostgreSQL connection used after close()") }  // our bug
        return connection
    }

    /// Runs one or more `;`-separated statements without parameters; returns the last result.
    @discardableResult
    func execute(_ sql: String) throws(SluiceError) -> PostgresResult {
        try settle()
        return try check(pq.exec(handle, sql), sql: sql)
    }

    /// Runs one statement with `$1`… parameters in text form (nil: NULL); results in text form.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?]) throws(SluiceError) -> PostgresResult {
        guard !parameters.isEmpty else { return try execute(sql) }
        try settle()
        // The parameters' bytes, each NUL-terminated, in one buffer that outlives the call.
        var buffer: [CChar] = []
        var offsets: [Int?] = []
        for parameter in parameters {
            guard let parameter else { offsets.append(nil); continue }
            offsets.append(buffer.count)
            buffer.append(contentsOf: parameter.utf8.map { CChar(bitPattern: $0) })
            buffer.append(0)
        }
        let result = buffer.withUnsafeBufferPointer { bytes in
            let values: [UnsafePointer<CChar>?] = offsets.map { $0.map { bytes.baseAddress! + $0 } }
            return values.withUnsafeBufferPointer { values in
                pq.execParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        return try check(result, sql: sql)
    }

    /// Runs `COPY … FROM STDIN` with `data` as its rows (in the format `sql` names). Without
    /// `waiting`, it returns once the rows are sent, while the server may still be writing the
    /// last of them: the writer thread can prepare its next batch meanwhile. Its outcome is
    /// then read before the connection's next statement, which throws the COPY's error if
    /// it failed (`settle()`). A row the server refuses (a value, a constraint) becomes the
    /// error `refusal` makes of it, whichever statement finds it.
    func copy(_ sql: String, _ data: [UInt8], waiting: Bool = true, refusal: Refusal? = nil) throws(SluiceError) {
        try data.withRawBytes { bytes throws(SluiceError) in try copy(sql, bytes, waiting: waiting, refusal: refusal) }
    }

    /// `copy(_:_:waiting:refusal:)` of bytes held elsewhere (`CopyBinary`'s).
    func copy(_ sql: String, _ data: UnsafeRawBufferPointer, waiting: Bool = true, refusal: Refusal? = nil)
        throws(SluiceError)
    {
        try settle()
        let start = PostgresResult(pq.exec(handle, sql), pq)
        guard start.status == PGRES_COPY_IN else {
            throw error(start, sql: sql)
        }
        var sent = 0
        // At most 1 MiB a call, so libpq's own send buffer stays small.
        while sent < data.count, let base = data.baseAddress {
            let count = min(1 << 20, data.count - sent)
            let ok = pq.putCopyData(handle, base.assumingMemoryBound(to: CChar.self) + sent, Int32(count))
            guard ok == 1 else { break }
            sent += count
        }
        let ended = pq.putCopyEnd(handle, sent == data.count ? nil : "sluice: could not send the rows")
        if !waiting, ended == 1, sent == data.count {
            unsettledCopy = (sql, refusal)
            return
        }
        try readCopyResults(sql, refusal: refusal)
        if ended != 1 || sent != data.count { throw lostConnection() }
    }

    /// Reads the outcome of a `COPY` sent without waiting, if one is out.
    func settle() throws(SluiceError) {
        guard let (sql, refusal) = unsettledCopy else { return }
        unsettledCopy = nil
        try readCopyResults(sql, refusal: refusal)
    }

    private func readCopyResults(_ sql: String, refusal: Refusal?) throws(SluiceError) {
        var failure: SluiceError?
        // Every result of the COPY must be read before the connection takes another command.
        while let next = pq.getResult(handle) {
            let result = PostgresResult(next, pq)
            if failure == nil, result.status != PGRES_COMMAND_OK { failure = error(result, sql: sql) }
        }
        guard var failure else { return }
        // Not a lost connection or an interruption: those are no row's doing.
        if let refusal, failure.kind == .data || failure.kind == .cannotCreate { failure = refusal(failure, lastErrorContext) }
        throw failure
    }

    /// The row of a `COPY` into `table` the server names in its CONTEXT (`COPY t, line 3,
    /// column c: …`, perhaps below the lines of a trigger's function), from 0.
    static func rowOfCopy(in context: String?, table: String) -> Int? {
        guard let context else { return nil }
        let prefix = "COPY \(table), line "
        for line in context.split(whereSeparator: { $0 == "\n" }) where line.hasPrefix(prefix) {
            guard let number = Int(line.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }), number >= 1 else { return nil }
            return number - 1
        }
        return nil
    }

    private func check(_ handle: OpaquePointer?, sql: String) throws(SluiceError) -> PostgresResult {
        let result = PostgresResult(handle, pq)
        switch result.status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return result
        default: throw error(result, sql: sql)
        }
    }

    /// The failure of a statement: lost connection (`.io`), data the server refuses (`.data`:
    /// classes 22 and 23 of SQLSTATE), anything else `.cannotCreate`.
    private func error(_ result: PostgresResult, sql: String) -> SluiceError {
        if connection == nil || pq.status(handle) != CONNECTION_OK { return lostConnection() }
        let state = result.field(UInt8(ascii: "C")) ?? ""
        let message = result.field(UInt8(ascii: "M")) ?? Self.oneLine(String(cString: pq.errorMessage(handle)!))
        let detail = result.field(UInt8(ascii: "D")).map { " (\($0))" } ?? ""
        lastErrorContext = result.field(UInt8(ascii: "W"))
        let subject = "cannot write database '\(displayName)': \(PostgresURI.masked(Self.oneLine(message + detail), uri: uri))"
        switch state.prefix(2) {
        case "22", "23": return SluiceError(.data, subject)
        case "08", "53", "58": return SluiceError(.io, subject)
        case "57" where state == "57014": return .interrupted(database: displayName)
        case "42" where state != "42P01": return SluiceError(.cannotCreate, subject + " (in: \(Self.oneLine(sql)))")
        default: return SluiceError(.cannotCreate, subject)
        }
    }

    private func lostConnection() -> SluiceError {
        let reason = connection.map { PostgresURI.masked(Self.oneLine(String(cString: pq.errorMessage($0)!)), uri: uri) } ?? ""
        return SluiceError(.io, "lost the connection to database '\(displayName)'" + (reason.isEmpty ? "" : ": \(reason)"))
    }

    /// libpq's messages end in a newline and may continue on indented lines: one line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingPrefix(while: { $0 == " " || $0 == "\t" }) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

/// One `PGresult*`, cleared in `deinit`. Values are read as text.
final class PostgresResult {
    private let handle: OpaquePointer?
    private let pq: LibPQ

    init(_ handle: OpaquePointer?, _ pq: LibPQ) {
        self.handle = handle
        self.pq = pq
    }

    deinit {
        pq.clear(handle)
    }

    var status: ExecStatusType { handle.map { pq.resultStatus($0) } ?? PGRES_FATAL_ERROR }
    var rowCount: Int { handle.map { Int(pq.ntuples($0)) } ?? 0 }
    var columnCount: Int { handle.map { Int(pq.nfields($0)) } ?? 0 }
    /// Rows an INSERT, UPDATE or DELETE changed.
    var changes: Int { handle.flatMap { pq.cmdTuples($0).flatMap { Int(String(cString: $0)) } } ?? 0 }

    /// The type of column `column` (a `pg_type` oid).
    func type(_ column: Int) -> UInt32 { UInt32(pq.ftype(handle, Int32(column))) }

    func isNull(_ row: Int, _ column: Int) -> Bool { pq.getisnull(handle, Int32(row), Int32(column)) == 1 }

    /// The value's text bytes, valid while the result lives.
    func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let start = UnsafeRawPointer(pq.getvalue(handle, Int32(row), Int32(column)))
        return UnsafeRawBufferPointer(start: start, count: Int(pq.getlength(handle, Int32(row), Int32(column))))
    }

    func text(_ row: Int, _ column: Int) -> String {
        String(decoding: bytes(row, column), as: UTF8.self)
    }

    /// A field of the error (`PQresultErrorField`): C for SQLSTATE, M for the message, D for detail.
    func field(_ code: UInt8) -> String? {
        guard let handle, let value = pq.resultErrorField(handle, Int32(code)) else { return nil }
        return String(cString: value)
    }
}
