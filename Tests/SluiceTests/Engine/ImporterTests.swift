import Testing
import SluiceTestSupport
@testable import Sluice

/// Imports `json` into the database at `path` with `model`, in one import.
@discardableResult
func importJSON(_ json: String, model: Model, into path: String, options: ImportOptions = ImportOptions())
    throws(SluiceError) -> ImportReport
{
    let importer = try Importer(databasePath: path, model: model, options: options)
    try importer.importBytes(Array(json.utf8), name: "in.json")
    return try importer.finish()
}

/// Imports `json` like `importJSON` and returns every SQL statement the import ran, in order.
func importTracingSQL(_ json: String, model: Model, into path: String, options: ImportOptions = ImportOptions(),
                      expanded: Bool = false) throws -> [String]
{
    let importer = try Importer(databasePath: path, model: model, options: options)
    var statements: [String] = []
    (importer.database as! SQLiteStore).connection.trace(expanded: expanded) { statements.append($0) }
    try importer.importBytes(Array(json.utf8), name: "in.json")
    _ = try importer.finish()
    return statements
}

/// The rows of a query, for assertions.
func query(_ path: String, _ sql: String) throws -> [[ColumnValue]] {
    try Connection(path: path, mode: .readOnly).rows(sql)
}

private let item = Model.Entity(
    name: "Item", table: "items", identity: ["id"],
    attributes: [
        .init(name: "id", type: .integer),
        .init(name: "name", type: .string),
        .init(name: "price", type: .double, defaultValue: .number("1.5")),
        .init(name: "stock", type: .integer, keys: [JSONKeyPath(parsing: "stock.count")]),
    ])
private let items = Model(root: .entity("Item"), entities: [item])

/// An append-only entity (no identity).
private let logs = Model(entities: [Model.Entity(name: "Log", attributes: [.init(name: "message", type: .string)])])

/// A database of `logs` holding one imported row and one numbered `pk` written by hand.
private func logDatabase(in directory: TemporaryDirectory, withRowNumbered pk: Int64) throws -> String {
    let db = directory.file("log.sqlite")
    try importJSON(#"{"message": "old"}"#, model: logs, into: db)
    try Connection(path: db).execute("INSERT INTO Log (pk, message) VALUES (\(pk), 'by hand')")
    return db
}

/// `count` log records, "m1", "m2", ... as NDJSON.
private func messages(_ count: Int) -> String {
    (1...count).map { #"{"message": "m\#($0)"}"# }.joined(separator: "\n")
}

/// Triggers that count every row write on `items`, per kind and per updated column.
private let countingTriggers = """
    CREATE TABLE writes (kind TEXT PRIMARY KEY, n INTEGER);
    INSERT INTO writes VALUES ('insert', 0), ('update', 0), ('name', 0), ('price', 0), ('stock', 0);
    CREATE TRIGGER items_insert AFTER INSERT ON items BEGIN UPDATE writes SET n = n + 1 WHERE kind = 'insert'; END;
    CREATE TRIGGER items_update AFTER UPDATE ON items BEGIN UPDATE writes SET n = n + 1 WHERE kind = 'update'; END;
    CREATE TRIGGER items_name AFTER UPDATE OF name ON items BEGIN UPDATE writes SET n = n + 1 WHERE kind = 'name'; END;
    CREATE TRIGGER items_price AFTER UPDATE OF price ON items BEGIN UPDATE writes SET n = n + 1 WHERE kind = 'price'; END;
    CREATE TRIGGER items_stock AFTER UPDATE OF stock ON items BEGIN UPDATE writes SET n = n + 1 WHERE kind = 'stock'; END;
    """

private func writes(_ path: String) throws -> [String: Int64] {
    var result: [String: Int64] = [:]
    for row in try query(path, "SELECT kind, n FROM writes") {
        if case .text(let kind) = row[0], case .integer(let count) = row[1] { result[kind] = count }
    }
    return result
}

@Suite struct ImporterTests {
    let first = """
        [{"id": 1, "name": "apple", "price": 2.5, "stock": {"count": 10}},
         {"id": 2, "name": "pear", "price": 3},
         {"id": "3", "name": "plum"}]
        """

    @Test func insertsRowsWithConvertedValuesAndDefaults() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        let report = try importJSON(first, model: items, into: db)
        #expect(report.entities == [counts("Item", inserted: 3)])
        #expect(report.records == 3)
        #expect(try query(db, "SELECT pk, id, name, price, stock FROM items ORDER BY pk") == [
            [.integer(1), .integer(1), .text("apple"), .real(2.5), .integer(10)],
            [.integer(2), .integer(2), .text("pear"), .real(3), .null],
            [.integer(3), .integer(3), .text("plum"), .real(1.5), .null],
        ])
        #expect(try query(db, "SELECT records, inserted, updated, unchanged, rejected, sources FROM sluice_imports") == [
            [.integer(3), .integer(3), .integer(0), .integer(0), .integer(0), .text("in.json")],
        ])
    }

    @Test func reimportingTheSameInputWritesNothing() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(first, model: items, into: db)
        try Connection(path: db).execute(countingTriggers)
        let before = try query(db, "SELECT * FROM items ORDER BY pk")

        let report = try importJSON(first, model: items, into: db)
        #expect(report.entities == [counts("Item", unchanged: 3)])
        #expect(try writes(db) == ["insert": 0, "update": 0, "name": 0, "price": 0, "stock": 0])
        #expect(try query(db, "SELECT * FROM items ORDER BY pk") == before)
    }

    @Test func aChangedValueUpdatesExactlyThatColumn() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(first, model: items, into: db)
        try Connection(path: db).execute(countingTriggers)

        let changed = first.replacingOccurrences(of: "\"pear\"", with: "\"Pear\"")
        let report = try importJSON(changed, model: items, into: db)
        #expect(report.entities == [counts("Item", updated: 1, unchanged: 2)])
        #expect(try writes(db) == ["insert": 0, "update": 1, "name": 1, "price": 0, "stock": 0])
        #expect(try query(db, "SELECT name FROM items WHERE id = 2") == [[.text("Pear")]])
    }

    @Test func missingKeysLeaveColumnsAloneAndNullClearsThem() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(first, model: items, into: db)
        // `stock: null` does not reach the key path stock.count: not present, left alone.
        let report = try importJSON(#"{"id": 1, "name": null, "stock": null} {"id": 2}"#, model: items, into: db)
        #expect(report.entities == [counts("Item", updated: 1, unchanged: 1)])
        #expect(try query(db, "SELECT name, price, stock FROM items WHERE id IN (1, 2) ORDER BY id") == [
            [.null, .real(2.5), .integer(10)],
            [.text("pear"), .real(3), .null],
        ])
    }

    @Test func defaultWhenMissingAppliesOnUpdateToo() throws {
        var entity = item
        entity.attributes[1].defaultValue = .string("unnamed")
        entity.attributes[1].defaultWhenMissing = true
        let model = Model(root: .entity("Item"), entities: [entity])
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(first, model: model, into: db)
        try importJSON(#"{"id": 1}"#, model: model, into: db)
        #expect(try query(db, "SELECT name FROM items WHERE id = 1") == [[.text("unnamed")]])
    }

    @Test func identitiesAreComparedAfterConversion() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        let report = try importJSON(#"{"id": "42", "name": "a"} {"id": 42, "name": "b"} {"id": 42.0, "price": 9}"#, model: items, into: db)
        #expect(report.entities == [counts("Item", inserted: 1, updated: 2)])
        #expect(try query(db, "SELECT id, name, price FROM items") == [[.integer(42), .text("b"), .real(9)]])
        try importJSON(#"{"id": 42e0, "name": "c"}"#, model: items, into: db)
        #expect(try query(db, "SELECT id, name FROM items") == [[.integer(42), .text("c")]])
    }

    @Test func recordsWithTheSameIdentityMergeWithinAndAcrossBatches() throws {
        var options = ImportOptions()
        options.batchSize = 2
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        let json = #"{"id": 1, "name": "a"} {"id": 1, "price": 5} {"id": 2} {"id": 1, "name": "z"} {"id": 1, "name": "z"}"#
        let report = try importJSON(json, model: items, into: db, options: options)
        // Batch 1 inserts id 1 (merged), batch 2 inserts id 2 and updates id 1, batch 3 finds
        // id 1 unchanged; every record is counted once.
        #expect(report.entities == [counts("Item", inserted: 2, updated: 2, unchanged: 1)])
        #expect(try query(db, "SELECT id, name, price FROM items ORDER BY pk") == [
            [.integer(1), .text("z"), .real(5)], [.integer(2), .null, .real(1.5)],
        ])
    }

    @Test func compositeIdentity() throws {
        let stopTime = Model.Entity(
            name: "StopTime", identity: ["trip", "sequence"],
            attributes: [.init(name: "trip", type: .string), .init(name: "sequence", type: .integer), .init(name: "at", type: .string)])
        let model = Model(root: .entity("StopTime"), entities: [stopTime])
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let json = #"[{"trip": "A", "sequence": 1, "at": "08:00"}, {"trip": "A", "sequence": 2}, {"trip": "B", "sequence": 1}]"#
        try importJSON(json, model: model, into: db)
        let report = try importJSON(#"[{"trip": "A", "sequence": "2", "at": "08:05"}, {"trip": "B", "sequence": 1}, {"trip": "A"}]"#,
                                    model: model, into: db)
        #expect(report.entities == [counts("StopTime", inserted: 1, updated: 1, unchanged: 1)])
        #expect(try query(db, "SELECT trip, sequence, at FROM StopTime ORDER BY pk") == [
            [.text("A"), .integer(1), .text("08:00")], [.text("A"), .integer(2), .text("08:05")],
            [.text("B"), .integer(1), .null], [.text("A"), .null, .null],
        ])
    }

    @Test func compositeLookupsSearchTheIdentityIndexInsteadOfScanningIt() throws {
        let stopTime = Model.Entity(
            name: "StopTime", identity: ["trip", "sequence"],
            attributes: [.init(name: "trip", type: .string), .init(name: "sequence", type: .integer)])
        let model = Model(root: .entity("StopTime"), entities: [stopTime])
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        try importJSON(#"{"trip": "A", "sequence": 1}"#, model: model, into: db)
        let selects = try importTracingSQL(#"{"trip": "A", "sequence": 1} {"trip": "B", "sequence": 2}"#, model: model, into: db)
            .filter { $0.hasPrefix("SELECT") }
        // B is not among the rows that follow: it is looked up by identity.
        let lookup = try #require(selects.first { $0.contains("CROSS JOIN") })
        let connection = try Connection(path: db)
        func details(_ sql: String, _ values: [ColumnValue]) throws -> [String] {
            try connection.rows("EXPLAIN QUERY PLAN " + sql, values)
                .compactMap { row -> String? in if case .text(let text)? = row.last { return text } else { return nil } }
        }
        let plan = try details(lookup, [.text("A"), .integer(1), .text("B"), .integer(2)])
        #expect(plan.contains { $0.hasPrefix("SEARCH t USING") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN t") }, "\(plan)")
        // The rows that follow the last batch's (`RowsInKeyOrder`) are a range of the table's keys;
        // a fast path, which `SLUICE_GENERAL_PATHS=1` turns off.
        guard ImportOptions().fastPaths else {
            #expect(!selects.contains { $0.contains("ORDER BY") }, "\(selects)")
            return
        }
        let following = try #require(selects.first { $0.contains("ORDER BY") })
        let range = try details(following, [.integer(0), .integer(2)])
        #expect(range.contains { $0.contains("INTEGER PRIMARY KEY (rowid>?)") }, "\(range)")
        #expect(!range.contains { $0.contains("TEMP B-TREE") }, "\(range)")
    }

    @Test func withoutIdentityEveryRecordIsAppended() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("log.sqlite")
        try importJSON(#"{"message": "a"} {"message": "a"}"#, model: logs, into: db)
        let report = try importJSON(#"{"message": "a"}"#, model: logs, into: db)
        #expect(report.entities == [counts("Log", inserted: 1)])
        #expect(try query(db, "SELECT count(*) FROM Log") == [[.integer(3)]])
    }

    @Test func oneLookupQueryPerBatchNotPerRecord() throws {
        var options = ImportOptions()
        options.batchSize = 5
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        // Into a table that exists: in one the import creates, records with ids above the
        // largest it inserted are not looked up at all (`IdentityCeilingTests`).
        try importJSON(#"{"id": 100}"#, model: items, into: db)
        let json = (1...12).map { #"{"id": \#($0), "name": "n\#($0)"}"# }.joined(separator: "\n")
        let statements = try importTracingSQL(json, model: items, into: db, options: options)
        let lookups = statements.filter { $0.hasPrefix("SELECT") && $0.contains("CROSS JOIN \"items\"") }
        #expect(lookups.count == 3)
        // Five identities per batch (each with its record's number), in a VALUES list padded
        // to 16 so a few statements serve all sizes.
        #expect(lookups.first?.contains("(VALUES " + Array(repeating: "(?, ?)", count: 16).joined(separator: ", ") + ")") == true)
        #expect(Set(lookups).count == 1)
        // Five new rows per batch: fewer than a multi-row insert takes, one statement each.
        #expect(statements.filter { $0.hasPrefix("INSERT INTO \"items\"") }.count == 12)
    }

    /// New rows go in 64 to a statement into a table the import creates (fewer parameters for
    /// a wide entity), the rest of a batch one by one; into a table that held rows, in a file
    /// that keeps a journal, one to a statement (`RowInserter` says why). Either way each row is
    /// numbered here, after the largest pk, in input order.
    @Test func rowsAreInsertedManyPerStatementAndNumberedInInputOrder() throws {
        let directory = TemporaryDirectory()
        let fresh = directory.file("fresh.sqlite")
        let created = try importTracingSQL(messages(150), model: logs, into: fresh)
            .filter { $0.hasPrefix(#"INSERT INTO "Log""#) }
        #expect(created.count == 2 + 22)
        #expect(created.filter { $0.filter { $0 == "?" }.count == 64 * 2 }.count == 2)
        #expect(try query(fresh, "SELECT pk, message FROM Log ORDER BY pk") == (1...150).map { [.integer(Int64($0)), .text("m\($0)")] })

        let db = try logDatabase(in: directory, withRowNumbered: 7)
        let statements = try importTracingSQL(messages(150), model: logs, into: db)
        let inserts = statements.filter { $0.hasPrefix(#"INSERT INTO "Log""#) }
        #expect(inserts.count == 150)
        let rows = try query(db, "SELECT pk, message FROM Log WHERE pk > 7 ORDER BY pk")
        #expect(rows == (1...150).map { [.integer(Int64(7 + $0)), .text("m\($0)")] })
        #expect(RowInserter.rowsPerInsert(width: 100) == 10)
    }

    /// Past a row numbered `Int64.max`, SQLite picks unused pks itself: rows go in one at a
    /// time and each keeps the pk it got.
    @Test func rowsStillGoInAfterTheLargestPossiblePk() throws {
        let directory = TemporaryDirectory()
        let db = try logDatabase(in: directory, withRowNumbered: .max)
        let report = try importJSON(messages(70), model: logs, into: db)
        #expect(report.entities == [counts("Log", inserted: 70)])
        #expect(try query(db, "SELECT count(DISTINCT pk), count(DISTINCT message) FROM Log") == [[.integer(72), .integer(72)]])
    }

    /// Rows are numbered before they go in: a trigger that inserts into the same table takes
    /// a number Sluice gave out, and the import stops whole instead of linking wrong rows.
    @Test func aTriggerInsertingIntoTheTableStopsTheImportAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let db = try logDatabase(in: directory, withRowNumbered: 7)
        try Connection(path: db).execute("""
            CREATE TRIGGER echo AFTER INSERT ON Log WHEN new.message <> 'echo'
            BEGIN INSERT INTO Log (message) VALUES ('echo'); END;
            """)
        let error = try #require(throws: SluiceError.self) { try importJSON(messages(3), model: logs, into: db) }
        #expect(error.message.contains("UNIQUE constraint failed: Log.pk"))
        #expect(try query(db, "SELECT pk, message FROM Log ORDER BY pk") == [
            [.integer(1), .text("old")], [.integer(7), .text("by hand")],
        ])
    }

    /// A statement with thousands of parameters takes megabytes to prepare and keep: a big
    /// batch's identities are looked up 1,024 at a time.
    @Test func lookupsBindAtMost1024Values() throws {
        var options = ImportOptions()
        options.batchSize = 3_000
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(#"{"id": 100000}"#, model: items, into: db)  // a table that exists, as above
        let json = (1...3_000).map { #"{"id": \#($0)}"# }.joined(separator: "\n")
        let statements = try importTracingSQL(json, model: items, into: db, options: options)
        let lookups = statements.filter { $0.hasPrefix("SELECT") && $0.contains("CROSS JOIN \"items\"") }
        // 512 identities a query, each bound with its record's number.
        #expect(lookups.count == 6)
        #expect(lookups.allSatisfy { $0.filter { $0 == "?" }.count == 1_024 })
        #expect(try query(db, "SELECT count(*) FROM items") == [[.integer(3_001)]])
    }

    @Test func aFailedImportLeavesNoNewDatabaseBehind() throws {
        var options = ImportOptions()
        options.batchSize = 1
        let directory = TemporaryDirectory()
        let db = directory.file("new.sqlite")
        let json = #"{"id": 1} {"id": 2} {"id": "three"}"#
        #expect(throws: SluiceError.self) { try importJSON(json, model: items, into: db, options: options) }
        #expect(directory.contents == [])
    }

    @Test func aFailedImportLeavesAnExistingDatabaseAsItWas() throws {
        var options = ImportOptions()
        options.batchSize = 1
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(first, model: items, into: db)
        let before = try query(db, "SELECT * FROM items ORDER BY pk")
        let json = #"{"id": 1, "name": "changed"} {"id": 7} {"id": 8, "price": "cheap"}"#
        do {
            try importJSON(json, model: items, into: db, options: options)
            Issue.record("expected the import to fail")
        } catch {
            #expect(error.description == #"in.json:1:40: Item.price: cannot convert "cheap" to double"#)
            #expect(error.kind == .data)
        }
        #expect(try query(db, "SELECT * FROM items ORDER BY pk") == before)
        #expect(try query(db, "SELECT count(*) FROM sluice_imports") == [[.integer(1)]])
        #expect(try query(db, "PRAGMA integrity_check") == [[.text("ok")]])
        #expect(directory.contents == ["shop.sqlite"])
    }

    /// Batches are written on a second thread while parsing goes on, so the parser may reach
    /// bad input after a batch before it has failed to write: the earlier failure is reported,
    /// as if the import ran on one thread, and nothing is written.
    @Test func aBatchThatFailsToWriteIsReportedBeforeLaterBadInput() throws {
        var options = ImportOptions()
        options.batchSize = 2
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(first, model: items, into: db)
        try Connection(path: db).execute("""
            CREATE TRIGGER refuse BEFORE INSERT ON items WHEN NEW.id = 5 BEGIN SELECT RAISE(ABORT, 'no item 5'); END;
            """)
        let before = try query(db, "SELECT * FROM items ORDER BY pk")
        let json = (4...5).map { #"{"id": \#($0)}"# }.joined(separator: "\n") + "\n{\"id\": oops}"
        for _ in 0..<20 {  // the race goes either way; the message must not
            do {
                try importJSON(json, model: items, into: db, options: options)
                Issue.record("expected the import to fail")
            } catch {
                #expect(error.message.contains("no item 5"), "\(error)")
            }
        }
        #expect(try query(db, "SELECT * FROM items ORDER BY pk") == before)
    }

    @Test func skippedRecordsAreCountedAndTheRestImported() throws {
        var options = ImportOptions()
        options.onError = .skip
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        let report = try importJSON(#"[{"id": 1}, {"id": "x"}, 5, {"id": 2}]"#, model: items, into: db, options: options)
        #expect(report.entities == [counts("Item", inserted: 2, rejected: 2)])
        #expect(try query(db, "SELECT rejected FROM sluice_imports") == [[.integer(2)]])
    }

    @Test func theDatabaseIsFreeAsSoonAsFinishReturns() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        for _ in 0..<2 {  // new, then existing
            let importer = try Importer(databasePath: db, model: items)
            try importer.importBytes(Array(first.utf8))
            _ = try importer.finish()
            // The importer is still alive: its statements must not keep a lock on the file.
            let other = try Connection(path: db)
            other.setBusyTimeout(ms: 0)
            try other.execute("INSERT INTO items (id) VALUES (99); DELETE FROM items WHERE id = 99")
            withExtendedLifetime(importer) {}
        }
    }

    /// The same after a second pass, whose statements read the waiting links.
    @Test func theDatabaseIsFreeAsSoonAsFinishReturnsAfterASecondPass() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let json = #"{"items": [{"id": 1, "box": "B1", "shelf": "S9"}], "boxes": [{"code": "B1"}], "shelves": []}"#
        let importer = try Importer(databasePath: db, model: SecondPassTests.model(shelf: .stub))
        try importer.importBytes(Array(json.utf8))
        let report = try importer.finish()
        #expect(report.unresolved == 0)
        let other = try Connection(path: db)
        other.setBusyTimeout(ms: 0)
        try other.execute("UPDATE items SET id = 2; UPDATE items SET id = 1")
        withExtendedLifetime(importer) {}
    }

    @Test func analyzeAndVacuum() throws {
        var options = ImportOptions()
        options.analyze = true
        options.vacuum = true
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        try importJSON(first, model: items, into: db, options: options)
        #expect(try query(db, "SELECT count(*) > 0 FROM sqlite_stat1 WHERE tbl = 'items'") == [[.integer(1)]])
        try importJSON(first, model: items, into: db, options: options)
        #expect(try query(db, "SELECT count(*) FROM items") == [[.integer(3)]])
    }

    @Test func anIncompatibleExistingColumnFailsBeforeAnyWrite() throws {
        let directory = TemporaryDirectory()
        let db = try directory.makeDatabase("shop.sqlite", "CREATE TABLE items (pk INTEGER PRIMARY KEY, id INTEGER, name TEXT, price TEXT, stock INTEGER)")
        let before = directory.bytes(of: "shop.sqlite")
        do {
            try importJSON(first, model: items, into: db)
            Issue.record("expected the import to fail")
        } catch {
            #expect(error.kind == .cannotCreate)
            #expect(error.message.contains(#"table "items" column "price" has type TEXT, the model needs REAL"#))
        }
        #expect(directory.bytes(of: "shop.sqlite") == before)
    }

    /// A cell counts a value's bytes in 32 bits: a larger `maxValueBytes` is refused before
    /// the database is opened, with a model or without.
    @Test func maxValueBytesIsAtMostWhatAColumnHolds() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("shop.sqlite")
        var options = ImportOptions()
        options.maxValueBytes = Int(Int32.max) + 1
        let message = "ImportOptions.maxValueBytes must be at most 2147483647 (the largest value a column can hold)"
        let withModel = #expect(throws: SluiceError.self) { try Importer(databasePath: db, model: items, options: options) }
        #expect(withModel?.kind == .usage)
        #expect(withModel?.message == message)
        let zeroConfig = #expect(throws: SluiceError.self) { try Importer(databasePath: db, table: "t", options: options) }
        #expect(zeroConfig?.kind == .usage)
        #expect(zeroConfig?.message == message)
        #expect(directory.contents.isEmpty)

        options.maxValueBytes = ImportOptions.largestMaxValueBytes
        #expect(ImportOptions.largestMaxValueBytes == Int(Int32.max))
        #expect(try importJSON(first, model: items, into: db, options: options).records == 3)
    }
}

private func counts(_ entity: String, inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, rejected: Int = 0)
    -> ImportReport.EntityCounts
{
    var counts = ImportReport.EntityCounts(entity: entity)
    counts.inserted = inserted
    counts.updated = updated
    counts.unchanged = unchanged
    counts.rejected = rejected
    return counts
}
