import Foundation
import SluiceTestSupport
@testable import Sluice

/// The real Core Data stores of `Tests/Fixtures/CoreDataStores` with the models that wrote
/// them, and what a test reads from a store: opened from a copy (with its `-wal` and `-shm`)
/// in a temporary directory, so the fixture is never touched.
struct FixtureStore: CustomStringConvertible, Sendable {
    var store: String
    var model: String
    /// The model's `userDefinedModelVersionIdentifier`, which the metadata records.
    var versionIdentifier = ""
    /// Whether the model has a many-to-many, whose join table only an existing store names:
    /// an import into a new store is refused.
    var hasManyToMany = false
    var description: String { (store as NSString).lastPathComponent }

    static let folder = "Tests/Fixtures/CoreDataStores/"
    private static let bergier = folder + "bergier-migration/bc960768/CoreDataMigration/"

    static let all: [FixtureStore] = [
        FixtureStore(store: folder + "cartkit/4eee788d/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite",
                     model: folder + "cartkit/reconstructed/CartStorage_v1.xcdatamodel"),
    ] + bergierVersions + [coreDataPlus]

    /// Five versions of one model, each with the store it wrote.
    static let bergierVersions = ["1.0.0", "1.1.0", "1.1.2", "1.2.0", "2.0.0"].map { version in
        FixtureStore(store: bergier + "CoreDataMigrationTests/Example_v\(version).sqlite",
                     model: bergier + "CoreDataMigration/Model.xcdatamodeld/v\(version).xcdatamodel")
    }

    /// Inheritance, uniqueness constraints and a many-to-many (`Z_1PREVIOUSOWNERS`), with rows.
    static let coreDataPlus = FixtureStore(store: folder + "coredataplus/6739d000/Tests/SampleModelV2.sqlite",
                                           model: folder + "coredataplus/6739d000/Tests/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel",
                                           versionIdentifier: "3", hasManyToMany: true)

    static let cartKitBundle = folder + "cartkit/4eee788d/Sources/CartKitStorageCoreData/Resources/"

    func readModel() throws -> CoreDataModel {
        try CoreDataModel.read(path: PackageFiles.path(model))
    }

    /// The store copied into `directory`, with the files beside it; returns the copy's path.
    func copy(into directory: TemporaryDirectory) throws -> String {
        let name = (store as NSString).lastPathComponent
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: PackageFiles.path(store + suffix)) {
            try FileManager.default.copyItem(atPath: PackageFiles.path(store + suffix), toPath: directory.file(name + suffix))
            chmod(directory.file(name + suffix), 0o644)
        }
        return directory.file(name)
    }
}

/// What a test compares of a SQLite file: its metadata plist, `Z_PRIMARYKEY` and schema.
struct StoreContents: Equatable {
    var tables: [String: [Column]] = [:]
    var indexes: [String: Index] = [:]
    var primaryKeys: [[ColumnValue]] = []

    struct Column: Equatable, CustomStringConvertible {
        var name: String
        var type: String
        var description: String { "\(name) \(type)" }
    }

    struct Index: Equatable {
        var table: String
        var columns: [String]
        var unique: Bool
    }

    init(reading connection: Connection) throws {
        for table in try strings(connection, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            let info = try connection.prepare("SELECT name, type FROM pragma_table_info('\(table)') ORDER BY cid")
            var columns: [Column] = []
            while try info.step() {
                guard case .text(let name) = info.value(at: 0), case .text(let type) = info.value(at: 1) else { continue }
                columns.append(Column(name: name, type: type))
            }
            tables[table] = columns
            let list = try connection.prepare("SELECT name, \"unique\" FROM pragma_index_list('\(table)')")
            while try list.step() {
                guard case .text(let name) = list.value(at: 0), case .integer(let unique) = list.value(at: 1) else { continue }
                // The automatic index of a PRIMARY KEY of several columns is compared by its columns.
                let key = name.hasPrefix("sqlite_autoindex_") ? "\(table) primary key" : name
                let columns = try strings(connection, "SELECT name FROM pragma_index_info('\(name)') ORDER BY seqno")
                indexes[key] = Index(table: table, columns: columns, unique: unique != 0)
            }
        }
        if tables["Z_PRIMARYKEY"] != nil {
            let rows = try connection.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            while try rows.step() { primaryKeys.append((0..<3).map { rows.value(at: Int32($0)) }) }
        }
    }

    /// `Z_METADATA`'s plist, read.
    static func metadata(_ connection: Connection) throws -> PropertyList {
        let statement = try connection.prepare("SELECT Z_PLIST FROM Z_METADATA")
        guard try statement.step(), case .blob(let bytes) = statement.value(at: 0) else { throw StoreReadError() }
        return try BinaryPropertyList.read(bytes)
    }

    struct StoreReadError: Error {}
}

private func strings(_ connection: Connection, _ sql: String) throws -> [String] {
    let statement = try connection.prepare(sql)
    var names: [String] = []
    while try statement.step() {
        if case .text(let name) = statement.value(at: 0) { names.append(name) }
    }
    return names
}
