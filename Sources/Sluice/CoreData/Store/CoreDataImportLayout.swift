/// An import into Core Data's store (`--layout coredata`, `docs/coredata-store.md#importing`)
/// as the engine sees it: the same engine and statements as Sluice's layout, given
///
/// * the Sluice model (converted from the Core Data model) renamed to Core Data's tables and
///   columns (`ZSTOP`, `ZNAME`, `ZPARENT`);
/// * the tables as `TableDefinition`s: `Z_PK` the key, `Z_ENT` a record's column in a family's
///   table (its entity's number) and filled by the store elsewhere, `Z_OPT` the row's version;
///   the identity's unique index lives only while the import runs (Core Data has none), unless
///   a uniqueness constraint of the model is over the identity: then that is the index;
/// * each relationship's storage, and the `Z_FOK_` column keeping an ordered to-many's order;
/// * Core Data's values (`StoreValues`: dates, UUIDs, decimals; `Z_ENT`);
/// * the file (`LayoutFile`): 4 KiB pages and incremental auto-vacuum, Core Data's own
///   statements making a new store, `Z_PRIMARYKEY` and `Z_METADATA`, the check of an existing
///   store's version hashes, the changed rows' `Z_OPT` raised once (`CoreDataVersioning`),
///   `Z_MAX` raised at the end, the destination entity columns of to-ones set, and the journal
///   left as `DELETE`.
///
/// What it cannot write as Core Data would is in `problems`: an import refuses the model.
struct CoreDataImportLayout: TableLayout {
    let model: Model
    let tables: [TableDefinition]
    let values: StoreValues
    let file: LayoutFile
    let problems: [ModelProblem]
    /// The model's path, for messages.
    let sourceName: String
    let triggersEmptyMovedPlaces: Bool
    private let storages: [String: DatabaseLayout.RelationshipStorage]
    private let positions: [String: String]

    /// - Parameters:
    ///   - model: the Sluice model converted from `coreDataModel`, with its roots.
    ///   - storeUUID: `NSStoreUUID` of a new store.
    ///   - existingTables: the tables of the store the import writes into, nil for a new one.
    init(coreDataModel: CoreDataModel, model: Model, sourceName: String, storeUUID: String,
         existingTables: Set<String>? = nil) throws(ModelError) {
        let layout = try CoreDataStoreLayout(coreDataModel, sourceName: sourceName, existingTables: existingTables)
        var problems = layout.problems
        let renamed = Self.renamed(model, in: layout)
        let storage = renamed.storageModel
        var storages: [String: DatabaseLayout.RelationshipStorage] = [:]
        var positions: [String: String] = [:]
        var finishing: [String] = []
        var links: [CoreDataVersioning.Link] = []
        for entity in storage.entities {
            let members = renamed.family(of: entity.name)
            problems += Self.sharedColumnProblems(members, entity: entity)
            for relationship in entity.relationships {
                guard let member = members.first(where: { $0.relationships.contains { $0.name == relationship.name } }),
                      let declared = member.relationships.first(where: { $0.name == relationship.name }),
                      let stored = layout.storage(ofRelationship: relationship.name, in: member.name) else { continue }
                let key = entity.name + "." + relationship.name
                switch stored {
                case .toOne(let table, let column, let entityColumn, _):
                    storages[key] = .column(table: table, column: column)
                    if let entityColumn, let target = layout.entity(named: declared.entity) {
                        finishing += Self.destinationEntityStatements(table: table, column: column, entityColumn: entityColumn,
                                                                      targetTable: target.table)
                    }
                case .byInverse(let table, let column):
                    storages[key] = .inverseColumn(table: table, column: column)
                    links.append(.init(table: table, column: column, target: entity.table))
                    if declared.ordered, let inverse = declared.inverse,
                       case .toOne(_, _, _, let order?)? = layout.storage(ofRelationship: inverse, in: declared.entity) {
                        positions[key] = order
                    }
                case .virtualToOne(let table, let column):
                    storages[key] = .inverseColumn(table: table, column: column)
                    links.append(.init(table: table, column: column, target: entity.table))
                case .joinTable(let join, let ownSideFirst):
                    // Each side's column holds its own row's Z_PK; the order of an ordered
                    // side's list is kept in the other side's Z_FOK_ column.
                    let (own, other) = ownSideFirst ? (join.first, join.second) : (join.second, join.first)
                    storages[key] = .joinTable(table: join.name, sourceColumn: own.column, targetColumn: other.column)
                    links.append(.init(table: join.name, column: own.column, target: entity.table))
                    if declared.ordered, let order = other.orderColumn { positions[key] = order }
                }
            }
        }
        var tables: [TableDefinition] = []
        var identityIndexes: Set<String> = []
        var tableFinishing: [String] = []
        for table in layout.tables {
            guard let root = storage.entity(named: table.root), let number = layout.entity(named: table.root)?.number
            else { continue }
            let family = renamed.hasDescendants(root.name)
            let columns = table.columns.map { column -> TableDefinition.ColumnDefinition in
                switch column.role {
                case .entityNumber where !family: return .init(name: column.name, sqlType: column.type, fill: .constant(Int64(number)))
                case .optimisticLock: return .init(name: column.name, sqlType: column.type, fill: .version)
                default: return .init(name: column.name, sqlType: column.type)
                }
            }
            let identity = root.identity.map { name in
                root.attributes.first { $0.name == name }?.column
                    ?? root.relationships.first { $0.name == name && !$0.toMany }?.column ?? name
            }
            let numbers = family ? Dictionary(uniqueKeysWithValues: layout.entities.filter { $0.table == table.name }
                .map { ($0.name, Int64($0.number)) }) : nil
            // A uniqueness constraint over the identity is the index the batches look rows up
            // by: made with the table, and no index of the import's own beside it.
            let constraint = layout.indexes.first { $0.unique && $0.table == table.name && $0.columns == identity }
            if let constraint { identityIndexes.insert(constraint.name) }
            tables.append(TableDefinition(name: table.name, columns: columns, uniqueIndex: constraint == nil ? identity : [],
                                          primaryKey: ["Z_PK"],
                                          entityColumn: numbers.map { .init(name: "Z_ENT", numbers: $0) }))
            // Written only when it grows: a re-import that inserts nothing writes nothing here.
            let largest = "(SELECT ifnull(max(Z_PK), 0) FROM \(quoteIdentifier(table.name)))"
            tableFinishing.append("UPDATE Z_PRIMARYKEY SET Z_MAX = \(largest) WHERE Z_ENT = \(number) AND ifnull(Z_MAX, 0) < \(largest)")
            if !identity.isEmpty && constraint == nil {
                tableFinishing.append("DROP INDEX IF EXISTS \(quoteIdentifier(table.name + "_identity"))")
            }
        }
        let oneToOnes = CoreDataOneToOnes(layout, model: coreDataModel)
        let orderKeys = CoreDataOrderKeys(layout, model: coreDataModel)
        let versioning = CoreDataVersioning(
            tables: tables.map { table in .init(name: table.name, columns: table.columns.map(\.name).filter { $0 != "Z_PK" && $0 != "Z_OPT" }) },
            links: links, joinTables: Set(layout.joinTables.map(\.name)))
        // The destination entity columns and order keys first: their changes are rows' changes too.
        finishing += orderKeys.finishing + versioning.raise + tableFinishing
        self.model = renamed
        self.sourceName = sourceName
        self.tables = tables
        self.storages = storages
        self.positions = positions
        triggersEmptyMovedPlaces = !orderKeys.toOnes.isEmpty
        self.problems = problems
        values = StoreValues(encoding: .coreData, entity: Model.EntityColumn(
            name: "Z_ENT", numbers: Dictionary(uniqueKeysWithValues: layout.entities.map { ($0.name, Int64($0.number)) })))
        file = Self.file(layout, storeUUID: storeUUID, sourceName: sourceName, finishing: finishing, identityIndexes: identityIndexes,
                         versioning: versioning, oneToOnes: oneToOnes, orderKeys: orderKeys)
    }

    func storage(of relationship: Model.Relationship, in entity: Model.Entity) -> DatabaseLayout.RelationshipStorage {
        storages[entity.name + "." + relationship.name] ?? .column(table: entity.table, column: relationship.column)
    }

    func positionColumn(of relationship: Model.Relationship, in entity: Model.Entity) -> String? {
        positions[entity.name + "." + relationship.name]
    }

    // MARK: Building

    /// `model` with Core Data's table of each entity, column of each attribute and column of
    /// each to-one.
    private static func renamed(_ model: Model, in layout: CoreDataStoreLayout) -> Model {
        var result = model
        for index in result.entities.indices {
            let name = result.entities[index].name
            if let table = layout.entity(named: name)?.table { result.entities[index].table = table }
            for attribute in result.entities[index].attributes.indices {
                if let (_, column) = layout.column(ofAttribute: result.entities[index].attributes[attribute].name, in: name) {
                    result.entities[index].attributes[attribute].column = column
                }
            }
            for relationship in result.entities[index].relationships.indices {
                if case .toOne(_, let column, _, _)? = layout.storage(ofRelationship: result.entities[index].relationships[relationship].name,
                                                                      in: name) {
                    result.entities[index].relationships[relationship].column = column
                }
            }
        }
        return result
    }

    /// Attributes of one name declared by two members of a family: Sluice's layout keeps them in
    /// one column, Core Data in one each (`ZNAME`, `ZNAME1`).
    private static func sharedColumnProblems(_ members: [Model.Entity], entity: Model.Entity) -> [ModelProblem] {
        var problems: [ModelProblem] = []
        for attribute in entity.attributes {
            let declaring = members.filter { member in member.attributes.contains { $0.name == attribute.name && $0.column != attribute.column } }
            guard let other = declaring.first, let first = members.first(where: { $0.attributes.contains { $0 == attribute } }) else { continue }
            problems.append(ModelProblem(
                path: "entities.\(other.name).attributes.\(attribute.name)",
                message: "\(first.name) and \(other.name) both have an attribute \(ModelProblem.quote(attribute.name)), which Core Data "
                    + "keeps in two columns of \(entity.table); an import into Core Data's store cannot yet tell them apart: refused"))
        }
        return problems
    }

    /// Sets the column holding the `Z_ENT` of a to-one's destination, where the destination has
    /// sub-entities, from the destination's row: once, at the end, whoever set the link. A row
    /// already right is not written.
    private static func destinationEntityStatements(table: String, column: String, entityColumn: String,
                                                    targetTable: String) -> [String] {
        let (source, link, kind) = (quoteIdentifier(table), quoteIdentifier(column), quoteIdentifier(entityColumn))
        let target = "(SELECT t.Z_ENT FROM \(quoteIdentifier(targetTable)) AS t WHERE t.Z_PK = \(source).\(link))"
        return [
            "UPDATE \(source) SET \(kind) = \(target) WHERE \(link) IS NOT NULL AND \(kind) IS NOT \(target)",
            "UPDATE \(source) SET \(kind) = NULL WHERE \(link) IS NULL AND \(kind) IS NOT NULL",
        ]
    }

    /// `identityIndexes`: the uniqueness constraints that are identities, made with the tables
    /// (the batches look rows up by them), as are the indexes of one-to-ones' columns (their
    /// triggers do); the other indexes are built after the load.
    private static func file(_ layout: CoreDataStoreLayout, storeUUID: String, sourceName: String,
                             finishing: [String], identityIndexes: Set<String>, versioning: CoreDataVersioning,
                             oneToOnes: CoreDataOneToOnes, orderKeys: CoreDataOrderKeys) -> LayoutFile {
        let indexes = zip(layout.indexes, layout.indexStatements)
        let triggered = Set(oneToOnes.columns.map { "\($0.table).\($0.column)" })
        let isTriggered = { (index: CoreDataStoreLayout.Index) in index.columns.count == 1 && triggered.contains("\(index.table).\(index.columns[0])") }
        let madeFirst = indexes.filter { identityIndexes.contains($0.0.name) || isTriggered($0.0) }.map(\.1)
        let primaryKeyRows = layout.primaryKeyRows.map { (sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                                                          values: $0) }
        let metadata = (sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (?, ?, ?)",
                        values: layout.metadataRow(storeUUID: storeUUID))
        let roots = layout.entities.filter { $0.superNumber == 0 }
        let tableOfRoot = roots.map { "WHEN \($0.number) THEN '\($0.table)'" }.joined(separator: " ")
        let hashes = layout.versionHashes
        let versions = CoreDataBundle.otherVersions(of: sourceName)
        return LayoutFile(
            description: "a Core Data store",
            fileFormat: CoreDataStoreLayout.pragmas,
            markerTable: "Z_METADATA",
            creation: (layout.dataTableStatements + madeFirst + CoreDataStoreLayout.bookkeepingStatements).map { (sql: $0, values: []) }
                + primaryKeyRows + [metadata],
            deferredIndexes: indexes.filter { !identityIndexes.contains($0.0.name) && !isTriggered($0.0) }.map { index, sql in
                SecondaryIndexes.Deferred(name: index.name, table: index.table, columns: index.columns, sql: sql)
            },
            identityIndexes: indexes.filter { identityIndexes.contains($0.0.name) }.map { index, sql in
                SecondaryIndexes.Deferred(name: index.name, table: index.table, columns: index.columns, sql: sql)
            },
            verifyQuery: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1",
            verify: { rows, database in
                CoreDataStoreCheck.mismatch(rows.first?.first, expected: hashes, database: database, model: sourceName,
                                            versions: versions)
            },
            issuedKeysQuery: roots.isEmpty ? "SELECT NULL, 0 WHERE 0"
                : "SELECT CASE Z_ENT \(tableOfRoot) END, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0",
            keyedTables: versioning.tables.map(\.name),
            setup: { lastKeys in versioning.setup(lastKeys: lastKeys) + oneToOnes.triggers + orderKeys.setup(lastKeys: lastKeys) },
            finishing: finishing,
            journalMode: "DELETE",
            importLog: CoreDataImportLog.place)
    }
}

extension CoreDataImportLayout {
    /// A random (version 4) UUID, upper-case, as Core Data writes `NSStoreUUID`.
    static func newStoreUUID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16, uppercase: true).count == 1
            ? "0" + String(byte, radix: 16, uppercase: true) : String(byte, radix: 16, uppercase: true) }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }
}
