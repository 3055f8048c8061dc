/// A model built into Sluice, named instead of a path: `sluice import --model gtfs`.
///
/// Its text is a model file kept readable in the repository
/// (`Sources/Sluice/Model/BuiltInModels/<name>.json`) and compiled in as a resource of the
/// package (`embedInCode`), so that it needs no file at run time; `sluice convert-model gtfs`
/// prints it for users to extend.
public enum BuiltInModel: String, CaseIterable, Sendable {
    /// The GTFS Schedule reference: every file and field (`docs/gtfs.md`).
    case gtfs

    /// The model file's text, as its file in the repository holds it.
    public var text: String {
        switch self {
        case .gtfs: Self.gtfsText
        }
    }

    /// Decoded once, on first use.
    private static let gtfsText = String(decoding: PackageResources.gtfs_json, as: UTF8.self)
}
