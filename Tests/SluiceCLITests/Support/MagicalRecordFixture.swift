import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// MagicalRecord's import test model and fixtures (`Tests/Fixtures/MagicalRecord`), imported
/// through the Core Data model itself, as MagicalRecord's users would.
enum MagicalRecordFixture {
    static let folder = "Tests/Fixtures/MagicalRecord"
    static let model = folder + "/TestModel.xcdatamodeld"

    static func bytes(_ fixture: String) throws -> [UInt8] {
        try PackageFiles.bytes(folder + "/" + fixture)
    }

    /// What `sluice check` notes about the test model, in document order (after
    /// `sluice: note: MODEL: `).
    static let notes = [
        #"entities.ConcreteRelatedEntity: the identity "sampleConcreteAttribute" is not used: a child entity inherits its identity from AbstractRelatedEntity ("sampleBaseAttribute")"#,
        "entities.MappedEntity.attributes.mappedEntityID.defaultValueString: not used: an identity takes no default (records without one would clash)",
        #"entities.MappedEntity.userInfo.relatedByAttribute: names no attribute "mapped"; the identity is "mappedEntityID", as without relatedByAttribute"#,
        "entities.SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey.attributes.testPrimaryKey.defaultValueString: not used: an identity takes no default (records without one would clash)",
        #"entities.SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey.relationships.mappedEntities.userInfo.relatedByAttribute: bare ids match "testMappedEntityID"; nested objects are found by MappedEntity's identity "mappedEntityID""#,
        "entities.SingleEntityRelatedToMappedEntityUsingDefaults.attributes.singleEntityRelatedToMappedEntityUsingDefaultsID.defaultValueString: not used: an identity takes no default (records without one would clash)",
        #"entities.SingleEntityRelatedToMappedEntityUsingMappedPrimaryKey.relationships.mappedEntity.userInfo.relatedByAttribute: bare ids match "testMappedEntityID"; nested objects are found by MappedEntity's identity "mappedEntityID""#,
        "entities.SingleEntityWithNoRelationships.attributes.colorTestAttribute.userInfo.attributeValueClassName: not supported: the value is stored as JSON text, not converted to an object of a class",
        #"entities.SingleRelatedEntity.relationships.testConcreteToManyRelationship.userInfo.relatedByAttribute: bare ids match "sampleConcreteAttribute"; nested objects are found by ConcreteRelatedEntity's identity "sampleBaseAttribute""#,
        #"entities.SingleRelatedEntity.relationships.testConcreteToOneRelationship.userInfo.relatedByAttribute: bare ids match "sampleConcreteAttribute"; nested objects are found by ConcreteRelatedEntity's identity "sampleBaseAttribute""#,
    ]

    /// The tables of the model's entities and their join tables: everything but the import log.
    static func dataTables(_ db: TestDatabase) throws -> [String] {
        try db.tables().filter { $0 != "sluice_imports" }
    }

    /// Every row of every data table, to compare two databases.
    static func dump(_ db: TestDatabase) throws -> [String: [[ColumnValue]]] {
        var dump: [String: [[ColumnValue]]] = [:]
        for table in try dataTables(db) {
            let columns = try db.rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid").compactMap { $0.first?.text }
            dump[table] = try db.rows("SELECT * FROM \"\(table)\" ORDER BY " + columns.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return dump
    }
}

extension Workspace {
    /// Writes `xml` as the `contents` of a `.xcdatamodel` folder `name` here.
    func writeCoreDataModel(_ xml: String, to name: String) throws {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
        try write(xml, to: name + "/contents")
    }

    /// Writes a `.xcdatamodel` folder `name` whose `<model>` holds `entities`.
    func writeCoreDataModel(entities: String, to name: String) throws {
        try writeCoreDataModel("<?xml version=\"1.0\"?>\n<model>\n" + entities + "\n</model>\n", to: name)
    }

    /// Imports `input` as records of `entity` into `db` through the test model (or `model`),
    /// and requires it to succeed.
    @discardableResult
    func importThroughTestModel(_ input: [UInt8], entity: String, db: String = "mr.sqlite",
                                model: String = PackageFiles.path(MagicalRecordFixture.model),
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> SluiceResult {
        let result = try sluice(["import", "--db", db, "--model", model, "--entity", entity], stdin: input)
        try #require(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    func importThroughTestModel(_ json: String, entity: String, db: String = "mr.sqlite",
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        try importThroughTestModel(Array(json.utf8), entity: entity, db: db, sourceLocation: sourceLocation)
    }
}
