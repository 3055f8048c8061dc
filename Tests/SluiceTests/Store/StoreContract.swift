import Foundation
@testable import Sluice
import SluiceTestSupport

/// A store that `StoreContractTests` holds to the engine's seam (`Seam/ImportStore.swift`):
/// a third store or layout is added here and passes the same cases.
enum ContractStore: String, CaseIterable, CustomStringConvertible, Sendable {
    /// `sqliteZPK`: SQLite with every entity table keyed by `"Z_PK"` instead of `"pk"`, as
    /// another layout (Core Data's) keys them: the stores take each table's key from the layout
    /// they were migrated to (`TableKeys`), never from a name of their own.
    case sqlite, postgres, sqliteZPK

    var description: String { rawValue }

    /// The key column of the entity tables.
    var keyColumn: String { self == .sqliteZPK ? "Z_PK" : DatabaseLayout.keyColumn }
}

/// One store opened for one test, inside its import's transaction, with the contract's model
/// migrated: people with an employer (a to-one), pets (a to-many stored by its inverse),
/// friends (a join table) and an ordered playlist (a join table with places).
final class ContractDatabase {
    static let model = """
        {"root": "Person", "entities": {
          "Person": {"table": "people", "identity": "id", "attributes": {"id": "string", "name": "string"},
            "relationships": {
              "employer": {"entity": "Company", "key": "employer"},
              "pets": {"entity": "Pet", "toMany": true, "inverse": "owner", "key": "pets"},
              "friends": {"entity": "Person", "toMany": true, "key": "friends"},
              "playlist": {"entity": "Song", "toMany": true, "ordered": true, "key": "songs", "merge": "replace"}}},
          "Company": {"table": "companies", "identity": "id", "attributes": {"id": "string"}},
          "Pet": {"table": "pets", "identity": "id", "attributes": {"id": "string"},
            "relationships": {"owner": {"entity": "Person", "key": "owner"}}},
          "Song": {"table": "songs", "identity": "id", "attributes": {"id": "string"}}}}
        """

    let kind: ContractStore
    let store: any ImportStore
    /// The indexes the migration left for later, or made early (`SecondaryIndexes`).
    let indexes: SecondaryIndexes
    let layout: DatabaseLayout
    /// The layout's tables, with the entity tables keyed by `kind.keyColumn`.
    let tableDefinitions: [TableDefinition]
    let plans: [[LinkPlan]]
    let entities: [String]
    /// The entities' tables, in model order.
    let tables: [String]
    private let folder: TemporaryDirectory?

    init(_ kind: ContractStore) throws {
        self.kind = kind
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let mapping = try MappingPlan(model: model)
        layout = DatabaseLayout(model)
        plans = LinkPlan.plans(model: mapping.storageModel, mapping: mapping, layout: layout)
        entities = model.entities.map(\.name)
        tables = model.entities.map(\.table)
        tableDefinitions = layout.tables.map { table in
            guard kind.keyColumn != DatabaseLayout.keyColumn, table.keyColumn == DatabaseLayout.keyColumn else { return table }
            var renamed = table
            renamed.primaryKey = [kind.keyColumn]
            for index in renamed.columns.indices {
                if renamed.columns[index].name == DatabaseLayout.keyColumn { renamed.columns[index].name = kind.keyColumn }
                renamed.columns[index].references = nil
            }
            return renamed
        }
        let store: any ImportStore
        switch kind {
        case .sqlite, .sqliteZPK:
            let folder = TemporaryDirectory()
            self.folder = folder
            store = try SQLiteStore(path: folder.file("db.sqlite"))
        case .postgres:
            let server = try PostgresServer.started()
            folder = nil
            store = try PostgresStore(uri: server.uri(try server.makeDatabase()), schema: "public")
        }
        self.store = store
        indexes = try store.migrate(to: tableDefinitions)
    }

    /// The names of the indexes `table` has now, sorted.
    func indexNames(of table: String) throws -> [String] {
        let sql = switch kind {
        case .sqlite, .sqliteZPK: "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '\(table)' AND sql IS NOT NULL"
        case .postgres: "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = '\(table)'"
        }
        return try rows(sql).sorted()
    }

    deinit {
        store.rollback()
    }

    func entity(_ name: String) -> Int { entities.firstIndex(of: name)! }

    func plan(_ name: String) -> LinkPlan { plans.joined().first { $0.name == name }! }

    /// The columns a batch of `entity` holds, in order: the table's, the key aside.
    func columns(of table: String) -> [String] {
        tableDefinitions.first { $0.name == table }!.columns.map(\.name).filter { $0 != kind.keyColumn }
    }

    /// Runs `body` over `rows` (`nil`: missing) of `table` as cells, as a batch holds them.
    func withRows<R>(_ table: String, _ rows: [[ColumnValue?]], _ body: (any EntityRowStore, CellRows) throws -> R) throws -> R {
        let columns = columns(of: table)
        let writer = try store.entityRows(entity: table, table: table, columns: columns,
                                          defaults: columns.map { _ in nil }, identity: [0])
        var arena: [UInt8] = []
        var cells: [Cell] = []
        for row in rows {
            for column in columns.indices { cells.append(Cell(column < row.count ? row[column] : nil, in: &arena)) }
        }
        return try cells.withUnsafeBufferPointer { cells in
            try arena.withUnsafeBytes { arena in try body(writer, CellRows(cells: cells, width: columns.count, arena: arena)) }
        }
    }

    /// Inserts rows of `table` whose first column is `ids`; returns their pks by id.
    @discardableResult
    func insert(_ table: String, _ ids: [String]) throws -> [String: Int64] {
        try withRows(table, ids.map { [.text($0)] }) { writer, rows in
            var pks = Array(repeating: Int64(0), count: ids.count)
            try writer.insert(Array(ids.indices), of: rows, pks: &pks)
            return Dictionary(uniqueKeysWithValues: zip(ids, pks))
        }
    }

    /// The rows of a query through the store's own transaction, each a line of `|`-separated
    /// fields (NULL empty). The query names the key `"pk"`, read as the tables' key column.
    func rows(_ sql: String) throws -> [String] {
        let runner: any SQLRunning = switch kind {
        case .sqlite, .sqliteZPK: (store as! SQLiteStore).runner
        case .postgres: (store as! PostgresStore).runner
        }
        let query = sql.replacingOccurrences(of: "\"pk\"", with: quoteIdentifier(kind.keyColumn))
        return try runner.rows(query, []).map { row in
            row.map { value in
                switch value {
                case .null: ""
                case .integer(let number): String(number)
                case .real(let number): String(number)
                case .text(let text): text
                case .blob(let bytes): bytes.map { String($0) }.joined(separator: ",")
                }
            }.joined(separator: "|")
        }
    }

    /// The whole second pass, as `Importer.finish()` runs it: every pass the store makes of the
    /// relationships with links waiting; the outcomes by relationship.
    func resolveAll(_ pending: any PendingLinkStore, policy: Model.UnresolvedPolicy = .null,
                    sources: [String] = ["in.json"]) throws(SluiceError) -> [String: LinkOutcome] {
        var pending = pending
        var outcomes: [String: LinkOutcome] = [:]
        for pass in pending.passes(Array(plans.joined())) {
            let results = try pending.resolve(pass, policy: { _ in policy }, sources: sources) { _ in }
            for (plan, outcome) in zip(pass, results) { outcomes[plan.name] = outcome }
        }
        return outcomes
    }
}
