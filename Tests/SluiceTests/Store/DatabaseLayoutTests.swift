import Testing
@testable import Sluice

extension StoreTests {
    @Suite struct DatabaseLayoutTests {
        typealias Entity = Model.Entity
        typealias Attribute = Model.Attribute
        typealias Relationship = Model.Relationship

        /// Stops with a single identity and a to-one to themselves; stop times with a composite
        /// identity and a to-one to their stop, which `Stop.stopTimes` uses as its inverse.
        static let transit = Model(entities: [
            Entity(name: "Stop", table: "stops", identity: ["stopID"], attributes: [
                Attribute(name: "stopID", type: .string, column: "stop_id"),
                Attribute(name: "name", type: .string),
                Attribute(name: "lat", type: .double),
                Attribute(name: "accessible", type: .boolean),
            ], relationships: [
                Relationship(name: "parent", entity: "Stop"),
                Relationship(name: "stopTimes", entity: "StopTime", toMany: true, inverse: "stop"),
            ]),
            Entity(name: "StopTime", table: "stop_times", identity: ["trip", "sequence"], attributes: [
                Attribute(name: "trip", type: .string),
                Attribute(name: "sequence", type: .integer),
                Attribute(name: "arrival", type: .date),
                Attribute(name: "raw", type: .binary),
            ], relationships: [
                Relationship(name: "stop", entity: "Stop", inverse: "stopTimes"),
            ]),
        ])

        @Test func ddlOfATwoEntityModel() {
            let expected = """
                CREATE TABLE IF NOT EXISTS "stops" (
                  "pk" INTEGER PRIMARY KEY,
                  "stop_id" TEXT,
                  "name" TEXT,
                  "lat" REAL,
                  "accessible" INTEGER,
                  "parent_pk" INTEGER REFERENCES "stops"("pk")
                );
                CREATE UNIQUE INDEX IF NOT EXISTS "stops_identity" ON "stops"("stop_id");
                CREATE INDEX IF NOT EXISTS "stops_parent_pk" ON "stops"("parent_pk") WHERE "parent_pk" IS NOT NULL;

                CREATE TABLE IF NOT EXISTS "stop_times" (
                  "pk" INTEGER PRIMARY KEY,
                  "trip" TEXT,
                  "sequence" INTEGER,
                  "arrival" TEXT,
                  "raw" BLOB,
                  "stop_pk" INTEGER REFERENCES "stops"("pk")
                );
                CREATE UNIQUE INDEX IF NOT EXISTS "stop_times_identity" ON "stop_times"("trip", "sequence");
                CREATE INDEX IF NOT EXISTS "stop_times_stop_pk" ON "stop_times"("stop_pk") WHERE "stop_pk" IS NOT NULL;

                CREATE TABLE IF NOT EXISTS "sluice_imports" (
                  "id" INTEGER PRIMARY KEY,
                  "started_at" TEXT,
                  "finished_at" TEXT,
                  "sources" TEXT,
                  "bytes" INTEGER,
                  "records" INTEGER,
                  "inserted" INTEGER,
                  "updated" INTEGER,
                  "unchanged" INTEGER,
                  "rejected" INTEGER,
                  "unresolved" INTEGER,
                  "model_sha256" TEXT,
                  "inputs" TEXT,
                  "feed" TEXT
                );

                """
            #expect(DatabaseLayout(Self.transit).ddl == expected)
        }

        @Test func toManyWithInverseIsStoredInTheInverseColumn() {
            let layout = DatabaseLayout(Self.transit)
            #expect(layout.tables.map(\.name) == ["stops", "stop_times", "sluice_imports"])
            let stop = Self.transit.entities[0]
            #expect(layout.storage(of: stop.relationships[0], in: stop) == .column(table: "stops", column: "parent_pk"))
            #expect(layout.storage(of: stop.relationships[1], in: stop) == .inverseColumn(table: "stop_times", column: "stop_pk"))
        }

        @Test func anIdentityThroughAToOneIndexesItsColumn() {
            let model = Model(entities: [
                Entity(name: "Person", table: "people", identity: ["id"], attributes: [Attribute(name: "id", type: .integer)],
                       relationships: [Relationship(name: "phones", entity: "Phone", toMany: true, inverse: "owner", position: "index")]),
                Entity(name: "Phone", table: "phones", identity: ["owner", "index"],
                       attributes: [Attribute(name: "index", type: .integer)],
                       relationships: [Relationship(name: "owner", entity: "Person", column: "person")]),
            ])
            #expect(DatabaseLayout(model).table(named: "phones")?.uniqueIndex == ["person", "index"])
        }

        @Test func manyToManyGetsOneJoinTable() {
            let model = Model(entities: [
                Entity(name: "Route", table: "routes", identity: ["id"], attributes: [Attribute(name: "id", type: .integer)],
                       relationships: [
                           Relationship(name: "stops", entity: "Stop", toMany: true, inverse: "routes"),
                           Relationship(name: "tags", entity: "Tag", toMany: true),
                       ]),
                Entity(name: "Stop", identity: ["id"], attributes: [Attribute(name: "id", type: .string)],
                       relationships: [Relationship(name: "routes", entity: "Route", toMany: true, inverse: "stops")]),
                Entity(name: "Tag", attributes: [Attribute(name: "label", type: .string)]),
            ])
            let layout = DatabaseLayout(model)
            #expect(layout.tables.map(\.name) == ["routes", "routes_stops", "routes_tags", "Stop", "Tag", "sluice_imports"])
            #expect(layout.table(named: "routes_stops")?.ddl == """
                CREATE TABLE IF NOT EXISTS "routes_stops" (
                  "source_pk" INTEGER,
                  "target_pk" INTEGER,
                  PRIMARY KEY("source_pk", "target_pk")
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS "routes_stops_target_pk" ON "routes_stops"("target_pk");
                """)
            #expect(layout.table(named: "Tag")?.ddl == """
                CREATE TABLE IF NOT EXISTS "Tag" (
                  "pk" INTEGER PRIMARY KEY,
                  "label" TEXT
                );
                """)
            let route = model.entities[0], stop = model.entities[1]
            #expect(layout.storage(of: route.relationships[0], in: route)
                == .joinTable(table: "routes_stops", sourceColumn: "source_pk", targetColumn: "target_pk"))
            #expect(layout.storage(of: stop.relationships[0], in: stop)
                == .joinTable(table: "routes_stops", sourceColumn: "target_pk", targetColumn: "source_pk"))
            #expect(layout.storage(of: route.relationships[1], in: route)
                == .joinTable(table: "routes_tags", sourceColumn: "source_pk", targetColumn: "target_pk"))
        }

        /// An ordered to-many keeps its order beside its links: in the target's table for one
        /// stored by its inverse, in the join table otherwise (`inverse_position` for the side
        /// that reads a shared join table swapped). Unordered relationships get no column.
        @Test func orderedToManysHaveAPositionColumn() {
            let model = Model(entities: [
                Entity(name: "Album", identity: ["id"], attributes: [Attribute(name: "id", type: .string)], relationships: [
                    Relationship(name: "tracks", entity: "Track", toMany: true, inverse: "album", ordered: true),
                    Relationship(name: "tags", entity: "Tag", toMany: true, inverse: "albums", ordered: true),
                    Relationship(name: "plain", entity: "Tag", toMany: true),
                ]),
                Entity(name: "Track", attributes: [Attribute(name: "id", type: .string)],
                       relationships: [Relationship(name: "album", entity: "Album", inverse: "tracks")]),
                Entity(name: "Tag", attributes: [Attribute(name: "id", type: .string)],
                       relationships: [Relationship(name: "albums", entity: "Album", toMany: true, inverse: "tags", ordered: true)]),
            ])
            let layout = DatabaseLayout(model)
            #expect(layout.table(named: "Track")?.columns.map(\.name) == ["pk", "id", "album_pk", "album_position"])
            #expect(layout.table(named: "Album_tags")?.columns.map(\.name)
                == ["source_pk", "target_pk", "position", "inverse_position"])
            #expect(layout.table(named: "Album_plain")?.columns.map(\.name) == ["source_pk", "target_pk"])
            let album = model.entities[0], tag = model.entities[2]
            #expect(album.relationships.map { layout.positionColumn(of: $0, in: album) } == ["album_position", "position", nil])
            #expect(layout.positionColumn(of: tag.relationships[0], in: tag) == "inverse_position")
        }

        @Test func identifiersAreQuoted() {
            #expect(quoteIdentifier("plain") == "\"plain\"")
            #expect(quoteIdentifier("a\"b") == "\"a\"\"b\"")
            let table = TableDefinition(name: "we\"ird", columns: [.init(name: "x\"y", sqlType: "TEXT")], indexes: [["x\"y"]])
            #expect(table.ddl == """
                CREATE TABLE IF NOT EXISTS "we""ird" (
                  "x""y" TEXT
                );
                CREATE INDEX IF NOT EXISTS "we""ird_x""y" ON "we""ird"("x""y");
                """)
        }

        /// A to-one's index leaves out NULLs, and SQLite still takes it for every lookup the
        /// stores and users make by that column: `=`, `IN` and a join.
        @Test func aToOnesPartialIndexServesLookupsAndJoins() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute(DatabaseLayout(Self.transit).ddl)
            for query in [#"SELECT "pk" FROM "stops" WHERE "parent_pk" = ?1"#,
                          #"SELECT "pk" FROM "stops" WHERE "parent_pk" IN (1, 2, 3)"#,
                          #"UPDATE "stops" SET "parent_pk" = NULL WHERE "parent_pk" IN (SELECT 1)"#,
                          #"SELECT c."pk" FROM "stops" AS p JOIN "stops" AS c ON c."parent_pk" = p."pk" WHERE p."stop_id" = 'x'"#] {
                let plan = try connection.rows("EXPLAIN QUERY PLAN " + query).map { $0.last?.textValue ?? "" }
                #expect(plan.contains { $0.contains("INDEX stops_parent_pk") }, "\(query): \(plan)")
            }
        }

        @Test func ddlRunsInSQLite() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute(DatabaseLayout(Self.transit).ddl)
            try connection.execute(DatabaseLayout(Self.transit).ddl)  // IF NOT EXISTS: idempotent
            let names = try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { $0[0] }
            #expect(names == [.text("sluice_imports"), .text("stop_times"), .text("stops")])
            // "pk" is an alias of the rowid.
            try connection.execute("INSERT INTO stops (stop_id) VALUES ('a')")
            #expect(try connection.integer("SELECT pk FROM stops") == connection.lastInsertRowID)
        }
    }
}
