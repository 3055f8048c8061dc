/// How the library's messages name an import's options: as `ImportOptions`' properties
/// (`ImportOptions.entity`), what an app's code sets, or as `sluice import`'s flags
/// (`--entity`), what a command's user types. The `sluice` command sets `.commandLine`
/// (`ImportOptions.optionNames`); a host building its own command line may too.
public enum OptionNames: Sendable, Equatable {
    /// As `ImportOptions`' properties: `ImportOptions.entity`, `ImportOptions.roots`.
    case library
    /// As `sluice import`'s flags: `--entity`, `--root KEY=ENTITY`.
    case commandLine

    /// An option a message names.
    enum Option {
        case batchSize, chunkSize, maxValueBytes, header, mapKey, roots, entity, path, unresolved, deleteMissing, model, feed, removeFeed
    }

    /// The option as a message names it: `ImportOptions.mapKey` or `--map-key`.
    func callAsFunction(_ option: Option) -> String {
        switch self {
        case .library:
            switch option {
            case .batchSize: "ImportOptions.batchSize"
            case .chunkSize: "ImportOptions.chunkSize"
            case .maxValueBytes: "ImportOptions.maxValueBytes"
            case .header: "ImportOptions.header"
            case .mapKey: "ImportOptions.mapKey"
            case .roots: "ImportOptions.roots"
            case .entity: "ImportOptions.entity"
            case .path: "ImportOptions.path"
            case .unresolved: "ImportOptions.unresolved"
            case .deleteMissing: "ImportOptions.deleteMissing"
            case .model: "a model"
            case .feed: "ImportOptions.feed"
            case .removeFeed: "ImportOptions.removeFeed"
            }
        case .commandLine:
            switch option {
            case .batchSize: "--batch-size"
            case .chunkSize: "the chunk size"
            case .maxValueBytes: "--max-value-bytes"
            case .header: "--header"
            case .mapKey: "--map-key"
            case .roots: "--root"
            case .entity: "--entity"
            case .path: "--path"
            case .unresolved: "--unresolved"
            case .deleteMissing: "--delete-missing"
            case .model: "--model"
            case .feed: "--feed"
            case .removeFeed: "--remove"
            }
        }
    }

    /// One `KEY=ENTITY` root override as a message names it: `--root stops=Stop`, or
    /// `ImportOptions.roots "stops=Stop"`.
    func root(_ text: String, quoted: Bool) -> String {
        self == .commandLine ? "--root \(quoted ? ModelProblem.quote(text) : text)" : "ImportOptions.roots \(ModelProblem.quote(text))"
    }
}
