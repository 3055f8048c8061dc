import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Core Data's version hashes: from every real store's own metadata and the compiled model's
/// `VersionInfo.plist` (what Core Data computed), and from hand-built models for the rules no
/// fixture exercises.
@Suite struct VersionHashTests {
    @Test(arguments: FixtureStore.all)
    func everyEntityHashOfARealStoreIsComputedFromItsModel(_ fixture: FixtureStore) throws {
        let directory = TemporaryDirectory()
        let metadata = try StoreContents.metadata(Connection(path: try fixture.copy(into: directory), mode: .readOnly))
        let hashes = try VersionHash.entityHashes(of: fixture.readModel(), sourceName: fixture.model)
        let recorded = try #require(metadata["NSStoreModelVersionHashes"]?.dictionary)
        #expect(Set(recorded.map(\.key)) == Set(hashes.keys))
        for (entity, hash) in recorded {
            #expect(hash.data == hashes[entity], "\(entity)")
        }
        // Recorded since framework 1044 (CoreDataPlus's store, 865, has none).
        if let digest = metadata["NSStoreModelVersionHashesDigest"] {
            #expect(digest.string == VersionHash.digest(hashes))
        }
        if let checksum = metadata["NSStoreModelVersionChecksumKey"] {
            #expect(checksum.string == VersionHash.checksum(hashes))
        }
    }

    @Test func theCompiledModelsVersionInfoHoldsTheSameHashesAndChecksum() throws {
        let info = try BinaryPropertyList.read(PackageFiles.bytes(FixtureStore.cartKitBundle + "CartStorage.momd/VersionInfo.plist"))
        let model = try CoreDataModel.read(path: PackageFiles.path(FixtureStore.cartKitBundle + "CartStorage.xcdatamodeld"))
        let hashes = try VersionHash.entityHashes(of: model, sourceName: "CartStorage")
        let recorded = try #require(info["NSManagedObjectModel_VersionHashes"]?["CartStorage"]?.dictionary)
        #expect(recorded.count == 3)
        for (entity, hash) in recorded { #expect(hash.data == hashes[entity], "\(entity)") }
        #expect(info["NSManagedObjectModel_VersionChecksums"]?["CartStorage"]?.string == VersionHash.checksum(hashes))
        #expect(VersionHash.checksum(hashes) == "RV83lyqrxa85p8T4dUf5Vhtv6Ypawk/doB6mVJlOAeY=")
    }

    // MARK: The rules, one by one

    private func hashes(_ entities: String, modelAttributes: String = "") throws -> [String: [UInt8]] {
        let xml = "<model \(modelAttributes)>\(entities)</model>"
        return try VersionHash.entityHashes(of: CoreDataModel.read(Array(xml.utf8), contentsName: "contents", sourceName: "M"),
                                            sourceName: "M")
    }

    private func sha256(_ parts: [UInt8]...) -> [UInt8] { VersionHash.sha256(parts.flatMap { $0 }) }
    private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func anAttributeIsItsNameFlagsTypeAndStorageOptions() throws {
        let entity = try hashes("""
            <entity name="E"><attribute name="a" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" \
            preserveAfterDeletion="YES" versionHashModifier="m" indexed="YES" defaultValueString="x"/></entity>
            """)["E"]
        let attribute = sha256(sha256(utf8("a"), [1, 0], utf8("m")), [0xE8, 0x03, 0, 0], [1], [1])
        #expect(entity == sha256(utf8("E"), [0], attribute))
    }

    @Test func transientPropertiesAreNotHashed() throws {
        let plain = try hashes(#"<entity name="E"></entity>"#)
        let withTransient = try hashes(#"<entity name="E"><attribute name="t" transient="YES" attributeType="String"/></entity>"#)
        #expect(plain == withTransient)
    }

    @Test func aRelationshipIsItsDestinationInverseCountsAndOrder() throws {
        let model = try hashes("""
            <entity name="A"><relationship name="bs" toMany="YES" ordered="YES" minCount="2" maxCount="9" destinationEntity="B" \
            inverseName="a" inverseEntity="B" deletionRule="Cascade"/></entity>
            <entity name="B"><relationship name="a" optional="YES" maxCount="1" destinationEntity="A" inverseName="bs" inverseEntity="A"/></entity>
            """)
        let bs = sha256(sha256(utf8("bs"), [0, 0]), utf8("B"), utf8("a"), [9, 0, 0, 0], [2, 0, 0, 0], [1, 0])
        let a = sha256(sha256(utf8("a"), [1, 0]), utf8("A"), utf8("bs"), [1, 0, 0, 0], [0, 0, 0, 0])
        #expect(model["A"] == sha256(utf8("A"), [0], bs))
        #expect(model["B"] == sha256(utf8("B"), [0], a))
    }

    @Test func aRelationshipThatIsItsOwnInverseHashesNoInverse() throws {
        let model = try hashes("""
            <entity name="P"><relationship name="friends" toMany="YES" destinationEntity="P" inverseName="friends" inverseEntity="P"/></entity>
            """)
        let friends = sha256(sha256(utf8("friends"), [0, 0]), utf8("P"), [0, 0, 0, 0], [0, 0, 0, 0])
        #expect(model["P"] == sha256(utf8("P"), [0], friends))
    }

    @Test func aSubEntityHashesItsParentsHashAndInheritedPropertiesInNameOrder() throws {
        let model = try hashes("""
            <entity name="Base" isAbstract="YES" versionHashModifier="v2"><attribute name="b" attributeType="Integer 64"/></entity>
            <entity name="Sub" parentEntity="Base"><attribute name="B" attributeType="Date"/><attribute name="a" attributeType="UUID"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="a"/><constraint value="B"/></uniquenessConstraint>
            <uniquenessConstraint><constraint value="B"/></uniquenessConstraint></uniquenessConstraints></entity>
            """)
        let b = sha256(sha256(utf8("b"), [0, 0]), [0x2C, 0x01, 0, 0])
        let base = sha256(utf8("Base"), [1], b, utf8("v2"))
        #expect(model["Base"] == base)
        let upperB = sha256(sha256(utf8("B"), [0, 0]), [0x84, 0x03, 0, 0])
        let a = sha256(sha256(utf8("a"), [0, 0]), [0x4C, 0x04, 0, 0])
        // Code-unit order: "B" < "a" < "b"; the constraints' strings sorted the same way.
        #expect(model["Sub"] == sha256(utf8("Sub"), [0], base, upperB, a, b, utf8("B"), utf8("a.B")))
    }

    @Test func aDerivedAttributeHashesItsExpressionAlone() throws {
        let model = try hashes("""
            <entity name="E"><attribute name="n" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count"/></entity>
            """)
        #expect(model["E"] == sha256(utf8("E"), [0], sha256(utf8("count:(pages)"))))
        #expect(VersionHash.predicateFormat(ofDerivation: "items.@sum") == "sum:(items)")
        #expect(VersionHash.predicateFormat(ofDerivation: "lowercase:(name)") == "lowercase:(name)")
    }

    @Test func theChecksumAndDigestGoInEntityNameOrder() throws {
        let model = try hashes(#"<entity name="b"/><entity name="A"/>"#)
        let (a, b) = (try #require(model["A"]), try #require(model["b"]))
        #expect(VersionHash.checksum(model) == Base64Encoding.encode(sha256(a, b)))
        #expect(VersionHash.digest(model) == Base64Encoding.encode(SHA512.digest(of: utf8("A") + a + utf8("b") + b)))
    }

    @Test func anAttributeTypeCoreDataDoesNotHaveIsAProblemNamingIt() throws {
        #expect(throws: ModelError(source: "M", problems: [
            ModelProblem(path: "entities.E.attributes.a.attributeType", message: "Core Data has no attribute type \"Text\""),
        ])) {
            try self.hashes(#"<entity name="E"><attribute name="a" attributeType="Text"/></entity>"#)
        }
    }
}
