import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `--model X.momd`: the compiled model reads into the same Core Data model as its XML.
@Suite struct CompiledCoreDataModelTests {
    static let bundle = FixtureStore.cartKitBundle

    @Test func theMomdGivesTheSameHashesStatementsAndMetadataAsTheXcdatamodeld() throws {
        let compiled = try CompiledCoreDataModel.read(momd: PackageFiles.path(Self.bundle + "CartStorage.momd")).model
        let xml = try CoreDataModel.read(path: PackageFiles.path(Self.bundle + "CartStorage.xcdatamodeld"))
        let fromCompiled = try CoreDataStoreLayout(compiled, sourceName: "momd")
        let fromXML = try CoreDataStoreLayout(xml, sourceName: "xcdatamodeld")
        #expect(fromCompiled.versionHashes == fromXML.versionHashes)
        #expect(fromCompiled.statements == fromXML.statements)
        #expect(fromCompiled.metadata() == fromXML.metadata())
        #expect(fromCompiled.primaryKeyRows == fromXML.primaryKeyRows)
        #expect(compiled.versionIdentifier == "")
        // Each relationship's deletion rule (`NSDeleteRule`), named as the XML names it.
        func rules(_ model: CoreDataModel) -> [String] {
            model.entities.flatMap { entity in entity.relationships.map { "\(entity.name).\($0.name) \($0.deletionRule?.value ?? "-")" } }
                .sorted()
        }
        #expect(rules(compiled) == rules(xml))
        #expect(rules(xml).contains("CDCart.items Cascade"))
    }

    /// A key the archives seen do not hold (here an entity's `NSIsAbstract`) is refused, not skipped.
    @Test func whatSluiceDoesNotKnowInTheArchiveIsRefused() throws {
        let bytes = try PackageFiles.bytes(Self.bundle + "CartStorage.momd/CartStorage.mom")
        guard case .dictionary(var archive) = try BinaryPropertyList.read(bytes),
              let index = archive.firstIndex(where: { $0.key == "$objects" }), case .array(var objects) = archive[index].value,
              let entity = objects.firstIndex(where: { $0["NSEntityName"] != nil }), case .dictionary(var members) = objects[entity]
        else {
            Issue.record("not the archive expected")
            return
        }
        members.append(("NSIsAbstract", .bool(true)))
        objects[entity] = .dictionary(members)
        archive[index].value = .array(objects)
        #expect(throws: SluiceError.self) {
            try CompiledCoreDataModel.read(mom: BinaryPropertyList.write(.dictionary(archive)), source: "M.mom")
        }
        do {
            _ = try CompiledCoreDataModel.read(mom: BinaryPropertyList.write(.dictionary(archive)), source: "M.mom")
        } catch {
            #expect("\(error)".contains("'M.mom': the entity CDCart holds NSIsAbstract; Sluice reads only what it knows"),
                    "\(error)")
        }
    }

    @Test func notAKeyedArchive() {
        #expect(throws: SluiceError.self) {
            try CompiledCoreDataModel.read(mom: BinaryPropertyList.write(.string("x")), source: "M.mom")
        }
    }
}
