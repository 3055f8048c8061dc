import Foundation
@testable import Sluice
import SluiceTestSupport

/// A store that `StoreContractTests` holds to the engine's seam (`Engine/ImportStore.swift`):
/// a third store or layout is added here and passes the same cases.
enum ContractStore: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    /// Whether this store can run here (PostgreSQL needs its server binaries).
    var isAvailable: Bool { self == .sqlite || PostgresServer.isAvailable }

    static let available = allCases.filter(\.isAvailable)
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
    let layout: DatabaseLayout
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
        switch kind {
        case .sqlite:
            let folder = TemporaryDirectory()
            self.folder = folder
            store = try SQLiteStore(path: folder.file("db.sqlite"))
        case .postgres:
            let server = try PostgresServer.started()
            folder = nil
            store = try PostgresStore(uri: server.uri(try server.makeDatabase()), schema: "public")
        }
        _ = try store.migrate(to: layout.tables)
    }

    deinit {
        store.rollback()
    }

    func entity(_ name: String) -> Int { entities.firstIndex(of: name)! }

    func plan(_ name: String) -> LinkPlan { plans.joined().first { $0.name == name }! }

    /// The columns a batch of `entity` holds, in order: the table's, the pk aside.
    func columns(of table: String) -> [String] {
        layout.table(named: table)!.columns.map(\.name).filter { $0 != "pk" }
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
    /// fields (NULL empty).
    func rows(_ sql: String) throws -> [String] {
        let runner: any SQLRunning = switch kind {
        case .sqlite: (store as! SQLiteStore).runner
        case .postgres: (store as! PostgresStore).runner
        }
        return try runner.rows(sql, []).map { row in
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
        var outcomes: [String: LinkOutcome] = [:]
        for pass in pending.passes(Array(plans.joined())) {
            let results = try pending.resolve(pass, policy: { _ in policy }, sources: sources) { _ in }
            for (plan, outcome) in zip(pass, results) { outcomes[plan.name] = outcome }
        }
        return outcomes
    }
}
