/// Whether `RecordAssembler` takes its inlined common cases (`startObject`, `key`, `scalar`,
/// `completeRecord`, the learned key order, the direct conversion of strings and numbers) or
/// sends every event through the general path those cases shortcut.
///
/// Each common case is a copy of what the general path does in a situation it checks for
/// (nothing captured or skipped, the next value an attribute's, a record with nothing to
/// check…). The general path is the specification; the tests run the same inputs both ways
/// and compare records, positions, rejections and rows, so a common case that assumed
/// something the general path does not is caught there.
///
/// `SLUICE_GENERAL_PATHS=1` in the environment makes every import of the process take the
/// general path (`scripts/test` runs the suite once more that way); read once.
enum FastPaths {
    static let enabledByDefault: Bool = {
        guard let value = SystemCalls.environment("SLUICE_GENERAL_PATHS") else { return true }
        return value.isEmpty || value == "0"
    }()
}
