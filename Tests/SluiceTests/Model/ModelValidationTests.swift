import Foundation
import Testing
@testable import Sluice

@Suite struct ModelValidationTests {
    @Test func manyMistakesAreAllReportedInDocumentOrder() {
        let problems = modelProblems("""
            {
              "root": { "stops": "Stpo", "trips": "Trip" },
              "version": 2,
              "entities": {
                "Stop": {
                  "table": "stops",
                  "identity": ["stop_id", "stopID", "stopID"],
                  "attributes": {
                    "stopID": { "type": "string", "key": "stop_id" },
                    "lat":    { "type": "flaot", "key": "stop_lat", "optional": "yes" },
                    "lon":    { "key": 3 },
                    "code":   "strin",
                    "opened": { "type": "string", "dateFormat": "yyyy" },
                    "name":   { "type": "string", "column": "code" },
                    "pk":     "integer",
                    "stopID": "string"
                  },
                  "relationships": {
                    "parent": { "entity": "Stop", "key": "parent_station", "merge": "add" },
                    "route":  { "entity": "Rout" },
                    "trips":  { "entity": "Trip", "toMany": true, "inverse": "route", "column": "x", "merge": "all" },
                    "extra":  { "entity": "Trip", "relatedBy": "nope", "unresolved": "maybe", "color": "red" }
                  },
                  "colour": "red"
                },
                "Trip": {
                  "table": "Stops",
                  "identity": "tripID",
                  "attributes": { "tripID": "string" },
                  "relationships": {
                    "route":  { "entity": "Stop" },
                    "stops":  { "entity": "Stop", "toMany": true, "inverse": "route" },
                    "others": { "entity": "Stop", "toMany": true, "inverse": "nothing" }
                  }
                }
              }
            }
            """)
        #expect(problems == [
            #"root.stops: unknown entity "Stpo"; the model has: Stop, Trip; did you mean "Stop"?"#,
            "version: unknown field",
            #"entities.Stop.identity: "stopID" is listed twice"#,
            #"entities.Stop.identity: "stop_id" is not an attribute or to-one relationship of Stop; did you mean "stopID"?"#,
            #"entities.Stop.attributes.lat.type: unknown type "flaot""#,
            "entities.Stop.attributes.lat.optional: expected a boolean",
            "entities.Stop.attributes.lon.key: expected a string or an array of strings",
            "entities.Stop.attributes.lon.type: missing",
            #"entities.Stop.attributes.code: unknown type "strin""#,
            "entities.Stop.attributes.opened.dateFormat: only date attributes take a dateFormat",
            #"entities.Stop.attributes.name.column: column "code" is also the column of attribute code"#,
            #"entities.Stop.attributes.pk: column "pk" is reserved for the primary key"#,
            #"entities.Stop.attributes: duplicate field "stopID""#,
            "entities.Stop.relationships.parent.merge: only to-many relationships take a merge policy",
            #"entities.Stop.relationships.route.entity: unknown entity "Rout"; the model has: Stop, Trip"#,
            "entities.Stop.relationships.trips.column: only to-one relationships take a column",
            #"entities.Stop.relationships.trips.merge: unknown merge policy "all" (expected add or replace)"#,
            #"entities.Stop.relationships.extra.relatedBy: "nope" is not an attribute of Trip"#,
            #"entities.Stop.relationships.extra.unresolved: unknown unresolved policy "maybe" "#
                + "(expected null, stub or fail)",
            "entities.Stop.relationships.extra.color: unknown field",
            "entities.Stop.colour: unknown field",
            #"entities.Trip.table: table "Stops" is also the table of Stop"#,
            #"entities.Trip.relationships.stops.inverse: "route" of Stop relates to Rout, not to Trip"#,
            #"entities.Trip.relationships.others.inverse: "nothing" is not a relationship of Stop"#,
        ])
    }

    /// `deleteRule` takes Core Data's four rules by name; anything else is a problem at its place.
    @Test func deleteRules() throws {
        let text = """
            {"entities": {
              "Trip": {"identity": "tripID", "attributes": {"tripID": "string"},
                       "relationships": {"stops": {"entity": "Stop", "toMany": true, "deleteRule": "%@"},
                                         "first": {"entity": "Stop", "deleteRule": "noAction"}}},
              "Stop": {"identity": "stopID", "attributes": {"stopID": "string"}}}}
            """
        let model = try Model.parse(Array(text.replacing("%@", with: "cascade").utf8), sourceName: "model.json")
        #expect(model.entities[0].relationships.map(\.deleteRule) == [.cascade, .noAction])
        #expect(model.entities[1].relationships.isEmpty)
        #expect(modelProblems(text.replacing("%@", with: "explode")) == [
            #"entities.Trip.relationships.stops.deleteRule: unknown deleteRule policy "explode" (expected nullify, cascade, deny or noAction)"#,
        ])
    }

    @Test func unknownFieldsAtEveryLevel() {
        let problems = modelProblems("""
            {
              "entites": {},
              "entities": {
                "E": {
                  "tabel": "e",
                  "attributes": { "a": { "type": "string", "keys": ["x"], "nullable": true } },
                  "relationships": { "r": { "entity": "E", "to_many": true } },
                  "indexes": []
                }
              },
              "options": null
            }
            """)
        #expect(problems == [
            #"entites: unknown field; did you mean "entities"?"#,
            #"entities.E.tabel: unknown field; did you mean "table"?"#,
            #"entities.E.attributes.a.keys: unknown field; did you mean "key"?"#,
            "entities.E.attributes.a.nullable: unknown field",
            #"entities.E.relationships.r.to_many: unknown field; did you mean "toMany"?"#,
            "entities.E.indexes: unknown field",
            "options: unknown field",
        ])
    }

    @Test func duplicateFieldsAtEveryLevel() {
        let problems = modelProblems("""
            {
              "entities": {
                "E": { "table": "e", "attributes": { "a": "string" }, "table": "f",
                       "relationships": { "r": { "entity": "E", "entity": "F" } } },
                "E": {}
              },
              "entities": {}
            }
            """)
        #expect(problems == [
            #"entities.E: duplicate field "table""#,
            #"entities.E.relationships.r: duplicate field "entity""#,
            #"entities: duplicate field "E""#,
            #"duplicate field "entities""#,
        ])
    }

    @Test func wrongShapes() {
        let problems = modelProblems("""
            {
              "root": 3,
              "entities": {
                "A": [],
                "B": { "table": 1, "identity": [], "attributes": "none", "relationships": [] },
                "C": { "identity": ["a", 2], "attributes": { "a": 5, "b": { "type": 1, "column": "",
                       "default": [1], "defaultWhenMissing": "no", "dateFormat": false, "key": [] } } },
                "D": { "attributes": { "a": { "type": "date", "key": "x..y" } },
                       "relationships": { "r": "A", "s": { "toMany": 1, "relatedBy": 2, "inverse": 3 } } }
              }
            }
            """)
        #expect(problems == [
            "root: expected an entity name or an object",
            "entities.A: expected an object",
            "entities.B.table: expected a string",
            "entities.B.identity: expected at least one attribute name",
            "entities.B.attributes: expected an object",
            "entities.B.relationships: expected an object",
            "entities.C.identity: expected an attribute name or an array of attribute names",
            "entities.C.attributes.a: expected a type name or an object",
            "entities.C.attributes.b.type: expected a string",
            "entities.C.attributes.b.column: must not be empty",
            "entities.C.attributes.b.defaultWhenMissing: expected a boolean",
            "entities.C.attributes.b.dateFormat: expected a string",
            "entities.C.attributes.b.key: expected at least one key path",
            #"entities.D.attributes.a.key: "x..y" is not a valid key path"#,
            "entities.D.relationships.r: expected an object",
            "entities.D.relationships.s.toMany: expected a boolean",
            "entities.D.relationships.s.relatedBy: expected an attribute name",
            "entities.D.relationships.s.inverse: expected a relationship name",
            "entities.D.relationships.s.entity: missing",
        ])
    }

    @Test func missingAndEmptyDocumentParts() {
        #expect(modelProblems("{}") == ["entities: missing"])
        #expect(modelProblems("[]") == ["expected an object"])
        #expect(modelProblems(#"{ "entities": {} }"#) == ["entities: expected at least one entity"])
        #expect(modelProblems(#"{ "entities": [] }"#) == ["entities: expected an object"])
        #expect(modelProblems(#"{ "root": {}, "entities": { "E": {} } }"#) == ["root: expected at least one key path"])
    }

    @Test func rootProblems() {
        #expect(modelProblems(#"{ "root": "F", "entities": { "E": {} } }"#) == [#"root: unknown entity "F"; the model has: E"#])
        #expect(modelProblems(#"{ "root": { "a..b": "E", "c": 1, "": "E" }, "entities": { "E": {} } }"#) == [
            #"root.a..b: "a..b" is not a valid key path"#,
            "root.c: expected an entity name or an object",
            #"root: "" is not a valid key path"#,
        ])
    }

    @Test func reservedAndClashingTables() {
        let problems = modelProblems("""
            { "entities": {
                "Log": { "table": "SLUICE_IMPORTS" },
                "Meta": { "table": "sqlite_meta" },
                "A": { "table": "a", "relationships": { "b": { "entity": "B", "toMany": true } } },
                "B": { "table": "A_B" },
                "b": { "table": "a" },
                "X": { "relationships": { "sluice_imports": { "entity": "X", "toMany": true } } }
            } }
            """)
        // The join table X_sluice_imports is fine; A.b's join table a_b clashes with B's table,
        // even though B comes later.
        #expect(problems == [
            #"entities.Log.table: table "SLUICE_IMPORTS" is reserved for the import log"#,
            #"entities.Meta.table: table "sqlite_meta" is reserved by SQLite"#,
            #"entities.A.relationships.b: join table "a_b" is also the table of B"#,
            #"entities.b.table: table "a" is also the table of A"#,
        ])
    }

    @Test func defaultTablesClashToo() {
        #expect(modelProblems(#"{ "entities": { "stops": {}, "Stop": { "table": "Stops" }, "STOPS": {} } }"#) == [
            #"entities.Stop.table: table "Stops" is also the table of stops"#,
            #"entities.STOPS: table "STOPS" is also the table of stops"#,
        ])
    }

    @Test func joinTablesAreOnlyForToManysWithoutAToOneInverse() throws {
        let model = try decodeModel("""
            { "entities": {
                "Stop": { "table": "stops", "relationships": {
                    "children": { "entity": "Stop", "toMany": true, "inverse": "parent" },
                    "parent": { "entity": "Stop" },
                    "tags": { "entity": "Tag", "toMany": true, "inverse": "stops" },
                    "visits": { "entity": "Visit", "toMany": true },
                    "loose": { "entity": "Visit", "toMany": true }
                } },
                "Tag": { "relationships": { "stops": { "entity": "Stop", "toMany": true, "inverse": "tags" } } },
                "Visit": { "relationships": { "stop": { "entity": "Stop", "inverse": "visits" } } }
            } }
            """)
        let stop = try #require(model.entity(named: "Stop"))
        let tag = try #require(model.entity(named: "Tag"))
        func join(_ entity: Model.Entity, _ name: String) -> String? {
            model.joinTableName(of: entity.relationships.first { $0.name == name }!, in: entity)
        }
        #expect(join(stop, "children") == nil)
        #expect(join(stop, "parent") == nil)
        #expect(join(stop, "tags") == "stops_tags")
        #expect(join(tag, "stops") == "Tag_stops")
        // The inverse is declared on the to-one's side only.
        #expect(join(stop, "visits") == nil)
        #expect(join(stop, "loose") == "stops_loose")
    }

    @Test func columnClashesReportTheLaterOne() {
        let problems = modelProblems("""
            { "entities": { "E": {
                "relationships": {
                    "parent": { "entity": "E" },
                    "owner": { "entity": "E", "column": "Name" },
                    "many": { "entity": "E", "toMany": true }
                },
                "attributes": {
                    "parent_pk": "integer",
                    "name": "string",
                    "many_pk": "string",
                    "id": { "type": "string", "column": "PK" }
                }
            } } }
            """)
        #expect(problems == [
            #"entities.E.attributes.parent_pk: column "parent_pk" is also the column of relationship parent"#,
            #"entities.E.attributes.name: column "name" is also the column of relationship owner"#,
            #"entities.E.attributes.id.column: column "PK" is reserved for the primary key"#,
        ])
    }

    @Test func identityNamesAttributesAndToOneRelationships() {
        let problems = modelProblems("""
            { "entities": {
                "Person": { "identity": "id", "attributes": { "id": "integer" },
                            "relationships": { "phones": { "entity": "Phone", "toMany": true, "inverse": "owner" } } },
                "Phone": { "identity": ["owner", "index"], "attributes": { "index": "integer" },
                           "relationships": { "owner": { "entity": "Person" } } },
                "E": { "identity": ["a", "rs", "ownr"], "attributes": { "a": "string" },
                       "relationships": { "rs": { "entity": "Phone", "toMany": true }, "owner": { "entity": "Person" } } } } }
            """)
        #expect(problems == [
            #"entities.E.identity: "rs" is a to-many relationship of E: an identity lists attributes and to-one relationships"#,
            #"entities.E.identity: "ownr" is not an attribute or to-one relationship of E; did you mean "owner"?"#,
        ])
    }

    @Test func identitiesThroughToOnesMustNotFormACycle() {
        let problems = modelProblems("""
            { "entities": {
                "Category": { "identity": ["parent", "name"], "attributes": { "name": "string" },
                              "relationships": { "parent": { "entity": "Category" } } },
                "A": { "identity": ["b"], "relationships": { "b": { "entity": "B" } } },
                "B": { "identity": ["x", "a"], "attributes": { "x": "string" }, "relationships": { "a": { "entity": "A" } } } } }
            """)
        #expect(problems == [
            #"entities.Category.identity: "parent" leads back to Category (Category → Category): the rows an identity's to-one points at are written first, so identities cannot form a cycle"#,
            #"entities.A.identity: "b" leads back to A (A → B → A): the rows an identity's to-one points at are written first, so identities cannot form a cycle"#,
            #"entities.B.identity: "a" leads back to B (B → A → B): the rows an identity's to-one points at are written first, so identities cannot form a cycle"#,
        ])
    }

    @Test func positionIsAnIntegerAttributeOfAToManysTarget() {
        let problems = modelProblems("""
            { "entities": {
                "Person": { "identity": "id", "attributes": { "id": "integer" }, "relationships": {
                    "phones": { "entity": "Phone", "toMany": true, "inverse": "owner", "position": "index" },
                    "best": { "entity": "Phone", "position": "index" },
                    "byName": { "entity": "Phone", "toMany": true, "map": "label", "position": "index" },
                    "others": { "entity": "Phone", "toMany": true, "position": "indx" },
                    "labelled": { "entity": "Phone", "toMany": true, "position": "label" } } },
                "Phone": { "identity": ["owner", "index"], "attributes": { "index": "integer", "label": "string" },
                           "relationships": { "owner": { "entity": "Person" } } } } }
            """)
        #expect(problems == [
            "entities.Person.relationships.best.position: only a to-many relationship takes a position (the place of each record in its array)",
            "entities.Person.relationships.byName.position: a map's members have no position: the member's name (map) identifies them",
            #"entities.Person.relationships.others.position: "indx" is not an attribute of Phone; did you mean "index"?"#,
            "entities.Person.relationships.labelled.position: Phone.label is a string attribute: a position is an integer",
        ])
    }

    @Test func orderedIsForToManysAndItsColumnMustBeFree() {
        let problems = modelProblems("""
            { "entities": {
                "Album": { "identity": "id", "attributes": { "id": "integer" }, "relationships": {
                    "tracks": { "entity": "Track", "toMany": true, "inverse": "album", "ordered": true },
                    "cover": { "entity": "Track", "ordered": true },
                    "notOrdered": { "entity": "Track", "ordered": false },
                    "odd": { "entity": "Track", "toMany": true, "ordered": "yes" } } },
                "Track": { "identity": "id", "attributes": { "id": "integer", "album_position": "integer" },
                           "relationships": { "album": { "entity": "Album" } } } } }
            """)
        #expect(problems == [
            #"entities.Album.relationships.tracks.ordered: the order is kept in Track's column "album_position", which is also the column of attribute album_position: rename that column"#,
            "entities.Album.relationships.cover.ordered: only a to-many relationship can be ordered (a to-one has one target)",
            "entities.Album.relationships.odd.ordered: expected a boolean",
        ])
    }

    @Test func referencesToABrokenEntityAreNotCheckedFurther() {
        let problems = modelProblems("""
            { "root": "B", "entities": {
                "A": { "relationships": { "b": { "entity": "B", "relatedBy": "x", "inverse": "y" } } },
                "B": "oops"
            } }
            """)
        #expect(problems == ["entities.B: expected an object"])
    }

    @Test func transitExampleDecodesWithoutProblems() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/transit/model.json")
        let bytes = try [UInt8](Data(contentsOf: url))
        let model = try Model.parse(bytes, sourceName: "model.json")
        #expect(model.root == .paths([
            (JSONKeyPath(["stops"]), "Stop"), (JSONKeyPath(["routes"]), "Route"),
            (JSONKeyPath(["trips"]), "Trip"), (JSONKeyPath(["stop_times"]), "StopTime"),
        ]))
        #expect(model.entities.map(\.name) == ["Stop", "Route", "Trip", "StopTime"])
        #expect(model.entities.map(\.table) == ["stops", "routes", "trips", "stop_times"])
        let stopTime = try #require(model.entity(named: "StopTime"))
        #expect(stopTime.identity == ["tripID", "sequence"])
        #expect(stopTime.attribute(named: "sequence")?.type == .integer)
        #expect(stopTime.relationships.map(\.column) == ["trip_pk", "stop_pk"])
        let stop = try #require(model.entity(named: "Stop"))
        #expect(stop.attribute(named: "name")?.keys == [JSONKeyPath(["stop_name"]), JSONKeyPath(["name"])])
        #expect(stop.relationships[0] == Model.Relationship(name: "parent", entity: "Stop",
                                                            keys: [JSONKeyPath(["parent_station"])]))
        #expect(model.entity(named: "Route")?.attribute(named: "type")?.type == .integer)
        // Every to-many is stored in its inverse's column: no join tables.
        for entity in model.entities {
            for relationship in entity.relationships {
                #expect(model.joinTableName(of: relationship, in: entity) == nil)
            }
        }
    }
}

extension ModelValidationTests {
    @Test func emptyNames() {
        let problems = modelProblems("""
            { "entities": { "": {}, "E": { "table": "", "attributes": { "": "string" },
                                         "relationships": { "": { "entity": "E" } } } } }
            """)
        #expect(problems == [
            "entities: an entity name must not be empty",
            "entities.E.table: must not be empty",
            "entities.E.attributes: an attribute name must not be empty",
            "entities.E.relationships: a relationship name must not be empty",
        ])
    }
}
