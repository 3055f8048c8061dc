import Foundation
import Testing
@testable import Sluice

/// A new database never meets an old `-journal`, `-wal` or `-shm` (`docs/cli.md`, new
/// databases): one left beside a database that does not exist (a killed writer's, whose
/// database was then deleted or moved) is removed just before the new file moves into place,
/// with a note naming it. Left there, the first program to open the new file would roll the
/// stranger's pages into it.
@Suite struct StaleCompanionTests {
    static let itemModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item" representedClassName="Item">
                <attribute name="id" attributeType="Integer 64"/>
                <attribute name="n" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    static let input = Array((1...3).map { "{\"id\": \($0), \"n\": \"row \($0)\"}\n" }.joined().utf8)

    /// The three ways a new database is made.
    enum Kind: String, CaseIterable, Sendable {
        case sqlite, vacuumed, coreData

        var arguments: [String] {
            switch self {
            case .sqlite: ["--model", "model.json"]
            case .vacuumed: ["--model", "model.json", "--vacuum"]
            case .coreData: ["--layout", "coredata", "--model", "Item.xcdatamodel", "--entity", "Item"]
            }
        }

        var table: String { self == .coreData ? "ZITEM" : "t" }
        var column: String { self == .coreData ? "ZN" : "n" }
    }

    /// A workspace with both models and, beside the new database's path `new.sqlite`, the
    /// `suffix` file of another database `other.sqlite` caught in the middle of a write.
    private func prepared(_ suffix: String) throws -> Workspace {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.writeCoreDataModel(Self.itemModel, to: "Item.xcdatamodel")
        let other = workspace.file("other.sqlite")
        let writer = try Connection(path: other, mode: .create)
        defer { writer.close() }
        let walMode = suffix != "-journal"
        try writer.execute("""
            PRAGMA page_size=16384;
            PRAGMA journal_mode=\(walMode ? "WAL" : "DELETE");
            PRAGMA wal_autocheckpoint=0;
            CREATE TABLE t (pk INTEGER PRIMARY KEY, id INTEGER, n TEXT);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2000)
            INSERT INTO t (id, n) SELECT i, printf('%.200c', 'x') FROM k;
            """)
        if !walMode {
            // A small cache spills the transaction's pages into the file: its journal is hot.
            try writer.execute("PRAGMA cache_size=2; BEGIN; DELETE FROM t WHERE id > 10; DROP TABLE t;")
        }
        try FileManager.default.copyItem(atPath: other + suffix, toPath: workspace.file("new.sqlite" + suffix))
        if !walMode { try writer.execute("ROLLBACK") }
        return workspace
    }

    static let cases = ["-journal", "-wal", "-shm"].flatMap { suffix in Kind.allCases.map { (suffix, $0) } }

    @Test(arguments: cases)
    func aStaleCompanionOfANewDatabaseIsRemovedBeforeItMovesIntoPlace(_ suffix: String, _ kind: Kind) throws {
        let workspace = try prepared(suffix)
        let before = Set(workspace.contents)

        let result = try workspace.sluice(["import", "--db", "new.sqlite"] + kind.arguments + ["-"], stdin: Self.input)

        #expect(result.status == 0, "\(result)")
        let role = ["-journal": "rollback journal", "-wal": "write-ahead log", "-shm": "shared-memory file"][suffix]!
        #expect(result.noteLines == ["sluice: note: removed the stale \(role) 'new.sqlite\(suffix)': there was no database "
            + "'new.sqlite', and SQLite would have taken it for the new one's"], "\(result)")
        #expect(Set(workspace.contents) == before.subtracting(["new.sqlite" + suffix]).union(["new.sqlite"]))
        // Opened for writing, as an app opens it: a hot journal or a WAL would be applied now.
        let reader = try Connection(path: workspace.file("new.sqlite"), mode: .readWrite)
        defer { reader.close() }
        #expect(try reader.scalar("PRAGMA integrity_check")?.text == "ok")
        let rows = try reader.rows("SELECT \(kind.column) FROM \(kind.table) ORDER BY 1").map { $0[0].text }
        #expect(rows == ["row 1", "row 2", "row 3"])
    }

    /// A folder where SQLite keeps a companion cannot be removed as a stale file: the import
    /// is refused before it starts (73), and nothing is created.
    @Test(arguments: Kind.allCases)
    func aFolderInACompanionsPlaceIsRefused(_ kind: Kind) throws {
        let workspace = try prepared("-shm")
        try FileManager.default.removeItem(atPath: workspace.file("new.sqlite-shm"))
        try FileManager.default.createDirectory(atPath: workspace.file("new.sqlite-journal"), withIntermediateDirectories: false)
        let before = Set(workspace.contents)

        let result = try workspace.sluice(["import", "--db", "new.sqlite"] + kind.arguments + ["-"], stdin: Self.input)

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot create database 'new.sqlite': 'new.sqlite-journal' is a folder, "
            + "where SQLite keeps the database's rollback journal; remove or rename it"], "\(result)")
        #expect(Set(workspace.contents) == before)
    }

    /// An existing database's companions are its own: an import into it leaves them to SQLite.
    @Test func anExistingDatabasesWALIsItsOwn() throws {
        let workspace = try prepared("-shm")
        try FileManager.default.removeItem(atPath: workspace.file("new.sqlite-shm"))
        let other = try Connection(path: workspace.file("other.sqlite"), mode: .readWrite)
        defer { other.close() }
        try other.execute("INSERT INTO t (id, n) VALUES (9999, 'in the WAL')")

        let result = try workspace.sluice(["import", "--db", "other.sqlite", "--model", "model.json", "-"], stdin: Self.input)

        #expect(result.status == 0, "\(result)")
        #expect(result.noteLines == [], "\(result)")
        #expect(try other.scalar("SELECT count(*) FROM t WHERE n = 'in the WAL'")?.integer == 1)
    }
}
