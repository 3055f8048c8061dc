/// The version `sluice --version` prints.
public enum SluiceVersion {
    public static let current = "0.1.0"
}
