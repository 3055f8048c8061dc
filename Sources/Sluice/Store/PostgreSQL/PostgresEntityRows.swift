/// The rows of one entity's table in PostgreSQL, set-based, a few round trips per batch
/// whatever its size (`docs/postgresql.md`):
///
/// * find: the rows that follow the last batch's in key order are read first, one query
///   (`RowsInKeyOrder`: a re-import or an update meets its rows in the order they were
///   inserted); the identities still not found are `COPY`ed into a temporary table and joined
///   to the table on its identity index, one query;
/// * insert: the pks come from the table's own sequence (one `nextval` query for the batch),
///   then the rows are streamed with one `COPY`;
/// * update: one `UPDATE … FROM unnest(…)` per set of changed columns sets exactly those
///   columns, the pks and values sent as one array per column.
///
/// A row the server refuses (a constraint, a value out of range) is named by its record: the
/// `COPY`'s line the server gives is that row of the batch; an `UPDATE` names no row, so its
/// refusal names the first record it updates, as the batch from there on.
final class PostgresEntityRows: EntityRowStore {
    private typealias Place = (input: Int, position: InputPosition)
    private let connection: PostgresConnection
    /// The entity whose rows these are, for messages.
    private let entity: String
    private let table: String
    private let key: String
    private let columns: [String]
    private let defaults: [ColumnValue?]
    private let identity: [Int]
    /// Whether each column is jsonb, whose stored text is normalised by the server.
    private let isJSON: [Bool]
    /// The columns' PostgreSQL types.
    private let columnTypes: [String]
    /// The temporary table of this entity's lookups by identity, and its unquoted name; made
    /// by the first lookup (most entities of a new database never make one).
    private let keys: String
    private let keysName: String
    private var keysColumns: String?
    /// The records of the last rows inserted, in order: the `COPY` is read after the batch
    /// may be gone (`PostgresConnection.settle()`).
    private var insertedPlaces: [Place] = []
    private var sequence: String?
    /// Whether the sequence counts by 1, so a batch's pks can be taken as one range.
    private var countsByOne = false
    /// Reused per batch.
    private var copy = CopyText()
    /// The columns' binary forms (the pk's first), when every column has one (`CopyBinary`).
    private let binaryTypes: [CopyBinary.ColumnType]?
    private var binary = CopyBinary()
    /// Per row of `binary`, where its pk goes once taken.
    private var pkOffsets: [Int] = []
    /// `defaults` as cells, their bytes in `defaultArena`.
    private let defaultCells: [Cell?]
    private let defaultArena: [UInt8]

    let startedEmpty: Bool

    /// `key`: the table's key column (`TableKeys`); `startedEmpty`: the import created the table.
    init(entity: String, table: String, key: String, columns: [TableDefinition.ColumnDefinition], defaults: [ColumnValue?],
         identity: [Int], number: Int, startedEmpty: Bool, connection: PostgresConnection) {
        self.startedEmpty = startedEmpty
        self.connection = connection
        self.entity = entity
        self.table = table
        self.key = key
        self.columns = columns.map(\.name)
        self.defaults = defaults
        self.identity = identity
        isJSON = columns.map { $0.attributeType == .json }
        columnTypes = columns.map { PostgresSchema.type(of: $0) }
        let types = columnTypes.map { CopyBinary.ColumnType(postgresType: $0) }
        binaryTypes = types.contains(nil) ? nil : [.bigint] + types.map { $0! }
        var arena: [UInt8] = []
        defaultCells = defaults.map { $0.map { Cell($0, in: &arena) } }
        defaultArena = arena
        keysName = "sluice_keys_\(number)"
        keys = quoteIdentifier(keysName)
        var keyColumns = ["\"n\" integer"]
        for (offset, column) in identity.enumerated() {
            keyColumns.append("\"k\(offset)\" \(columnTypes[column])")
        }
        keysColumns = keyColumns.joined(separator: ", ")
    }

    func find(_ records: [Int], of rows: CellRows, into existing: inout ExistingRows) throws(SluiceError) {
        guard !records.isEmpty else { return }
        copy.removeAll()
        for record in records {
            copy.append(Int64(record))
            for column in identity { copy.append(rows[record, column], in: rows.arena) }
            copy.endRow()
        }
        // Made or emptied in the COPY's round trip (a simple query may hold both; the COPY comes last).
        var prepare = "TRUNCATE \(keys)"
        if let keysColumns {
            prepare = "CREATE TEMP TABLE \(keys) (\(keysColumns))"
            self.keysColumns = nil
        }
        try connection.copy("\(prepare); COPY \(keys) FROM STDIN", copy.bytes) { [keysName] error, context in
            self.refused(error, row: PostgresConnection.rowOfCopy(in: context, table: keysName)) {
                records.indices.contains($0) ? rows.place(of: records[$0]) : nil
            }
        }
        let selected = ([key] + columns).map { "t.\(quoteIdentifier($0))" }.joined(separator: ", ")
        let match = identity.enumerated().map { "t.\(quoteIdentifier(columns[$1])) = k.\"k\($0)\"" }.joined(separator: " AND ")
        let result = try connection.execute("SELECT k.\"n\", \(selected) FROM \(keys) AS k JOIN \(quoteIdentifier(table)) AS t ON \(match)")
        for row in 0..<result.rowCount {
            let found = PostgresFoundRow(result: result, row: row, isJSON: isJSON)
            guard let record = Int(result.text(row, 0)), let pk = Int64(result.text(row, 1)) else { continue }
            existing.add(found, for: record, pk: pk, of: rows)
        }
    }

    /// One query on the primary key's index: no temporary table to empty and fill, as `find`'s
    /// three statements need. The columns no record of the batch sets are read as NULL. It
    /// reads an eighth more rows than asked: where rows were withdrawn since (an update), the
    /// batch's last records lie beyond `limit` rows, and each left over costs `find`'s three
    /// statements; rows read and not matched stay for the next batch (it starts after the
    /// largest row found).
    func findFollowing(_ key: Int64?, limit: Int, reading: ColumnSet, of rows: CellRows,
                       matching matcher: inout IdentityMatcher, into existing: inout ExistingRows) throws(SluiceError) -> Int? {
        let selected = columns.indices.map { reading.contains($0) ? quoteIdentifier(columns[$0]) : "NULL" }
        let quotedKey = quoteIdentifier(self.key)
        let result = try connection.query("SELECT NULL, \(quotedKey), \(selected.joined(separator: ", ")) FROM \(quoteIdentifier(table)) "
            + "WHERE \(quotedKey) > $1 ORDER BY \(quotedKey) LIMIT $2", [String(key ?? .min), String(limit + limit / 8)])
        for row in 0..<result.rowCount {
            let found = PostgresFoundRow(result: result, row: row, isJSON: isJSON, reading: reading)
            guard let pk = Int64(result.text(row, 1)), let record = matcher.record(matching: found, in: rows) else { continue }
            existing.add(found, for: record, pk: pk, of: rows, same: matcher.identityColumns)
        }
        return result.rowCount
    }

    func insert(_ records: [Int], of rows: CellRows, pks: inout [Int64]) throws(SluiceError) {
        guard !records.isEmpty else { return }
        insertedPlaces.removeAll(keepingCapacity: true)
        if !rows.positions.isEmpty {
            for record in records { insertedPlaces.append((rows.inputs[record], rows.positions[record])) }
        }
        let refusal: PostgresConnection.Refusal = { [weak self, table] error, context in
            guard let self else { return error }
            let places = insertedPlaces
            return refused(error, row: PostgresConnection.rowOfCopy(in: context, table: table)) {
                places.indices.contains($0) ? places[$0] : nil
            }
        }
        let names = ([key] + columns).map(quoteIdentifier).joined(separator: ", ")
        // Rows in binary form are encoded before their pks are taken: taking them waits for the
        // previous batch's COPY to end, and the server would sit idle while this one is encoded.
        if let binaryTypes, Self.encodeBinary(records, of: rows, types: binaryTypes, defaults: defaultCells,
                                              defaultArena: defaultArena, into: &binary, pkOffsets: &pkOffsets) {
            try takePKs(for: records, into: &pks)
            binary.set(records.map { pks[$0] }, at: pkOffsets)
            try connection.copy("COPY \(quoteIdentifier(table)) (\(names)) FROM STDIN (FORMAT binary)", binary.bytes,
                                waiting: false, refusal: refusal)
            return
        }
        try takePKs(for: records, into: &pks)
        copy.removeAll()
        for record in records {
            copy.append(pks[record])
            for column in 0..<rows.width {
                let cell = rows[record, column]
                if cell.isMissing, let value = defaults[column] { copy.append(value) } else { copy.append(cell, in: rows.arena) }
            }
            copy.endRow()
        }
        try connection.copy("COPY \(quoteIdentifier(table)) (\(names)) FROM STDIN", copy.bytes, waiting: false, refusal: refusal)
    }

    /// `error` as the refusal of a row: the record of row `row` (of the statement's rows,
    /// `place` naming each), or, when the server named none, the statement's first record as
    /// the batch from there on (only for data it refused: a schema or permission refusal is no
    /// record's).
    private func refused(_ error: SluiceError, row: Int?, place: (Int) -> Place?) -> SluiceError {
        if let row, let record = place(row) {
            return error.refusal(of: entity, at: record)
        } else if error.kind == .data, let first = place(0) {
            return error.refusal(of: entity, at: first, fromHereOn: true)
        }
        return error
    }

    /// The rows in binary form into `binary`, each pk's place into `pkOffsets`; false when a
    /// cell does not fit its column's. Static, its buffers `inout`: appending to a class's
    /// property would check exclusive access at run time for every field.
    private static func encodeBinary(_ records: [Int], of rows: CellRows, types: [CopyBinary.ColumnType],
                                     defaults: [Cell?], defaultArena: [UInt8],
                                     into binary: inout CopyBinary, pkOffsets: inout [Int]) -> Bool {
        binary.removeAll()
        pkOffsets.removeAll(keepingCapacity: true)
        return defaultArena.withUnsafeBytes { defaultBytes in
            for record in records {
                binary.beginRow(fields: types.count)
                pkOffsets.append(binary.appendPlaceholder())
                for column in 0..<rows.width {
                    var cell = rows[record, column]
                    var arena = rows.arena
                    if cell.isMissing, let value = defaults[column] {
                        cell = value
                        arena = defaultBytes
                    }
                    guard binary.append(cell, as: types[column + 1], in: arena) else { return false }
                }
            }
            binary.finish()
            return true
        }
    }

    /// Gives each of `records` a new pk from the table's sequence: one range taken with one
    /// `setval` when the sequence counts by 1 (other sessions cannot insert meanwhile: the
    /// import holds the table's lock), else one `nextval` per row.
    private func takePKs(for records: [Int], into pks: inout [Int64]) throws(SluiceError) {
        let sequence = try sequenceName()
        if countsByOne {
            let last = try connection.query("SELECT setval($1::regclass, nextval($1::regclass) + $2::bigint - 1)",
                                            [sequence, String(records.count)])
            guard let end = Int64(last.text(0, 0)) else { throw unreadableSequence() }
            for (offset, record) in records.enumerated() { pks[record] = end - Int64(records.count - 1 - offset) }
            return
        }
        let numbers = try connection.query("SELECT nextval($1::regclass) FROM generate_series(1, $2)", [sequence, String(records.count)])
        for (offset, record) in records.enumerated() {
            guard let pk = Int64(numbers.text(offset, 0)) else { throw unreadableSequence() }
            pks[record] = pk
        }
    }

    private func unreadableSequence() -> SluiceError {
        SluiceError(.cannotCreate, "cannot write database '\(connection.displayName)': the sequence of table "
            + "\(quoteIdentifier(table)) gave no number")
    }

    /// One `UPDATE … FROM unnest(…)` per set of changed columns: the pks and the new values
    /// go as one array parameter per column, no table to fill first (a temporary table,
    /// emptied and filled per batch, cost the server 3.6 s of W3's update's 6.7 s: its
    /// `TRUNCATE` makes the `COPY` and the `UPDATE` after it load the table's definition and
    /// plan again). The server names no row of an `UPDATE`: a refusal names the set's first
    /// record, as the batch from there on.
    func update(_ changes: [RowChange], of rows: CellRows) throws(SluiceError) {
        guard !changes.isEmpty else { return }
        var groups: [ColumnSet: Int] = [:]
        /// Per set of changed columns, in the order first met: its changes.
        var members: [[Int]] = []
        for (index, change) in changes.enumerated() {
            let group = groups[change.columns] ?? members.count
            if group == members.count { members.append([]) }
            groups[change.columns] = group
            members[group].append(index)
        }
        let sets = groups.sorted { $0.value < $1.value }.map(\.key)
        for (set, indices) in zip(sets, members) {
            let changed = set.members
            var pks = ArrayText()
            var values = Array(repeating: ArrayText(), count: changed.count)
            for index in indices {
                pks.append(changes[index].pk)
                for (offset, column) in changed.enumerated() { values[offset].append(rows[changes[index].row, column], in: rows.arena) }
            }
            let assignments = changed.enumerated().map { "\(quoteIdentifier(columns[$1])) = s.\"c\($0)\"" }
            let arrays = ["$1::bigint[]"] + changed.enumerated().map { "$\($0 + 2)::\(columnTypes[$1])[]" }
            let names = ["\"pk\""] + changed.indices.map { "\"c\($0)\"" }
            do {
                try connection.query("UPDATE \(quoteIdentifier(table)) AS t SET \(assignments.joined(separator: ", ")) "
                    + "FROM unnest(\(arrays.joined(separator: ", "))) AS s(\(names.joined(separator: ", "))) "
                    + "WHERE t.\(quoteIdentifier(key)) = s.\"pk\"", [pks.text] + values.map(\.text))
            } catch {
                throw refused(error, row: nil) { _ in rows.place(of: changes[indices[0]].row) }
            }
        }
    }

    /// The sequence that numbers the table's pks (its identity column's).
    private func sequenceName() throws(SluiceError) -> String {
        if let sequence { return sequence }
        let result = try connection.query("SELECT pg_get_serial_sequence($1, $2)", [quoteIdentifier(table), key])
        guard result.rowCount == 1, !result.isNull(0, 0) else {
            throw SluiceError(.cannotCreate, "cannot write database '\(connection.displayName)': table "
                + "\(quoteIdentifier(table)) has no sequence for \(quoteIdentifier(key)) (make it GENERATED BY DEFAULT AS IDENTITY)")
        }
        sequence = result.text(0, 0)
        countsByOne = try connection.query("SELECT seqincrement = 1 FROM pg_sequence WHERE seqrelid = $1::regclass",
                                           [sequence!]).text(0, 0) == "t"
        return sequence!
    }
}

/// A row `PostgresEntityRows.find` found: the row's number, its pk, then its columns.
struct PostgresFoundRow: FoundRow {
    let result: PostgresResult
    let row: Int
    let isJSON: [Bool]
    /// The columns read (`findFollowing`); nil: all.
    var reading: ColumnSet? = nil

    func reads(_ column: Int) -> Bool { reading?.contains(column) ?? true }

    func column(_ column: Int, holds cell: Cell, in arena: UnsafeRawBufferPointer) -> Bool {
        let stored = PostgresValues.value(result, row, column + 2)
        if cell.equals(stored, in: arena) { return true }
        // jsonb prints its own normal form (spaces, key order): compare the documents.
        guard isJSON[column], cell.kind == .text, case .text(let text) = stored else { return false }
        return PostgresJSON.same(String(decoding: cell.bytes(in: arena), as: UTF8.self), text)
    }

    func cell(_ column: Int, into arena: inout [UInt8]) -> Cell {
        Cell(PostgresValues.value(result, row, column + 2), in: &arena)
    }
}
