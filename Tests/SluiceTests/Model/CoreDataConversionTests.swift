import Testing
@testable import Sluice

/// A Core Data model converted to a Sluice model: the contract of
/// `docs/coming-from-magicalrecord.md`, one rule at a time, and the notes for what does not
/// convert.
@Suite struct CoreDataConversionTests {
    /// The model and notes (`path: message`) of `<model>` holding `entities`.
    private func convert(_ entities: String) throws -> (model: Model, notes: [String]) {
        let xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n"
            + entities + "\n</model>"
        let (model, notes) = try ModelFile.convertCoreDataModel(Array(xml.utf8), contentsName: "contents", sourceName: "M")
        return (model, notes.map(\.description))
    }

    /// A relationship element whose userInfo names `relatedByAttribute`.
    private func relationship(_ name: String, to destination: String, relatedBy attribute: String,
                              toMany: Bool = false) -> String {
        let cardinality = toMany ? #"toMany="YES""# : #"maxCount="1""#
        return #"<relationship name="\#(name)" optional="YES" \#(cardinality) destinationEntity="\#(destination)">"#
            + #"<userInfo><entry key="relatedByAttribute" value="\#(attribute)"/></userInfo></relationship>"#
    }

    private func problems(_ entities: String) -> [String] {
        do {
            _ = try convert(entities)
            return []
        } catch let error as ModelError {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    // MARK: Attributes

    @Test func everyAttributeTypeAndItsSluiceType() throws {
        let types = ["Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String", "URI",
                     "Boolean", "Date", "Binary", "UUID", "Transformable"]
        let attributes = types.enumerated().map { #"<attribute name="a\#($0.offset)" optional="YES" attributeType="\#($0.element)"/>"# }
        let (model, notes) = try convert(#"<entity name="E">"# + attributes.joined() + "</entity>")
        #expect(notes == [])
        #expect(model.entities[0].attributes.map(\.type) == [
            .integer, .integer, .integer, .decimal, .double, .double, .string, .string,
            .boolean, .date, .binary, .uuid, .json,
        ])
    }

    @Test func unsupportedTypesAreNotedAndLeftOut() throws {
        let (model, notes) = try convert("""
            <entity name="E">
                <attribute name="id" optional="YES" attributeType="ObjectID"/>
                <attribute name="u" optional="YES" attributeType="Undefined"/>
                <attribute name="none" optional="YES"/>
                <attribute name="s" optional="YES" attributeType="String"/>
            </entity>
            """)
        #expect(model.entities[0].attributes.map(\.name) == ["s"])
        #expect(notes == [
            #"entities.E.attributes.id.attributeType: unsupported type "ObjectID": the attribute is not imported"#,
            #"entities.E.attributes.u.attributeType: unsupported type "Undefined": the attribute is not imported"#,
            "entities.E.attributes.none: no attributeType: the attribute is not imported",
        ])
    }

    @Test func optionalTransientAndTheNameAsKey() throws {
        let (model, notes) = try convert("""
            <entity name="E">
                <attribute name="required" attributeType="String"/>
                <attribute name="optional" optional="YES" attributeType="String"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
            </entity>
            """)
        #expect(notes == [])
        #expect(model.entities[0].attributes == [
            Model.Attribute(name: "required", type: .string, optional: false),
            Model.Attribute(name: "optional", type: .string),
        ])
    }

    @Test func defaultsConvertToTheirTypes() throws {
        let (model, notes) = try convert("""
            <entity name="E">
                <attribute name="i" optional="YES" attributeType="Integer 16" defaultValueString="-32768"/>
                <attribute name="yes" optional="YES" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="no" optional="YES" attributeType="Boolean" defaultValueString="NO"/>
                <attribute name="d" optional="YES" attributeType="Double" defaultValueString="1.5"/>
                <attribute name="m" optional="YES" attributeType="Decimal" defaultValueString="0.10"/>
                <attribute name="s" optional="YES" attributeType="String" defaultValueString="Set in Xcode"/>
                <attribute name="u" optional="YES" attributeType="UUID" defaultValueString="0E984725-C51C-4BF4-9960-E1C80E27ABA0"/>
                <attribute name="t" optional="YES" attributeType="Date" defaultDateTimeInterval="86400.5"/>
                <attribute name="ms" optional="YES" attributeType="Date" defaultDateTimeInterval="0">
                    <userInfo><entry key="dateFormat" value="unix-ms"/></userInfo>
                </attribute>
                <attribute name="p" optional="YES" attributeType="Date" defaultDateTimeInterval="-978307200">
                    <userInfo><entry key="dateFormat" value="d/M/yyyy"/></userInfo>
                </attribute>
                <attribute name="exact" optional="YES" attributeType="Date" defaultDateTimeInterval="791474371.29043305"/>
                <attribute name="exactMs" optional="YES" attributeType="Date" defaultDateTimeInterval="-0.000000125">
                    <userInfo><entry key="dateFormat" value="unix-ms"/></userInfo>
                </attribute>
                <attribute name="past" optional="YES" attributeType="Date" defaultDateTimeInterval="-63114076800"/>
            </entity>
            """)
        #expect(notes == [])
        #expect(model.entities[0].attributes.map(\.defaultValue) == [
            .number("-32768"), .bool(true), .bool(false), .number("1.5"), .number("0.10"), .string("Set in Xcode"),
            .string("0E984725-C51C-4BF4-9960-E1C80E27ABA0"), .string("2001-01-02T00:00:00.500Z"),
            .number("978307200000"), .number("0"),
            // Every digit: the reference date's seconds added to the text, not to a double.
            .string("2026-01-30T13:59:31.290433050Z"), .number("978307199999.999875"),
            .string("0000-12-30T00:00:00Z"),  // NSDate.distantPast
        ])
    }

    @Test func defaultsThatDoNotConvertAreNotedAndDropped() throws {
        let (model, notes) = try convert("""
            <entity name="E">
                <attribute name="small" optional="YES" attributeType="Integer 16" defaultValueString="40000"/>
                <attribute name="mid" optional="YES" attributeType="Integer 32" defaultValueString="-2147483649"/>
                <attribute name="word" optional="YES" attributeType="Integer 64" defaultValueString="many"/>
                <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="perhaps"/>
                <attribute name="when" optional="YES" attributeType="Date" defaultDateTimeInterval="soon"/>
            </entity>
            """)
        #expect(model.entities[0].attributes.allSatisfy { $0.defaultValue == nil })
        #expect(notes == [
            "entities.E.attributes.small.defaultValueString: not used: cannot convert 40000 to integer: out of the 16-bit range (-32768…32767)",
            "entities.E.attributes.mid.defaultValueString: not used: cannot convert -2147483649 to integer: out of the 32-bit range (-2147483648…2147483647)",
            #"entities.E.attributes.word.defaultValueString: not used: cannot convert "many" to integer"#,
            #"entities.E.attributes.flag.defaultValueString: not used: cannot convert "perhaps" to boolean"#,
            #"entities.E.attributes.when.defaultDateTimeInterval: not used: "soon" is not a number of seconds"#,
        ])
    }

    // MARK: userInfo of attributes

    @Test func mappedKeysAndTheirFallbacks() throws {
        let (model, notes) = try convert("""
            <entity name="E">
                <attribute name="nested" optional="YES" attributeType="String">
                    <userInfo><entry key="mappedKeyName" value="a.b.c"/></userInfo>
                </attribute>
                <attribute name="chain" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="mappedKeyName.2" value="third"/>
                        <entry key="mappedKeyName" value="first"/>
                        <entry key="mappedKeyName.1" value="second"/>
                    </userInfo>
                </attribute>
                <attribute name="fallbacksOnly" optional="YES" attributeType="String">
                    <userInfo><entry key="mappedKeyName.1" value="other"/></userInfo>
                </attribute>
                <attribute name="gap" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="mappedKeyName" value="first"/>
                        <entry key="mappedKeyName.3" value="unreachable"/>
                        <entry key="mappedKeyName.10" value="beyond"/>
                        <entry key="mappedKeyName.1" value="a..b"/>
                    </userInfo>
                </attribute>
            </entity>
            """)
        #expect(model.entities[0].attributes.map { $0.keys.map(\.description) } == [
            ["a.b.c"], ["first", "second", "third"], ["fallbacksOnly", "other"], ["first"],
        ])
        #expect(notes == [
            "entities.E.attributes.gap.userInfo.mappedKeyName.3: not read: mappedKeyName.2 is missing, and the fallbacks stop there",
            "entities.E.attributes.gap.userInfo.mappedKeyName.10: not read: the fallbacks are mappedKeyName.1 to mappedKeyName.9",
            #"entities.E.attributes.gap.userInfo.mappedKeyName.1: not read: "a..b" is not a key path"#,
        ])
    }

    @Test func dateFormatsAndDefaultsWhenMissing() throws {
        let (model, notes) = try convert("""
            <entity name="E">
                <attribute name="custom" optional="YES" attributeType="Date">
                    <userInfo><entry key="dateFormat" value="yyyy-MM-dd'T'HH:mm:ssz"/></userInfo>
                </attribute>
                <attribute name="ms" optional="YES" attributeType="Date">
                    <userInfo><entry key="dateFormat" value="UnixTime"/></userInfo>
                </attribute>
                <attribute name="bad" optional="YES" attributeType="Date">
                    <userInfo><entry key="dateFormat" value="yyyy-QQ"/></userInfo>
                </attribute>
                <attribute name="text" optional="YES" attributeType="String">
                    <userInfo><entry key="dateFormat" value="yyyy"/></userInfo>
                </attribute>
                <attribute name="keep" optional="YES" attributeType="String" defaultValueString="x">
                    <userInfo><entry key="useDefaultValueWhenNotPresent" value="YES"/></userInfo>
                </attribute>
                <attribute name="off" optional="YES" attributeType="String" defaultValueString="x">
                    <userInfo><entry key="useDefaultValueWhenNotPresent" value="NO"/></userInfo>
                </attribute>
            </entity>
            """)
        let attributes = model.entities[0].attributes
        #expect(attributes.map(\.dateFormat) == ["yyyy-MM-dd'T'HH:mm:ssz", "UnixTime", nil, nil, nil, nil])
        #expect(attributes.map(\.defaultWhenMissing) == [false, false, false, false, true, false])
        #expect(notes == [
            #"entities.E.attributes.bad.userInfo.dateFormat: invalid dateFormat "yyyy-QQ": unsupported pattern letter 'Q'; the attribute reads ISO 8601 dates instead"#,
            "entities.E.attributes.text.userInfo.dateFormat: not used: only Date attributes take a dateFormat",
        ])
    }

    /// `-[NSString boolValue]`, as MagicalRecord reads `useDefaultValueWhenNotPresent`.
    @Test(arguments: [("YES", true), ("yes", true), ("true", true), ("T", true), ("1", true), (" 7", true),
                      ("-0009", true), ("NO", false), ("false", false), ("0", false), ("", false), ("maybe", false)])
    func boolValue(_ text: String, _ value: Bool) {
        #expect(CoreDataConversion.boolValue(text) == value)
    }

    // MARK: Identity

    @Test func identityFromRelatedByAttributeOrTheEntityNameID() throws {
        let (model, notes) = try convert("""
            <entity name="Explicit">
                <attribute name="code" optional="YES" attributeType="String"/>
                <attribute name="explicitID" optional="YES" attributeType="Integer 64"/>
                <userInfo><entry key="relatedByAttribute" value="code"/></userInfo>
            </entity>
            <entity name="ByName">
                <attribute name="byNameID" optional="YES" attributeType="Integer 64"/>
            </entity>
            <entity name="URLThing">
                <attribute name="uRLThingID" optional="YES" attributeType="String"/>
            </entity>
            <entity name="None">
                <attribute name="id" optional="YES" attributeType="Integer 64"/>
            </entity>
            """)
        #expect(notes == [])
        #expect(model.entities.map(\.identity) == [["code"], ["byNameID"], ["uRLThingID"], []])
    }

    @Test func aRelatedByAttributeNamingNoAttribute() throws {
        let (model, notes) = try convert("""
            <entity name="Fallback">
                <attribute name="fallbackID" optional="YES" attributeType="Integer 64"/>
                <userInfo><entry key="relatedByAttribute" value="mapped"/></userInfo>
            </entity>
            <entity name="Nothing">
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
                <userInfo><entry key="relatedByAttribute" value="scratch"/></userInfo>
            </entity>
            """)
        #expect(model.entities.map(\.identity) == [["fallbackID"], []])
        #expect(notes == [
            #"entities.Fallback.userInfo.relatedByAttribute: names no attribute "mapped"; the identity is "fallbackID", as without relatedByAttribute"#,
            #"entities.Nothing.userInfo.relatedByAttribute: names "scratch", which is not imported; Nothing has no identity unless relationships to it say one"#,
        ])
    }

    @Test func anIdentityTakesNoDefault() throws {
        let (model, notes) = try convert("""
            <entity name="E">
                <attribute name="eID" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
                <attribute name="n" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
            </entity>
            """)
        #expect(model.entities[0].attributes.map(\.defaultValue) == [nil, .number("0")])
        #expect(notes == ["entities.E.attributes.eID.defaultValueString: not used: an identity takes no default (records without one would clash)"])
    }

    /// An entity without a primary attribute is found by the attribute the relationships to
    /// it relate by, when they agree.
    @Test func identityFromTheRelationshipsPointingAtAnEntity() throws {
        let (model, notes) = try convert("""
            <entity name="Agreed">
                <attribute name="code" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Disputed">
                <attribute name="a" optional="YES" attributeType="String"/>
                <attribute name="b" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Source">
                \(relationship("one", to: "Agreed", relatedBy: "code"))
                \(relationship("many", to: "Agreed", relatedBy: "code", toMany: true))
                \(relationship("byA", to: "Disputed", relatedBy: "a"))
                \(relationship("byB", to: "Disputed", relatedBy: "b"))
            </entity>
            """)
        #expect(model.entities.map(\.identity) == [["code"], [], []])
        #expect(model.entities[2].relationships.map(\.relatedBy) == [nil, nil, "a", "b"])
        #expect(notes == [
            #"entities.Source.relationships.byA.userInfo.relatedByAttribute: bare ids match "a"; Disputed has no identity, so each nested object is a new row"#,
            #"entities.Source.relationships.byB.userInfo.relatedByAttribute: bare ids match "b"; Disputed has no identity, so each nested object is a new row"#,
        ])
    }

    // MARK: Relationships

    @Test func relationshipsKeysAndInverses() throws {
        let (model, notes) = try convert("""
            <entity name="Route">
                <attribute name="routeID" optional="YES" attributeType="String"/>
                <relationship name="trips" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Trip" inverseName="route" inverseEntity="Trip"/>
                <relationship name="stops" optional="YES" toMany="YES" ordered="YES" destinationEntity="Stop" inverseName="routes" inverseEntity="Stop"/>
            </entity>
            <entity name="Stop">
                <attribute name="stopID" optional="YES" attributeType="String"/>
                <relationship name="routes" optional="YES" toMany="YES" destinationEntity="Route" inverseName="stops" inverseEntity="Route"/>
            </entity>
            <entity name="Trip">
                <attribute name="code" optional="YES" attributeType="String"/>
                <relationship name="route" optional="YES" maxCount="1" destinationEntity="Route" inverseName="trips" inverseEntity="Route">
                    <userInfo>
                        <entry key="mappedKeyName" value="route_id"/>
                        <entry key="mappedKeyName.1" value="route.id"/>
                    </userInfo>
                </relationship>
                <relationship name="wrong" optional="YES" maxCount="1" destinationEntity="Stop" inverseName="routes" inverseEntity="Stop"/>
                <relationship name="lost" optional="YES" maxCount="1" destinationEntity="Gone"/>
                <relationship name="loose" optional="YES" maxCount="1"/>
                <relationship name="cache" optional="YES" transient="YES" maxCount="1" destinationEntity="Route"/>
            </entity>
            """)
        // `deletionRule` is the relationship's `deleteRule` (absent: Nullify).
        var trips = Model.Relationship(name: "trips", entity: "Trip", toMany: true, inverse: "route")
        trips.deleteRule = .cascade
        #expect(model.entities[0].relationships == [
            trips,
            Model.Relationship(name: "stops", entity: "Stop", toMany: true, inverse: "routes", ordered: true),
        ])
        #expect(model.entities[1].relationships.map(\.ordered) == [false])
        #expect(model.entities[2].relationships == [
            Model.Relationship(name: "route", entity: "Route", keys: [JSONKeyPath(["route_id"]), JSONKeyPath(["route", "id"])],
                               inverse: "trips"),
            Model.Relationship(name: "wrong", entity: "Stop"),
        ])
        #expect(notes == [
            #"entities.Trip.relationships.wrong.inverseName: Stop has no relationship "routes" back to Trip; not used"#,
            #"entities.Trip.relationships.lost.destinationEntity: names no entity "Gone": the relationship is not imported"#,
            "entities.Trip.relationships.loose: no destinationEntity: the relationship is not imported",
        ])
    }

    @Test func relatedByOfARelationship() throws {
        let (model, notes) = try convert("""
            <entity name="Person">
                <attribute name="personID" optional="YES" attributeType="Integer 64"/>
                <attribute name="email" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Coded">
                <attribute name="code" optional="YES" attributeType="String"/>
                <attribute name="codedID" optional="YES" attributeType="Integer 64"/>
                <userInfo><entry key="relatedByAttribute" value="code"/></userInfo>
            </entity>
            <entity name="Team">
                \(relationship("byIdentity", to: "Person", relatedBy: "personID"))
                \(relationship("byEmail", to: "Person", relatedBy: "email"))
                \(relationship("byNothing", to: "Person", relatedBy: "phone"))
                <relationship name="byDefault" optional="YES" maxCount="1" destinationEntity="Coded"/>
            </entity>
            """)
        #expect(model.entities[2].relationships.map(\.relatedBy) == [nil, "email", nil, "codedID"])
        #expect(notes == [
            #"entities.Team.relationships.byEmail.userInfo.relatedByAttribute: bare ids match "email"; nested objects are found by Person's identity "personID""#,
            #"entities.Team.relationships.byNothing.userInfo.relatedByAttribute: names no attribute "phone" of Person; not used"#,
            #"entities.Team.relationships.byDefault: bare ids match "codedID"; nested objects are found by Coded's identity "code""#,
        ])
    }

    // MARK: What is noted, what is skipped

    @Test func unsupportedUserInfoKeysAndCoreDataSettingsAreNoted() throws {
        let (model, notes) = try convert("""
            <entity name="E" representedClassName="EClass" syncable="YES" codeGenerationType="class" color="red">
                <attribute name="n" optional="YES" attributeType="Integer 32" minValueString="0" maxValueString="9" usesScalarValueType="YES" syncable="YES">
                    <userInfo><entry key="className" value="X"/></userInfo>
                </attribute>
                <attribute name="c" optional="YES" attributeType="Transformable" valueTransformerName="T" customClassName="UIColor">
                    <userInfo><entry key="attributeValueClassName" value="UIColor"/></userInfo>
                </attribute>
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E">
                    <userInfo><entry key="type" value="E"/></userInfo>
                </relationship>
                <fetchedProperty name="f"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="n"/></uniquenessConstraint></uniquenessConstraints>
                <compoundIndexes/>
                <userInfo>
                    <entry key="primaryKey" value="n"/>
                    <entry key="primaryKey" value="m"/>
                </userInfo>
                <widget/>
            </entity>
            <configuration name="Default"/>
            <fetchRequest name="all" entity="E"/>
            <elements><element name="E" positionX="0" positionY="0" width="128" height="60"/></elements>
            <surprise/>
            """)
        #expect(notes == [
            "entities.E.color: not read: Sluice does not know this setting",
            "entities.E.attributes.n.minValueString: not checked: Sluice does not apply Core Data's validation",
            "entities.E.attributes.n.maxValueString: not checked: Sluice does not apply Core Data's validation",
            "entities.E.attributes.n.userInfo.className: not supported: Sluice does not read this userInfo key",
            "entities.E.attributes.c.valueTransformerName: not applied: Sluice's layout stores the value as JSON text; in Core "
                + "Data's store (--layout coredata) the column is there and a value for it is a record error, as only the app runs "
                + "the transformer",
            "entities.E.attributes.c.userInfo.attributeValueClassName: not supported: the value is stored as JSON text, not converted to an object of a class",
            "entities.E.relationships.r.userInfo.type: not supported: Sluice does not read this userInfo key",
            "entities.E.userInfo.primaryKey: not supported: Sluice does not read this userInfo key",
            "entities.E.userInfo.primaryKey: not used: the key is given twice, and the first value is used",
            "entities.E.widget: not read: Sluice does not know <widget>",
            "surprise: not read: Sluice does not know <surprise>",
        ])
        // No relatedByAttribute nor "eID": the uniqueness constraint is the identity.
        #expect(model.entities[0].identity == ["n"])
    }

    /// A uniqueness constraint is the identity only when MagicalRecord's keys give none, and
    /// only when it is made of imported attributes; otherwise it is noted as not used.
    @Test func aUniquenessConstraintIsTheIdentityWhenNothingElseIs() throws {
        let (model, notes) = try convert("""
            <entity name="Visit">
                <attribute name="personID" attributeType="String"/>
                <attribute name="day" attributeType="Date"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="personID"/><constraint value="day"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Person">
                <attribute name="personID" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="personID"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Tag">
                <attribute name="label" attributeType="String"/>
                <attribute name="cache" optional="YES" attributeType="String" transient="YES"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="cache"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """)
        #expect(model.entities.map(\.identity) == [["personID", "day"], ["personID"], []])
        #expect(notes == [
            "entities.Person.uniquenessConstraints: not used: the identity is the entity's relatedByAttribute, or its <entity>ID attribute",
            "entities.Tag.uniquenessConstraints: not used: no constraint is made of imported attributes only",
        ])
    }

    @Test func inheritanceIsSluicesParentAndAbstract() throws {
        let (model, notes) = try convert("""
            <entity name="Base" isAbstract="YES">
                <attribute name="baseID" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Leaf" parentEntity="Base">
                <attribute name="leafID" optional="YES" attributeType="String"/>
                <attribute name="leafValue" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Stray" parentEntity="Nowhere"/>
            """)
        #expect(model.entities.map { $0.attributes.map(\.name) } == [["baseID"], ["leafID", "leafValue"], []])
        #expect(model.entities.map(\.parent) == [nil, "Base", nil])
        #expect(model.entities.map(\.isAbstract) == [true, false, false])
        #expect(model.entities.map(\.identity) == [["baseID"], [], []])
        #expect(model.storageModel.entities.map(\.name) == ["Base", "Stray"])
        #expect(notes == [
            #"entities.Leaf: the identity "leafID" is not used: a child entity inherits its identity from Base ("baseID")"#,
            #"entities.Stray.parentEntity: names no entity "Nowhere": Stray inherits nothing"#,
        ])
    }

    // MARK: Models that cannot import

    @Test func aDocumentThatIsNotACoreDataModel() {
        #expect(throws: ModelError.self) {
            try ModelFile.convertCoreDataModel(Array("<plist><dict/></plist>".utf8), contentsName: "contents", sourceName: "M")
        }
    }

    @Test func whatNoSluiceModelCanHoldIsAnError() {
        #expect(problems("""
            <entity name="E">
                <attribute name="pk" optional="YES" attributeType="Integer 64"/>
            </entity>
            <entity name="e"/>
            """) == [
            #"entities.E.attributes.pk: column "pk" is reserved for the primary key"#,
            #"entities.e: table "e" is also the table of E"#,
        ])
        #expect(problems("") == ["entities: expected at least one entity"])
    }
}
