import Testing
@testable import Sluice

/// The row of a refused `COPY`, read from the server's CONTEXT (`PostgresConnection.rowOfCopy`).
@Suite struct PostgresCopyContextTests {
    @Test func theLineOfTheCopyIntoTheTableIsItsRow() {
        #expect(PostgresConnection.rowOfCopy(in: "COPY items, line 3", table: "items") == 2)
        #expect(PostgresConnection.rowOfCopy(in: #"COPY items, line 12, column n: "x""#, table: "items") == 11)
        // A trigger's function speaks first, with a line of its own.
        #expect(PostgresConnection.rowOfCopy(in: "PL/pgSQL function refuse() line 3 at RAISE\nCOPY items, line 7", table: "items") == 6)
    }

    @Test func anotherTableOrNoLineIsNoRow() {
        #expect(PostgresConnection.rowOfCopy(in: "COPY items_2, line 3", table: "items") == nil)
        #expect(PostgresConnection.rowOfCopy(in: "COPY items, line 0", table: "items") == nil)
        #expect(PostgresConnection.rowOfCopy(in: "SQL statement \"UPDATE items\"", table: "items") == nil)
        #expect(PostgresConnection.rowOfCopy(in: nil, table: "items") == nil)
    }
}
