import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `sluice schema` and `sluice check`: what they print and their exit statuses.
@Suite struct SchemaAndCheckTests {
    @Test func schemaPrintsTheTransitDDL() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Fixtures.transitModel)

        let result = try workspace.sluice("schema", "--model", model)

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let ddl = result.stdout
        for table in ["stops", "routes", "trips", "stop_times", "sluice_imports"] {
            #expect(ddl.contains("CREATE TABLE IF NOT EXISTS \"\(table)\" ("), "table \(table)")
        }
        #expect(ddl.contains(#"CREATE UNIQUE INDEX IF NOT EXISTS "stops_identity" ON "stops"("stopID");"#), "\(ddl)")
        #expect(ddl.contains(#"CREATE UNIQUE INDEX IF NOT EXISTS "stop_times_identity" ON "stop_times"("tripID", "sequence");"#),
                "\(ddl)")
        #expect(ddl.contains(#""parent_pk" INTEGER REFERENCES "stops"("pk")"#), "\(ddl)")
        #expect(ddl.hasSuffix(";\n"))
        // The schema is the one an import makes: no to-many of the transit model has a join table.
        #expect(!ddl.contains("stops_stopTimes"))
    }

    @Test func schemaOfAnImportMatchesTheDDL() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Fixtures.transitModel)
        let schema = try workspace.sluice("schema", "--model", model)
        try #require(schema.status == 0, "\(schema)")
        let imported = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, "--quiet",
                                            stdin: try PackageFiles.bytes(Fixtures.transitSample))
        try #require(imported.status == 0, "\(imported)")

        // Every table and index the import created is named in `schema`'s output.
        let names = try workspace.database("t.sqlite").rows(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name")
        #expect(names.count >= 5)
        for name in names.compactMap(\.first?.text) {
            #expect(schema.stdout.contains("\"\(name)\""), "\(name) is in the DDL")
        }
    }

    @Test func schemaOfAMissingModel() throws {
        let workspace = Workspace()
        let result = try workspace.sluice("schema", "--model", "nope.json")
        #expect(result.status == 66, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot open model 'nope.json': No such file or directory"], "\(result)")
        #expect(result.stdout == "")
    }

    @Test func checkAcceptsTheTransitModel() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Fixtures.transitModel)

        let result = try workspace.sluice("check", "--model", model)

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(model): ok, 4 entities\n")
        #expect(result.stderr == "")
    }

    @Test func checkOneEntity() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let result = try workspace.sluice("check", "--model", "model.json")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "model.json: ok, 1 entity\n")
    }

    @Test func checkListsEveryProblem() throws {
        let workspace = Workspace()
        try workspace.write(ErrorReportingTests.brokenModel, to: "model.json")

        let result = try workspace.sluice("check", "--model", "model.json")

        #expect(result.status == 64, "\(result)")
        #expect(result.stdout == "")
        let lines = result.stderrLines
        #expect(lines.count == 2, "\(result)")
        #expect(lines.allSatisfy { $0.hasPrefix("sluice: error: model.json: entities.T.") }, "\(result)")
        #expect(lines.contains { $0.hasPrefix("sluice: error: model.json: entities.T.identity: ") && $0.contains("\"nope\"") })
        #expect(lines.contains { $0.hasPrefix("sluice: error: model.json: entities.T.attributes.n.type: ") && $0.contains("\"flaot\"") })
    }

    @Test func checkWithEntityAndPath() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")

        let good = try workspace.sluice("check", "--model", "model.json", "--entity", "T", "--path", "data.items")
        #expect(good.status == 0, "\(good)")
        #expect(good.stdout == "model.json: ok, 1 entity\n")

        let bad = try workspace.sluice("check", "--model", "model.json", "--entity", "Nope")
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderrLines.count == 1, "\(bad)")
        #expect(bad.stderrLines == [#"sluice: error: model.json: --entity: unknown entity "Nope"; the model has: T"#], "\(bad)")
        #expect(bad.stdout == "")
    }

    // MARK: Suggestions

    @Test func misspeltFieldSuggestsTheNearestOne() throws {
        let workspace = Workspace()
        try workspace.write("""
            { "entities": { "Stop": { "idnetity": "id", "attributes": { "id": { "type": "string", "optinal": false } } } } }
            """, to: "model.json")

        let result = try workspace.sluice("check", "--model", "model.json")

        #expect(result.status == 64, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.Stop.idnetity: unknown field; did you mean "identity"?"#,
            #"sluice: error: model.json: entities.Stop.attributes.id.optinal: unknown field; did you mean "optional"?"#,
        ], "\(result)")
    }

    @Test func unknownEntityListsTheModelsEntities() throws {
        let workspace = Workspace()
        try workspace.write(try PackageFiles.bytes(Fixtures.transitModel), to: "model.json")
        let expected = #"sluice: error: model.json: --entity: unknown entity "Stp"; "#
            + #"the model has: Route, Stop, StopTime, Trip; did you mean "Stop"?"#

        let check = try workspace.sluice("check", "--model", "model.json", "--entity", "Stp")
        #expect(check.status == 64, "\(check)")
        #expect(check.stderrLines == [expected], "\(check)")

        let imported = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", "--entity", "Stp",
                                            stdin: Array("[]".utf8))
        #expect(imported.status == 64, "\(imported)")
        #expect(imported.stderrLines == [expected], "\(imported)")
        #expect(!workspace.exists("t.sqlite"))
    }

    @Test func unknownRelationshipTargetListsTheModelsEntities() throws {
        let workspace = Workspace()
        try workspace.write("""
            { "entities": { "Stop": { "attributes": { "id": "string" }, "relationships": { "parent": { "entity": "Stpo" } } },
                            "Trip": { "attributes": { "id": "string" } } } }
            """, to: "model.json")

        let result = try workspace.sluice("check", "--model", "model.json")

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.Stop.relationships.parent.entity: unknown entity "Stpo"; "#
                + #"the model has: Stop, Trip; did you mean "Stop"?"#,
        ], "\(result)")
    }

    @Test func checkOfAModelThatIsNotJSON() throws {
        let workspace = Workspace()
        try workspace.write("{ \"entities\": { ", to: "model.json")
        let result = try workspace.sluice("check", "--model", "model.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: model.json") == true, "\(result)")
    }
}
