import Testing
@testable import Sluice
import SluiceTestSupport

extension StoreTests {
    /// The SQL that writes an entity's rows, driven with cells as a batch holds them: the
    /// Engine decides which rows go where, these run it.
    @Suite struct RowWritersTests {
        /// Rows of (id integer, name text), bytes in `arena`.
        private static func cells(_ rows: [(Int64, String)], arena: inout [UInt8]) -> [Cell] {
            rows.flatMap { id, name in [Cell.integer(id), Cell(.text(name), in: &arena)] }
        }

        private static func withRows<R>(_ cells: [Cell], _ arena: [UInt8], _ body: (CellRows) throws -> R) rethrows -> R {
            try cells.withUnsafeBufferPointer { cells in
                try arena.withUnsafeBytes { arena in try body(CellRows(cells: cells, width: 2, arena: arena)) }
            }
        }

        /// Many rows to a statement, or a row per statement (into a table that held rows, in a
        /// file that keeps a journal: `RowInserter`), numbered and stored the same.
        @Test(arguments: [false, true])
        func newRowsAreNumberedAfterTheLargestPkAndWrittenManyToAStatement(rowPerStatement: Bool) throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("CREATE TABLE t (pk INTEGER PRIMARY KEY, id INTEGER, name TEXT); INSERT INTO t VALUES (41, 0, 'old')")
            var inserter = try RowInserter(table: "t", key: "pk", columns: ["id", "name"], defaults: [nil, .text("none")],
                                           rowPerStatement: rowPerStatement, connection: connection)
            #expect(inserter.rowsPerInsert == (rowPerStatement ? 1 : 64))
            var arena: [UInt8] = []
            var cells = Self.cells((1...70).map { (Int64($0), "n\($0)") }, arena: &arena)
            cells[3] = .missing  // row 1's name: the default
            let pks = try Self.withRows(cells, arena) { rows in
                let pks = try (0..<70).map { try inserter.insert($0, of: rows) }
                try inserter.flush(rows)
                return pks
            }
            #expect(pks == Array(42...111))
            #expect(try connection.integer("SELECT count(*) FROM t") == 71)
            #expect(try connection.rows("SELECT pk, id, name FROM t WHERE id IN (1, 2, 70) ORDER BY pk") == [
                [.integer(42), .integer(1), .text("n1")],
                [.integer(43), .integer(2), .text("none")],
                [.integer(111), .integer(70), .text("n70")],
            ])
        }

        /// A new file is written without a journal (`ImportDatabase`), and a table the import
        /// creates has its indexes made at the end: many rows to a statement. A table that held
        /// rows, in an existing file: a row per statement.
        @Test func onlyATableThatHeldRowsInAFileWithAJournalTakesARowPerStatement() throws {
            let folder = TemporaryDirectory()
            let path = folder.file("db.sqlite")
            func rowsPerInsert(_ tables: [String]) throws -> [Int] {
                let store = try SQLiteStore(path: path)
                _ = try store.migrate(to: tables.map { table in
                    TableDefinition(name: table, columns: [.init(name: "pk", sqlType: "INTEGER"), .init(name: "id", sqlType: "TEXT")],
                                    uniqueIndex: ["id"], primaryKey: ["pk"])
                })
                defer { try? store.commit(vacuum: false) {} }
                return try tables.map { table in
                    let rows = try store.entityRows(entity: table, table: table, columns: ["id"], defaults: [nil], identity: [0])
                    return try #require(rows as? SQLiteEntityRows).inserter.rowsPerInsert
                }
            }
            #expect(try rowsPerInsert(["t"]) == [64])
            #expect(try rowsPerInsert(["t", "u"]) == [1, 64])
        }

        /// A parameter is bound NULL only where it holds a value from an earlier row: rows
        /// whose columns go from value to NULL (or missing) and back, in many-row statements and
        /// in the single-row ones of a flush, over two rounds, each store exactly what they hold.
        @Test func nullsAndValuesFollowEachOtherInEveryColumn() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("CREATE TABLE t (pk INTEGER PRIMARY KEY, id INTEGER, name TEXT)")
            var inserter = try RowInserter(table: "t", key: "pk", columns: ["id", "name"], defaults: [nil, .text("none")],
                                           connection: connection)
            var random = SystemRandomNumberGenerator()
            var expected: [[ColumnValue]] = []
            var pk: Int64 = 0
            for round in 0..<2 {
                var arena: [UInt8] = []
                var cells: [Cell] = []
                for row in 0..<150 {
                    pk += 1
                    let id: (Cell, ColumnValue) = Bool.random(using: &random) ? (.null, .null) : (.integer(pk), .integer(pk))
                    let name: (Cell, ColumnValue)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: name = (.null, .null)
                    case 1: name = (.missing, .text("none"))
                    default: name = (Cell(.text("r\(round)-\(row)"), in: &arena), .text("r\(round)-\(row)"))
                    }
                    cells += [id.0, name.0]
                    expected.append([.integer(pk), id.1, name.1])
                }
                try Self.withRows(cells, arena) { rows in
                    for row in 0..<150 { _ = try inserter.insert(row, of: rows) }
                    try inserter.flush(rows)
                }
            }
            #expect(try connection.rows("SELECT pk, id, name FROM t ORDER BY pk") == expected)
        }

        /// The multi-row `INSERT` names the columns some row has given a value so far, and
        /// those with a default: `note`, which no row of the first 64 gives, is left out (NULL)
        /// until a row gives it; `kind`, declared with a `DEFAULT`, is always named, so that a
        /// row without it stores NULL, not the table's default.
        @Test func manyRowsNameOnlyTheColumnsGivenAndThoseWithADefault() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("CREATE TABLE t (pk INTEGER PRIMARY KEY, id INTEGER, note TEXT, kind TEXT DEFAULT 'table')")
            var inserter = try RowInserter(table: "t", key: "pk", columns: ["id", "note", "kind"], defaults: [nil, nil, nil],
                                           connection: connection)
            var statements: [String] = []
            connection.trace { statements.append($0) }
            var arena: [UInt8] = []
            var cells: [Cell] = []
            for id in 1...128 {
                cells += [.integer(Int64(id)), id == 100 ? Cell(.text("n"), in: &arena) : .missing, .missing]
            }
            try cells.withUnsafeBufferPointer { cells in
                try arena.withUnsafeBytes { arena in
                    let rows = CellRows(cells: cells, width: 3, arena: arena)
                    for row in 0..<128 { _ = try inserter.insert(row, of: rows) }
                    try inserter.flush(rows)
                }
            }
            let inserts = statements.filter { $0.hasPrefix("INSERT") }
            #expect(inserts.count == 2)
            #expect(inserts.first?.hasPrefix(#"INSERT INTO "t" ("pk", "id", "kind") VALUES (?, ?, ?), "#) == true)
            #expect(inserts.last?.hasPrefix(#"INSERT INTO "t" ("pk", "id", "note", "kind") VALUES (?, ?, ?, ?), "#) == true)
            #expect(try connection.rows("SELECT count(*), count(note), count(kind) FROM t") == [[.integer(128), .integer(1), .integer(0)]])
            #expect(try connection.rows("SELECT note FROM t WHERE id = 100") == [[.text("n")]])
        }

        /// Where SQLite would number rows otherwise (an `AUTOINCREMENT` table remembers pks
        /// past the largest one), each row still gets the pk it was numbered with.
        @Test func rowsKeepTheirNumbersInAnAutoincrementTable() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("""
                CREATE TABLE t (pk INTEGER PRIMARY KEY AUTOINCREMENT, id INTEGER, name TEXT);
                INSERT INTO t VALUES (100, 0, 'gone'); DELETE FROM t; INSERT INTO t VALUES (41, 0, 'old');
                """)
            var inserter = try RowInserter(table: "t", key: "pk", columns: ["id", "name"], defaults: [nil, nil], connection: connection)
            var arena: [UInt8] = []
            let cells = Self.cells((1...70).map { (Int64($0), "n\($0)") }, arena: &arena)
            let pks = try Self.withRows(cells, arena) { rows in
                let pks = try (0..<70).map { try inserter.insert($0, of: rows) }
                try inserter.flush(rows)
                return pks
            }
            #expect(pks == Array(42...111))
            #expect(try connection.rows("SELECT min(pk), max(pk), count(*) FROM t WHERE id > 0 AND pk = id + 41") == [
                [.integer(42), .integer(111), .integer(70)],
            ])
        }

        @Test func aLookupFindsRowsByIdentityAndAnUpdateWritesOnlyWhatChanged() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("""
                CREATE TABLE t (pk INTEGER PRIMARY KEY, id INTEGER, name TEXT);
                CREATE UNIQUE INDEX t_identity ON t(id);
                INSERT INTO t VALUES (7, 1, 'a'), (8, 2, 'b');
                """)
            let lookup = IdentityLookup(table: "t", key: "pk", columns: ["id", "name"], identity: [0], connection: connection)
            let updater = RowUpdater(table: "t", key: "pk", columns: ["id", "name"], connection: connection)
            #expect(lookup.rowsPerQuery == 512)
            var arena: [UInt8] = []
            let cells = Self.cells([(2, "b"), (3, "c"), (1, "z")], arena: &arena)
            var found: [Int: (pk: Int64, nameIsStored: Bool)] = [:]
            try Self.withRows(cells, arena) { rows in
                let results = try lookup.find([0, 1, 2], of: rows)
                while try results.next() {
                    found[results.row] = (results.pk, results.column(1, holds: rows[results.row, 1], in: rows.arena))
                }
                var changed = ColumnSet(width: 2)
                changed.insert(1)
                try updater.update(2, of: rows, changed: changed, pk: 7)
            }
            #expect(found.count == 2)
            #expect(found[0]?.pk == 8 && found[0]?.nameIsStored == true)
            #expect(found[2]?.pk == 7 && found[2]?.nameIsStored == false)
            #expect(try connection.rows("SELECT pk, id, name FROM t ORDER BY pk") == [
                [.integer(7), .integer(1), .text("z")],
                [.integer(8), .integer(2), .text("b")],
            ])
        }

    @Test func inListsComeInAFewSizes() {
        #expect([1, 16, 17, 100, 5_000, 20_000].map { SQLParameters.listSize(for: $0, limit: 32_766) }
            == [16, 16, 32, 128, 8_192, 32_766])
        #expect(SQLParameters.listSize(for: 10_000, limit: 16_383) == 16_383)
    }

    /// The columns an UPDATE writes: the first 64 inline, more in words after them.
    @Test func columnSetsHoldAnyColumn() {
        var wide = ColumnSet(width: 130)
        #expect(wide.isEmpty)
        for column in [129, 0, 64, 63, 128, 127] { wide.insert(column) }
        #expect(!wide.isEmpty)
        #expect(wide.members == [0, 63, 64, 127, 128, 129])
        var same = ColumnSet(width: 130)
        for column in [0, 63, 64, 127, 128, 129] { same.insert(column) }
        #expect(same == wide)
        var narrow = ColumnSet(width: 8)
        narrow.insert(7)
        #expect(narrow.members == [7])
        var onlyHigh = ColumnSet(width: 70)
        onlyHigh.insert(69)
        #expect(!onlyHigh.isEmpty && onlyHigh.members == [69])
    }
    }
}
