/// The converted identity of a record, for matching within a batch and against the rows
/// found. Values are compared after conversion, so `"42"` and `42` are one integer identity.
enum IdentityKey: Hashable {
    case single(DatabaseValue)
    case composite([DatabaseValue])

    /// The key of the record whose attribute values `value` gives, or nil when a part is
    /// missing or null: such a record is inserted as new.
    init?(identity: [Int], _ value: (Int) -> DatabaseValue?) {
        if identity.count == 1 {
            guard let part = value(identity[0]), part != .null else { return nil }
            self = .single(part)
            return
        }
        var parts: [DatabaseValue] = []
        parts.reserveCapacity(identity.count)
        for index in identity {
            guard let part = value(index), part != .null else { return nil }
            parts.append(part)
        }
        self = .composite(parts)
    }

    var parts: [DatabaseValue] {
        switch self {
        case .single(let value): return [value]
        case .composite(let values): return values
        }
    }
}
