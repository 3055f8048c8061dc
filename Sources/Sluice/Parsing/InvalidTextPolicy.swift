/// What invalid text in the input does (`--invalid-text`): invalid UTF-8 and `\u` escapes
/// that leave a surrogate unpaired, inside strings and keys.
public enum InvalidTextPolicy: String, Sendable, CaseIterable {
    /// An error: an input error with its position, or inside a record a record error (which
    /// `--on-error skip` skips).
    case reject
    /// U+FFFD in place of each bad sequence (WHATWG's "maximal subpart" rule), counted in the
    /// report's `replacementCharacters`.
    case replace
}
