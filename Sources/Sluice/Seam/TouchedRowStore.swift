/// The rows an import mentioned, for `--delete-missing` (`Store/TouchedRows.swift`, both stores).
protocol TouchedRowStore: AnyObject {
    /// Per family table: the entities whose rows may be deleted, when not all of them.
    var onlyMembers: [Int: [String]] { get set }
    /// Whether the rows of `entity` are remembered (a root entity with an identity).
    func remembers(_ entity: Int) -> Bool
    /// Remembers that the import mentioned the rows `pks` of `entity`.
    func record(_ pks: [Int64], of entity: Int) throws(SluiceError)
    /// Deletes the rows not mentioned and unlinks what pointed at them; deleted rows per entity.
    /// `willDelete` is told each entity before its rows go (for progress).
    func deleteUntouched(plans: [[LinkPlan]], tables: [String], willDelete: (Int) -> Void) throws(SluiceError) -> [Int: Int]
}
