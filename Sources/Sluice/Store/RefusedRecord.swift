/// How a store names the record of a row its database refused (a CHECK, NOT NULL or UNIQUE
/// constraint made by hand, a value the column cannot hold): the record's place, its entity,
/// then the database's reason — `<file>:<line>:<column>: Item: cannot write database …`.
/// The input's name is the import's to give (`SluiceError.input`).
extension SluiceError {
    /// `self` as the refusal of the record of `entity` at `place`; `fromHereOn` when the
    /// database named no row, and the place is only where the refused statement's rows begin.
    func refusal(of entity: String, at place: (input: Int, position: InputPosition), fromHereOn: Bool = false) -> SluiceError {
        var named = SluiceError(kind, "\(entity): \(fromHereOn ? "a record of the batch from here on: " : "")\(message)",
                                at: place.position)
        named.input = place.input
        return named
    }
}
