import Foundation
import Testing
@testable import Sluice

/// An entity with no attributes is legal (`check` accepts it): a record that only exists, or
/// only links. Every shape of it imports, through the binary and standard input, with the
/// fast paths and with the general path alike.
@Suite struct EntityWithoutAttributesTests {
    static let model = #"{"root": {"items": "Item"}, "entities": {"Item": {"attributes": {}}}}"#

    @Test(arguments: [false, true])
    func emptyRecordsAreRows(generalPath: Bool) throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let environment = generalPath ? ["SLUICE_GENERAL_PATHS": "1"] : [:]

        let mapped = try workspace.sluice(["import", "--db", "a.sqlite", "--model", "model.json"],
                                          stdin: Array(#"{"items": [{}, {"ignored": [1, {"x": 2}]}, {}]}"#.utf8),
                                          environment: environment)
        #expect(mapped.status == 0, "\(mapped)")
        #expect(mapped.entityLines == ["Item: inserted 3, updated 0, unchanged 0, rejected 0"], "\(mapped)")
        #expect(try workspace.database("a.sqlite").rows(#"SELECT "pk" FROM "Item" ORDER BY "pk""#)
            == [[.integer(1)], [.integer(2)], [.integer(3)]])

        let entity = try workspace.sluice(["import", "--db", "b.sqlite", "--model", "model.json", "--entity", "Item"],
                                          stdin: Array("{}\n{}\n".utf8), environment: environment)
        #expect(entity.status == 0, "\(entity)")
        #expect(try workspace.database("b.sqlite").count("Item") == 2)
    }

    /// A record that only links: its row holds the to-one's column, and a nested record
    /// without attributes is linked like any other.
    @Test(arguments: [false, true])
    func recordsThatOnlyLink(generalPath: Bool) throws {
        let workspace = Workspace()
        try workspace.write("""
            {"root": "Tagging", "entities": {
              "Tagging": {"attributes": {}, "relationships": {"tag": {"entity": "Tag"}, "marker": {"entity": "Marker"}}},
              "Tag": {"identity": "name", "attributes": {"name": "string"}},
              "Marker": {"attributes": {}}}}
            """, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"],
                                          stdin: Array(#"[{"tag": {"name": "red"}, "marker": {}}, {"tag": "red"}, {}]"#.utf8),
                                          environment: generalPath ? ["SLUICE_GENERAL_PATHS": "1"] : [:])
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("out.sqlite")
        #expect(try db.rows(#"SELECT t."name", g."marker_pk" FROM "Tagging" g LEFT JOIN "Tag" t ON t."pk" = g."tag_pk" ORDER BY g."pk""#)
            == [[.text("red"), .integer(1)], [.text("red"), .null], [.null, .null]])
        #expect(try db.count("Marker") == 1)
        #expect(try db.count("Tag") == 1)
    }
}
