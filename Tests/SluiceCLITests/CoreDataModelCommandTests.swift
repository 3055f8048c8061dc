import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `--model` given a Core Data model, and `sluice convert-model`: the notes, the exit
/// statuses, and a converted model that imports the same database.
@Suite struct CoreDataModelCommandTests {
    private typealias Fixture = MagicalRecordFixture

    /// `sluice …` run in the package's root, so the model's path is the one a user types.
    private func sluiceInPackage(_ arguments: String...) throws -> SluiceResult {
        try SluiceRunner.run(arguments, in: PackageFiles.root)
    }

    @Test func checkPrintsEveryNoteAndPasses() throws {
        let result = try sluiceInPackage("check", "--model", Fixture.model)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(Fixture.model): ok, 12 entities, 10 notes\n")
        #expect(result.stderrLines == Fixture.notes.map { "sluice: note: \(Fixture.model): \($0)" })
    }

    @Test(arguments: ["/TestModel.xcdatamodel", "/TestModel.xcdatamodel/contents", "/"])
    func checkReadsEveryFormOfTheModel(_ suffix: String) throws {
        let model = Fixture.model + suffix
        let result = try sluiceInPackage("check", "--model", model)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(model): ok, 12 entities, 10 notes\n")
        #expect(result.stderrLines.count == 10)
    }

    @Test func checkWithAnEntityAndAPath() throws {
        let good = try sluiceInPackage("check", "--model", Fixture.model, "--entity", "MappedEntity", "--path", "data")
        #expect(good.status == 0, "\(good)")
        let bad = try sluiceInPackage("check", "--model", Fixture.model, "--entity", "Mapped")
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderrLines.last?.hasPrefix("sluice: error: \(Fixture.model): --entity: unknown entity \"Mapped\"") == true,
                "\(bad)")
    }

    @Test func schemaOfTheTestModel() throws {
        let result = try sluiceInPackage("schema", "--model", Fixture.model)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines == [
            "sluice: note: \(Fixture.model): 10 notes on the Core Data model; sluice check --model \(Fixture.model) lists them",
        ])
        let ddl = result.stdout
        #expect(ddl.contains("""
            CREATE TABLE IF NOT EXISTS "MappedEntity" (
              "pk" INTEGER PRIMARY KEY,
              "mappedEntityID" INTEGER,
              "nestedAttribute" TEXT,
              "sampleAttribute" TEXT,
              "testMappedEntityID" INTEGER
            );
            CREATE UNIQUE INDEX IF NOT EXISTS "MappedEntity_identity" ON "MappedEntity"("mappedEntityID");
            """), "\(ddl)")
        #expect(ddl.contains(#""mappedEntity_pk" INTEGER REFERENCES "MappedEntity"("pk")"#))
        #expect(ddl.contains(#"CREATE TABLE IF NOT EXISTS "SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey_mappedEntities" ("#))
        #expect(ddl.contains(#"CREATE TABLE IF NOT EXISTS "EntityWithDifferentClassName" ("#))
        for column in [#""decimalTestAttribute" TEXT"#, #""floatTestAttribute" REAL"#, #""colorTestAttribute" TEXT"#,
                       #""booleanTestAttribute" INTEGER"#, #""dateTestAttribute" TEXT"#] {
            #expect(ddl.contains(column), "\(column)")
        }
    }

    // MARK: convert-model

    @Test func convertedModelPassesCheckAndHasTheSameSchema() throws {
        let workspace = Workspace()
        let converted = try sluiceInPackage("convert-model", Fixture.model)
        #expect(converted.status == 0, "\(converted)")
        #expect(converted.stderrLines == Fixture.notes.map { "sluice: note: \(Fixture.model): \($0)" })
        try workspace.write(converted.stdout, to: "model.json")

        let check = try workspace.sluice("check", "--model", "model.json")
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout == "model.json: ok, 12 entities\n")
        #expect(check.stderr == "")

        let schema = try workspace.sluice("schema", "--model", "model.json")
        let coreDataSchema = try sluiceInPackage("schema", "--model", Fixture.model)
        #expect(schema.stdout == coreDataSchema.stdout)
        #expect(schema.stderr == "")
    }

    @Test func convertedModelImportsTheSameDatabase() throws {
        let workspace = Workspace()
        let converted = try sluiceInPackage("convert-model", Fixture.model)
        try #require(converted.status == 0, "\(converted)")
        try workspace.write(converted.stdout, to: "model.json")
        let setup: [(entity: String, json: [UInt8])] = [
            ("MappedEntity", Array(#"[{"mappedEntityID": 42, "sampleAttribute": "setup"}, {"id": 7}]"#.utf8)),
            ("SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey", Array(#"{"testPrimaryKey": 84, "mappedEntities": [7]}"#.utf8)),
        ]
        let fixtures = [
            ("SingleEntityWithNoRelationships", "SingleEntityWithNoRelationships.json"),
            ("SingleEntityRelatedToMappedEntityUsingDefaults", "SingleEntityRelatedToMappedEntityUsingDefaults.json"),
            ("SingleEntityRelatedToMappedEntityUsingMappedPrimaryKey", "SingleEntityRelatedToMappedEntityUsingMappedPrimaryKey.json"),
            ("SingleEntityRelatedToMappedEntityWithNestedMappedAttributes", "SingleEntityRelatedToMappedEntityWithNestedMappedAttributes.json"),
            ("SingleEntityRelatedToMappedEntityWithSecondaryMappings", "SingleEntityRelatedToMappedEntityWithSecondaryMappings.json"),
            ("SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey", "SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey.json"),
            ("SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey", "SingleEntityRelatedToManyMappedEntitiesUsingListOfPrimaryKeys.json"),
            ("SingleRelatedEntity", "SingleRelatedEntity.json"),
        ]
        let inputs = try setup + fixtures.map { (entity: $0.0, json: try Fixture.bytes($0.1)) }
        for input in inputs {
            try workspace.importThroughTestModel(input.json, entity: input.entity, db: "coredata.sqlite")
            try workspace.importThroughTestModel(input.json, entity: input.entity, db: "json.sqlite",
                                                 model: workspace.file("model.json"))
        }
        let coreData = try Fixture.dump(workspace.database("coredata.sqlite"))
        // 11 entity tables (ConcreteRelatedEntity is in its parent's) and 3 join tables;
        // MappedEntity: 2 set up, 6 new (ids 42, 50, 1…4), 2 found.
        #expect(coreData.count == 14)
        #expect(coreData["MappedEntity"]?.count == 8)
        #expect(try Fixture.dump(workspace.database("json.sqlite")) == coreData)
    }

    @Test func convertModelRefusesAJSONModel() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let result = try workspace.sluice("convert-model", "model.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: 'model.json' is not a Core Data model (a .xcdatamodeld, a .xcdatamodel, or its contents file)",
        ])
        #expect(result.stdout == "")
    }

    // MARK: import

    @Test func importCountsTheNotesUnlessQuiet() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Fixture.model)
        let input = Array(#"{"mappedEntityID": 1}"#.utf8)
        let loud = try workspace.sluice(["import", "--db", "a.sqlite", "--model", model, "--entity", "MappedEntity"], stdin: input)
        #expect(loud.status == 0, "\(loud)")
        #expect(loud.stderrLines.first == "sluice: note: \(model): 10 notes on the Core Data model; sluice check --model \(model) lists them")
        let quiet = try workspace.sluice(["import", "--db", "b.sqlite", "--model", model, "--entity", "MappedEntity", "--quiet"],
                                         stdin: input)
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.stderr == "")
        // The import log holds the digest of the model's contents file.
        let digest = SHA256.hex(of: try Fixture.bytes("TestModel.xcdatamodeld/TestModel.xcdatamodel/contents"))
        #expect(try workspace.database("a.sqlite").scalar("SELECT model_sha256 FROM sluice_imports") == .text(digest))
    }

    @Test func importNeedsAnEntity() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Fixture.model)
        let result = try workspace.sluice(["import", "--db", "a.sqlite", "--model", model, "--quiet"], stdin: Array("{}".utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: \(model): root: the model has no root and 12 entities: say which entity the records are with --entity, or each key's (or file's) with --root KEY=ENTITY",
        ])
    }

    // MARK: Dates

    /// A Date without `dateFormat` reads ISO 8601 (MagicalRecord's default pattern
    /// `yyyy-MM-dd'T'HH:mm:ssz` reads fewer forms, but also `GMT` zones); with that pattern
    /// given, `z` reads `Z`, offsets and `GMT`/`UTC` with an offset, not zone names.
    @Test func datesWithAndWithoutMagicalRecordsDefaultPattern() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: """
            <entity name="D">
              <attribute name="iso" optional="YES" attributeType="Date"/>
              <attribute name="mr" optional="YES" attributeType="Date">
                <userInfo><entry key="dateFormat" value="yyyy-MM-dd'T'HH:mm:ssz"/></userInfo>
              </attribute>
            </entity>
            """, to: "D.xcdatamodel")
        let cases: [(text: String, iso: String?, pattern: String?)] = [
            ("2011-07-23T22:30:40Z", "2011-07-23T22:30:40Z", "2011-07-23T22:30:40Z"),
            ("2011-07-23T22:30:40+02:00", "2011-07-23T20:30:40Z", "2011-07-23T20:30:40Z"),
            ("2011-07-23T22:30:40+0200", "2011-07-23T20:30:40Z", "2011-07-23T20:30:40Z"),
            ("2011-07-23T22:30:40GMT+02:00", nil, "2011-07-23T20:30:40Z"),
            ("2011-07-23T22:30:40GMT", nil, "2011-07-23T22:30:40Z"),
            ("2011-07-23T22:30:40PST", nil, nil),
            ("2011-07-23T22:30:40.25Z", "2011-07-23T22:30:40.250Z", nil),
            ("2011-07-23T22:30:40", "2011-07-23T22:30:40Z", nil),
            ("2011-07-23", "2011-07-23T00:00:00Z", nil),
        ]
        for (index, test) in cases.enumerated() {
            for (attribute, expected) in [("iso", test.iso), ("mr", test.pattern)] {
                let db = "d\(index)\(attribute).sqlite"
                let result = try workspace.sluice(["import", "--db", db, "--model", "D.xcdatamodel", "--entity", "D", "--quiet"],
                                                  stdin: Array(#"{"\#(attribute)": "\#(test.text)"}"#.utf8))
                if let expected {
                    #expect(result.status == 0, "\(attribute) \(test.text): \(result)")
                    #expect(try workspace.database(db).scalar("SELECT \(attribute) FROM D") == .text(expected))
                } else {
                    #expect(result.status == 65, "\(attribute) \(test.text): \(result)")
                }
            }
        }
    }

    // MARK: Broken models

    @Test func malformedXMLIsOneErrorLine() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel("<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n</model>\n", to: "Broken.xcdatamodel")
        for command in [["check"], ["schema"], ["import", "--db", "a.sqlite", "--entity", "A"]] {
            let result = try workspace.sluice(command + ["--model", "Broken.xcdatamodel"], stdin: Array("{}".utf8))
            #expect(result.status == 64, "\(result)")
            // libxml2's last message, at its place (the words differ between libxml2 versions).
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(result.stderrLines.first?.hasPrefix("sluice: error: Broken.xcdatamodel/contents:") == true, "\(result)")
            #expect(result.stderrLines.first?.contains(": not XML: ") == true, "\(result)")
        }
        #expect(!workspace.exists("a.sqlite"))
        let converted = try workspace.sluice("convert-model", "Broken.xcdatamodel")
        #expect(converted.status == 64, "\(converted)")
        #expect(converted.stdout == "")
    }

    @Test func aModelThatCannotImportFailsCheck() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: """
            <entity name="A">
              <attribute name="pk" optional="YES" attributeType="Integer 64"/>
              <attribute name="shade" optional="YES" attributeType="Transformable" valueTransformerName="T"/>
            </entity>
            """, to: "M.xcdatamodel")
        let result = try workspace.sluice("check", "--model", "M.xcdatamodel")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [#"sluice: error: M.xcdatamodel: entities.A.attributes.pk: column "pk" is reserved for the primary key"#])

        try workspace.writeCoreDataModel("<plist version=\"1.0\"><dict/></plist>", to: "M.xcdatamodel")
        let notAModel = try workspace.sluice("check", "--model", "M.xcdatamodel")
        #expect(notAModel.status == 64, "\(notAModel)")
        #expect(notAModel.stderrLines == ["sluice: error: M.xcdatamodel: not a Core Data model: the document is <plist>, not <model>"])
    }

    @Test func aMissingModel() throws {
        let workspace = Workspace()
        let result = try workspace.sluice("check", "--model", "Nope.xcdatamodeld")
        #expect(result.status == 66, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot open model 'Nope.xcdatamodeld': No such file or directory"])
    }
}
