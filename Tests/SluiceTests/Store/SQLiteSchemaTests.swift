import Testing
import SluiceTestSupport
@testable import Sluice

extension StoreTests {
    @Suite struct SQLiteSchemaTests {
        static let stops = TableDefinition(
            name: "stops",
            columns: [
                .init(name: "pk", sqlType: "INTEGER"), .init(name: "stop_id", sqlType: "TEXT"),
                .init(name: "lat", sqlType: "REAL"), .init(name: "parent_pk", sqlType: "INTEGER", references: "stops"),
            ],
            uniqueIndex: ["stop_id"], indexes: [["parent_pk"]], primaryKey: ["pk"])
        static let trips = TableDefinition(
            name: "trips", columns: [.init(name: "pk", sqlType: "INTEGER"), .init(name: "headsign", sqlType: "TEXT")],
            primaryKey: ["pk"])

        @Test func createsEverythingInAnEmptyDatabase() throws {
            let connection = try Connection(path: ":memory:")
            let statements = try SQLiteSchema.migrate(connection, to: [Self.stops, Self.trips])
            #expect(statements.count == 4)
            #expect(try SQLiteSchema.plan(connection, tables: [Self.stops, Self.trips]).statements.isEmpty)
        }

        @Test func defersThePlainIndexesOfTablesItCreates() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("old.sqlite", """
                CREATE TABLE "trips" ("pk" INTEGER PRIMARY KEY, "headsign" TEXT);
                """)
            var trips = Self.trips
            trips.indexes = [["headsign"]]
            let migration = try SQLiteSchema.plan(try Connection(path: path), tables: [Self.stops, trips],
                                                     deferringSecondaryIndexes: true)
            // The new table's unique index is made now; the existing table's missing index too.
            #expect(migration.statements.contains { $0.contains("\"stops_identity\"") })
            #expect(migration.statements.contains { $0.contains("\"trips_headsign\"") })
            #expect(migration.newIndexes.deferred.map(\.columns) == [["parent_pk"]])
            #expect(!migration.statements.contains { $0.contains("\"stops_parent_pk\"") })
        }

        @Test func makesAnIndexThatLeavesOutNullWithItsNewTable() throws {
            var stops = Self.stops
            stops.plainIndexesSkipNull = true
            let migration = try SQLiteSchema.plan(try Connection(path: ":memory:"), tables: [stops],
                                                     deferringSecondaryIndexes: true)
            // Empty while no row fills its column: made now, and dropped and deferred once one does.
            #expect(migration.statements.contains { $0.contains("\"stops_parent_pk\"") && $0.hasSuffix("WHERE \"parent_pk\" IS NOT NULL;") })
            #expect(migration.newIndexes.early.map(\.name) == ["stops_parent_pk"])
            #expect(migration.newIndexes.deferred.isEmpty)
        }

        @Test func addsMissingTableColumnAndIndexesKeepingData() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("old.sqlite", """
                CREATE TABLE "stops" ("pk" INTEGER PRIMARY KEY, "STOP_ID" text);
                INSERT INTO stops (stop_id) VALUES ('a'), ('b');
                """)
            let connection = try Connection(path: path)
            let statements = try SQLiteSchema.migrate(connection, to: [Self.stops, Self.trips])
            #expect(statements == [
                #"ALTER TABLE "stops" ADD COLUMN "lat" REAL;"#,
                #"ALTER TABLE "stops" ADD COLUMN "parent_pk" INTEGER REFERENCES "stops"("pk");"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "stops_identity" ON "stops"("stop_id");"#,
                #"CREATE INDEX IF NOT EXISTS "stops_parent_pk" ON "stops"("parent_pk");"#,
                Self.trips.createTableSQL,
            ])
            #expect(try connection.rows("SELECT pk, stop_id, lat, parent_pk FROM stops ORDER BY pk") == [
                [.integer(1), .text("a"), .null, .null], [.integer(2), .text("b"), .null, .null],
            ])
            #expect(try connection.integer("SELECT count(*) FROM trips") == 0)
            #expect(try connection.integer("SELECT count(*) FROM pragma_index_list('stops')") == 2)
            #expect(try SQLiteSchema.plan(connection, tables: [Self.stops, Self.trips]).statements.isEmpty)
        }

        @Test func incompatibleTypesAreReportedBeforeAnyWrite() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("old.sqlite", """
                CREATE TABLE stops (pk INTEGER PRIMARY KEY, stop_id TEXT, lat TEXT, parent_pk BLOB);
                INSERT INTO stops (stop_id, lat) VALUES ('a', '1.5');
                """)
            let before = directory.bytes(of: "old.sqlite")
            let connection = try Connection(path: path)
            do {
                // trips comes first: a table that could be created is not created either.
                try SQLiteSchema.migrate(connection, to: [Self.trips, Self.stops])
                Issue.record("expected an incompatibility")
            } catch {
                #expect(error.kind == .cannotCreate)
                #expect(error.message == "database '\(path)' does not fit the model: "
                    + #"table "stops" column "lat" has type TEXT, the model needs REAL; "#
                    + #"table "stops" column "parent_pk" has type BLOB, the model needs INTEGER"#)
            }
            connection.close()
            #expect(directory.bytes(of: "old.sqlite") == before)
            #expect(directory.contents == ["old.sqlite"])
        }

        @Test func columnsTheKeyOrTheTypeCannotTakeAreReportedBeforeAnyWrite() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("old.sqlite", """
                CREATE TABLE links (a_pk INTEGER, extra);
                CREATE TABLE trips (pk INTEGER PRIMARY KEY, headsign);
                """)
            let links = TableDefinition(name: "links", columns: [.init(name: "a_pk", sqlType: "INTEGER"),
                                                                 .init(name: "b_pk", sqlType: "INTEGER")],
                                        primaryKey: ["a_pk", "b_pk"], withoutRowID: true)
            let before = directory.bytes(of: "old.sqlite")
            let connection = try Connection(path: path)
            do {
                try SQLiteSchema.migrate(connection, to: [links, Self.trips])
                Issue.record("expected an incompatibility")
            } catch {
                #expect(error.kind == .cannotCreate)
                #expect(error.message == "database '\(path)' does not fit the model: "
                    + #"table "links" column "a_pk" is not part of the primary key, the model needs it to be; "#
                    + #"table "links" has no column "b_pk", and a primary key cannot be added; "#
                    + #"table "trips" column "headsign" has no type, the model needs TEXT"#)
            }
            connection.close()
            #expect(directory.bytes(of: "old.sqlite") == before)
        }

        @Test func duplicateIdentitiesAreReportedBeforeAnyWrite() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("old.sqlite", """
                CREATE TABLE stops (pk INTEGER PRIMARY KEY, stop_id TEXT, lat REAL, parent_pk INTEGER);
                INSERT INTO stops (stop_id) VALUES ('a'), ('a'), (NULL), (NULL);
                """)
            let before = directory.bytes(of: "old.sqlite")
            let connection = try Connection(path: path)
            #expect {
                try SQLiteSchema.migrate(connection, to: [Self.trips, Self.stops])
            } throws: { error in
                let error = error as? SluiceError
                return error?.kind == .cannotCreate && error?.message.contains(#"table "stops" has rows with the same identity ("stop_id")"#) == true
            }
            connection.close()
            #expect(directory.bytes(of: "old.sqlite") == before)
        }

        @Test func nullIdentitiesDoNotCountAsDuplicates() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("""
                CREATE TABLE stops (pk INTEGER PRIMARY KEY, stop_id TEXT, lat REAL, parent_pk INTEGER);
                INSERT INTO stops (stop_id) VALUES ('a'), (NULL), (NULL);
                """)
            try SQLiteSchema.migrate(connection, to: [Self.stops])
            #expect(try connection.integer("SELECT count(*) FROM pragma_index_list('stops') WHERE \"unique\"") == 1)
        }

        @Test func missingPrimaryKeyIsAnIncompatibility() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("CREATE TABLE trips (headsign TEXT)")
            #expect(throws: SluiceError.self) { try SQLiteSchema.migrate(connection, to: [Self.trips]) }
            #expect(try connection.integer("SELECT count(*) FROM pragma_table_info('trips')") == 1)
        }
    }
}
