/// The version `sluice --version` prints.
public enum SluiceVersion {
    /// The version: CHANGELOG.md's first entry, and the tag a package names with `from:`.
    public static let current = "0.1.0"
}
