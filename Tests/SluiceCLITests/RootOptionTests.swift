import Foundation
import Testing
@testable import Sluice

/// `--root KEY=ENTITY` (`docs/cli.md`): a model without a `root` (as every Core Data model)
/// imports a document holding several record arrays; a model's own root is added to or
/// overridden; what cannot work is a usage error. Through the binary, in every store.
@Suite struct RootOptionTests {
    static let stores = StoreKind.allCases

    /// Two entities and no root: without `--entity` or `--root` no import can say where the records are.
    static let rootless = """
        { "entities": {
            "Stop": { "identity": "id", "attributes": { "id": "string", "name": "string" } },
            "Trip": { "identity": "id", "attributes": { "id": "string" },
                      "relationships": { "stop": { "entity": "Stop", "key": "stop_id" } } } } }
        """

    static let document = #"{"trips": [{"id": "t1", "stop_id": "s2"}], "stops": [{"id": "s1", "name": "A"}, {"id": "s2", "name": "B"}], "other": [1]}"#

    @Test(arguments: stores)
    func aModelWithoutRootImportsSeveralArrays(_ store: StoreKind) throws {
        let workspace = Workspace()
        try workspace.write(Self.rootless, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let bare = try db.sluiceImport("--model", "model.json", stdin: Array(Self.document.utf8))
        #expect(bare.status == 64)
        #expect(bare.stderrLines.last == "sluice: error: model.json: root: the model has no root and 2 entities: say which entity "
            + "the records are with --entity, or each key's (or file's) with --root KEY=ENTITY", "\(bare)")

        let arguments = ["--model", "model.json", "--root", "stops=Stop", "--root", "trips=Trip"]
        let first = try workspace.sluice(["import", "--db", db.target] + arguments, stdin: Array(Self.document.utf8))
        #expect(first.status == 0, "\(first)")
        #expect(try db.rows(#"SELECT "id", "name" FROM "Stop" ORDER BY "pk""#) == ["s1|A", "s2|B"])
        #expect(try db.rows(#"SELECT t."id", s."id" FROM "Trip" t JOIN "Stop" s ON t."stop_pk" = s."pk""#) == ["t1|s2"])

        let second = try workspace.sluice(["import", "--db", db.target] + arguments, stdin: Array(Self.document.utf8))
        #expect(second.status == 0, "\(second)")
        #expect(second.entityLines.last == "total: inserted 0, updated 0, unchanged 3, rejected 0, links 0, unresolved 0", "\(second)")
    }

    /// A key the model's root maps takes the entity `--root` gives; the others stay.
    @Test func overridesAndAddsToTheModelsRoot() throws {
        let workspace = Workspace()
        try workspace.write("""
            { "root": { "stops": "Stop", "trips": "Trip" },
              "entities": {
                "Stop": { "identity": "id", "attributes": { "id": "string", "name": "string" } },
                "Station": { "identity": "id", "attributes": { "id": "string", "name": "string" } },
                "Trip": { "identity": "id", "attributes": { "id": "string" } } } }
            """, to: "model.json")
        let input = #"{"stops": [{"id": "a", "name": "A"}], "trips": [{"id": "t"}], "stations": [{"id": "x", "name": "X"}]}"#
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json",
                                           "--root", "stops=Station", "--root", "stations=Stop"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows("SELECT id, name FROM Station") == [[.text("a"), .text("A")]])
        #expect(try database.rows("SELECT id, name FROM Stop") == [[.text("x"), .text("X")]])
        #expect(try database.rows("SELECT id FROM Trip") == [[.text("t")]])
    }

    /// A model whose root names the entity of the top-level records: `--root` replaces it, as
    /// the top-level value cannot be records and an object holding them at once. A key path
    /// reaches into an envelope, and a key given twice takes the last entity.
    @Test func replacesARootNamingTheTopLevelEntity() throws {
        let workspace = Workspace()
        try workspace.write("""
            { "root": "Stop",
              "entities": { "Stop": { "identity": "id", "attributes": { "id": "string" } },
                            "Trip": { "identity": "id", "attributes": { "id": "string" } } } }
            """, to: "model.json")
        let input = #"{"data": {"stops": [{"id": "a"}]}, "trips": [{"id": "t"}]}"#
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--root", "data.stops=Trip",
                                           "--root", "data.stops=Stop", "--root", "trips=Trip"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows("SELECT id FROM Stop") == [[.text("a")]])
        #expect(try database.rows("SELECT id FROM Trip") == [[.text("t")]])
    }

    @Test(arguments: [
        (["--root", "stops=Stp"], #"sluice: error: model.json: --root stops=Stp: unknown entity "Stp"; the model has: Stop, Trip; did you mean "Stop"?"#),
        (["--root", "stops"], #"sluice: error: --root "stops": expected KEY=ENTITY, e.g. --root stops=Stop or --root stops.txt=Stop"#),
        (["--root", "=Stop"], #"sluice: error: --root "=Stop": expected KEY=ENTITY, e.g. --root stops=Stop or --root stops.txt=Stop"#),
        (["--root", "stops="], #"sluice: error: --root "stops=": expected KEY=ENTITY, e.g. --root stops=Stop or --root stops.txt=Stop"#),
        (["--root", "a..b=Stop"], #"sluice: error: --root "a..b=Stop": expected KEY=ENTITY, KEY a key path (stops, data.items) or a file name (stops.txt), ENTITY an entity of the model"#),
        (["--root", "stops=Stop", "--entity", "Stop"], "sluice: error: --root and --entity cannot be used together: --root names the entity of each key or file, --entity (with --path, --map-key, --header) one entity for all the records"),
        (["--root", "stops=Stop", "--path", "data"], "sluice: error: --root and --path cannot be used together: --root names the entity of each key or file, --entity (with --path, --map-key, --header) one entity for all the records"),
    ])
    func whatCannotWorkIsAUsageError(_ arguments: [String], _ message: String) throws {
        let workspace = Workspace()
        try workspace.write(Self.rootless, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"] + arguments,
                                          stdin: Array(Self.document.utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [message], "\(result)")
        #expect(!workspace.exists("out.sqlite"))
    }

    @Test func needsAModel() throws {
        let workspace = Workspace()
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--root", "stops=Stop"], stdin: Array(Self.document.utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: --root needs --model: without a model, the records go to one table"])
    }
}
