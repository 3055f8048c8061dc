/// How the layout a store is written in keeps the values the mapping makes, decided when the
/// plan is built so that records, defaults and the ids links are looked up by all come out
/// alike (`ValueConverter`): Sluice's own (`docs/database-layout.md`), the same in PostgreSQL
/// but for dates, which a timestamptz keeps to the microsecond (`docs/postgresql.md`), or Core
/// Data's (`docs/coredata-store.md#values`).
enum ValueEncoding: UInt8, Sendable {
    case sluice, postgreSQL, coreData
}

/// The values a layout's tables hold beyond the attributes: which column of a family's table
/// names each row's entity, and how it names it.
struct StoreValues: Sendable {
    var encoding = ValueEncoding.sluice
    /// The family table's column naming the entity of each row, and how.
    var entity = Model.EntityColumn()

    static let sluice = StoreValues()
    static let postgreSQL = StoreValues(encoding: .postgreSQL)
}
