extension CoreDataStoreLayout {
    /// The bookkeeping tables, as every Core Data release since 2009 writes them. `Z_MODELCACHE`
    /// (the archived model that last wrote the store) is left out: Sluice cannot archive a model
    /// as Core Data does, and stores without it open (`docs/coredata-store.md`).
    /// The bookkeeping tables' names: a file holding both is a Core Data store.
    static let bookkeepingTables = ["Z_PRIMARYKEY", "Z_METADATA"]

    static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    ]

    /// Every `CREATE` statement of the store, in Core Data's spelling: entity tables, join
    /// tables, indexes, then the bookkeeping tables.
    var statements: [String] {
        dataTableStatements + indexStatements + Self.bookkeepingStatements
    }

    /// The entity tables and join tables.
    var dataTableStatements: [String] {
        tables.map { table in
            let columns = table.columns.map { $0.role == .primaryKey ? "\($0.name) INTEGER PRIMARY KEY" : "\($0.name) \($0.type)" }
            return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
        } + joinTables.map { join in
            let columns = [join.first.column, join.second.column] + [join.first.orderColumn, join.second.orderColumn].compactMap { $0 }
            return "CREATE TABLE \(join.name) ( " + columns.map { "\($0) INTEGER" }.joined(separator: ", ")
                + ", PRIMARY KEY (\(join.first.column), \(join.second.column)) )"
        }
    }

    /// The indexes: of keys, `indexed` attributes, fetch indexes and uniqueness constraints.
    var indexStatements: [String] {
        indexes.map { index in
            let columns = index.orders.map { orders in
                zip(index.columns, orders).map { "\($0) COLLATE BINARY \($1 ? "ASC" : "DESC")" }
            } ?? index.columns
            return "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(columns.joined(separator: ", ")))"
        }
    }

    /// `Z_PRIMARYKEY`'s rows of a new store: `Z_ENT`, `Z_NAME`, `Z_SUPER` and `Z_MAX` 0 (a
    /// writer raises each root's `Z_MAX` to the largest `Z_PK` it issued).
    var primaryKeyRows: [[ColumnValue]] {
        entities.map { [.integer(Int64($0.number)), .text($0.name), .integer(Int64($0.superNumber)), .integer(0)] }
    }

    /// The Core Data release whose metadata Sluice writes: 1344, the iOS 17 / macOS 14 era
    /// (the first to record the model's checksum). Core Data compares the hashes, not this
    /// number, when it opens a store (`docs/coredata-store.md#metadata`).
    static let frameworkVersion = 1344

    /// `Z_METADATA.Z_PLIST`: what a store written by `frameworkVersion` records. Keys that
    /// came with later releases (digest 1044, checksum 1344, maximum version 1523) are written
    /// only when `frameworkVersion` has them.
    func metadata(frameworkVersion: Int = Self.frameworkVersion) -> PropertyList {
        var members: [(key: String, value: PropertyList)] = [
            ("NSStoreType", .string("SQLite")),
            ("NSStoreModelVersionHashes", .dictionary(versionHashes.keys.sorted(by: VersionHash.codeUnitOrder).map {
                ($0, .data(versionHashes[$0]!))
            })),
            ("NSStoreModelVersionHashesVersion", .integer(3)),
            ("NSStoreModelVersionIdentifiers", .array(versionIdentifier.map { [.string($0)] } ?? [])),
            ("NSPersistenceFrameworkVersion", .integer(Int64(frameworkVersion))),
            // A string, as every store seen records it.
            ("_NSAutoVacuumLevel", .string("2")),
        ]
        if frameworkVersion >= 1044 { members.append(("NSStoreModelVersionHashesDigest", .string(VersionHash.digest(versionHashes)))) }
        if frameworkVersion >= 1344 { members.append(("NSStoreModelVersionChecksumKey", .string(VersionHash.checksum(versionHashes)))) }
        if frameworkVersion >= 1523 { members.append(("NSPersistenceMaximumFrameworkVersion", .integer(Int64(frameworkVersion)))) }
        return .dictionary(members)
    }

    /// `Z_METADATA`'s one row: `Z_VERSION` 1, the store's UUID (upper-case, `NSStoreUUID`),
    /// the plist.
    func metadataRow(storeUUID: String, frameworkVersion: Int = Self.frameworkVersion) -> [ColumnValue] {
        [.integer(1), .text(storeUUID.uppercased()), .blob(BinaryPropertyList.write(metadata(frameworkVersion: frameworkVersion)))]
    }

    /// The pragmas of a new store, before its first table: Core Data's page size and incremental auto-vacuum.
    static let pragmas = ["PRAGMA page_size = 4096", "PRAGMA auto_vacuum = INCREMENTAL"]
}
