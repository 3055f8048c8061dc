import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// An import into Core Data's layout against every real store of `Tests/Fixtures/CoreDataStores`
/// and the model that wrote it: an import of nothing into a new file makes the store Core Data
/// made (hashes, `Z_PRIMARYKEY`, tables, columns, indexes), an import into a copy of the real
/// store is taken, and a store of another model version is refused untouched.
@Suite struct CoreDataImportFixtureTests {
    private func importNothing(into database: String, model: String) throws -> ImportReport {
        let file = try ModelFile.load(path: PackageFiles.path(model))
        var options = ImportOptions()
        options.layout = .coreData
        options.entity = file.model.entities.first { $0.parent == nil }?.name
        return try Importer(databasePath: database, modelFile: file, options: options).finish()
    }

    /// Every table and index with its SQL, and each table's columns with their declared types.
    private func schema(_ path: String) throws -> [String] {
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        var result: [String] = []
        for row in try connection.rows("SELECT type, name, sql FROM sqlite_master WHERE name <> 'Z_MODELCACHE' "
                                        + "AND sql IS NOT NULL ORDER BY name") {
            guard case .text(let type) = row[0], case .text(let name) = row[1], case .text(let sql) = row[2] else { continue }
            result.append(sql)
            if type == "table" {
                result += try connection.rows("SELECT name || ' ' || type FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
                    .compactMap { if case .text(let column) = $0[0] { return "  " + column } else { return nil } }
            }
        }
        return result
    }

    private func metadata(_ path: String) throws -> (hashes: [String: [UInt8]], entities: [[ColumnValue]]) {
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        guard case .blob(let bytes)? = try connection.scalar("SELECT Z_PLIST FROM Z_METADATA"),
              let members = try BinaryPropertyList.read(bytes)["NSStoreModelVersionHashes"]?.dictionary else { return ([:], []) }
        let hashes = Dictionary(uniqueKeysWithValues: members.compactMap { member in member.value.data.map { (member.key, $0) } })
        return (hashes, try connection.rows("SELECT Z_ENT, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"))
    }

    /// A many-to-many's join table is named only by an existing store (`hasManyToMany`).
    @Test(arguments: FixtureStore.all.filter { !$0.hasManyToMany })
    func anImportOfNothingMakesTheStoreCoreDataMade(_ fixture: FixtureStore) throws {
        let directory = TemporaryDirectory()
        let real = try fixture.copy(into: directory)
        let made = directory.file("made.sqlite")
        _ = try importNothing(into: made, model: fixture.model)
        let (madeHashes, madeEntities) = try metadata(made)
        let (realHashes, realEntities) = try metadata(real)
        #expect(!madeHashes.isEmpty)
        #expect(madeHashes == realHashes)
        #expect(madeEntities == realEntities)
        #expect(try schema(made) == schema(real))
    }

    /// The real store takes an import through its own model: nothing of it changes but its
    /// journal (its WAL checkpointed into the file).
    @Test(arguments: FixtureStore.all)
    func theRealStoreTakesAnImportThroughItsModel(_ fixture: FixtureStore) throws {
        let directory = TemporaryDirectory()
        let real = try fixture.copy(into: directory)
        func counts() throws -> [[ColumnValue]] {
            let connection = try Connection(path: real, mode: .readOnly)
            defer { connection.close() }
            let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            return try tables.map { table in
                guard case .text(let name) = table[0] else { return [] }
                return [table[0]] + (try connection.rows("SELECT count(*) FROM \"\(name)\"").first ?? [])
            }
        }
        let before = try counts()
        _ = try importNothing(into: real, model: fixture.model)
        #expect(try counts() == before)
        #expect(!FileManager.default.fileExists(atPath: real + "-wal"))
    }

    /// Each of the five versions of one model opens only its own store: an import through any
    /// other version is refused before anything is written.
    @Test func aStoreOfAnotherVersionIsRefused() throws {
        let versions = FixtureStore.bergierVersions
        for store in versions {
            for other in versions where other.model != store.model {
                let directory = TemporaryDirectory()
                let real = try store.copy(into: directory)
                let before = try Data(contentsOf: URL(fileURLWithPath: real))
                let error = #expect(throws: SluiceError.self) { try importNothing(into: real, model: other.model) }
                #expect(error?.kind == .data)
                #expect(error?.message.contains("is a Core Data store of another version of the model") == true, "\(String(describing: error))")
                // The bundle's version that wrote the store is named.
                #expect(error?.message.hasSuffix("give the version the store was written with: --model '\(PackageFiles.path(store.model))')")
                            == true, "\(String(describing: error))")
                #expect(try Data(contentsOf: URL(fileURLWithPath: real)) == before)
            }
        }
    }
}
