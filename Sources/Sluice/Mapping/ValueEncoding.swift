/// How the layout a store is written in keeps the values the mapping makes, decided when the
/// plan is built so that records, defaults and the ids links are looked up by all come out
/// alike (`ValueConverter`): Sluice's own (`docs/database-layout.md`) or Core Data's
/// (`docs/coredata-store.md#values`).
enum ValueEncoding: UInt8, Sendable {
    case sluice, coreData

    /// Milliseconds from 1970-01-01 to 2001-01-01, Core Data's reference date.
    static let referenceDateMilliseconds: Int64 = 978_307_200_000
}

/// The values a layout's tables hold beyond the attributes: which column of a family's table
/// names each row's entity, and how it names it.
struct StoreValues: Sendable {
    var encoding = ValueEncoding.sluice
    /// The family table's column naming the entity of each row, and how.
    var entity = Model.EntityColumn()

    static let sluice = StoreValues()
}
