/// How an import runs (`docs/cli.md` import options that reach the library).
public struct ImportOptions: Sendable {
    /// What a record that cannot be imported does (`--on-error`).
    public enum ErrorPolicy: String, Sendable, CaseIterable {
        /// Stop at the first record that cannot be imported; nothing is written.
        case abort
        /// Skip such records, count them, and go on.
        case skip
    }

    /// Records collected before one find-or-create round trip per entity; fewer when they are
    /// wide: a batch holds at most `batchSize × 10` values (`docs/import-semantics.md`).
    public var batchSize = 5_000
    /// `--on-error`: stop at the first record that cannot be imported, or skip it.
    public var onError = ErrorPolicy.abort
    /// `--entity`: the entity of the top-level records (overrides the model's `root`).
    public var entity: String?
    /// `--root KEY=ENTITY`: the records under a top-level key, or in a file or zip entry of
    /// that name, are of this entity; added to the model's `root`, a key it already maps
    /// taking the new entity (`Model.addingRoots`). Needs a model; not with `entity`.
    public var roots: [Model.RootOverride] = []
    /// `--path`: where the records are inside an envelope, e.g. `data.items`.
    public var path: String?
    /// `--map-key`: the records are the members of an object used as a map (at `path`, or the
    /// top-level object), and each member's name goes to this attribute (with a model, which
    /// then needs `entity`) or column (zero-config).
    public var mapKey: String?
    /// `--header`: the records are rows of a table (arrays) whose header is the first array
    /// (`first`) or the array under this key beside the records (pandas' `columns`).
    public var header: TabularHeader?
    /// `--format`: what every input is (standard input is JSON without it). Nil: each file by
    /// its name (`.csv`, `.tsv`, else JSON); a zip archive's entries always by theirs.
    public var format: InputFormat?
    /// The largest single JSON value (or CSV field) accepted; at most `largestMaxValueBytes`.
    public var maxValueBytes = 64 << 20
    /// `--invalid-text`: what invalid UTF-8 or an unpaired surrogate escape in a string or key
    /// does: an error (a record error inside a record), or U+FFFD in its place.
    public var invalidText = InvalidTextPolicy.reject
    /// Bytes read from an input at a time.
    public var chunkSize = 1 << 20
    /// `--unresolved`: what happens to references still missing at the end, for every
    /// relationship (overrides the model's `unresolved`).
    public var unresolved: Model.UnresolvedPolicy?
    /// `--delete-missing`: rows of root entities with identity that this import did not
    /// mention are deleted, and links to them removed.
    public var deleteMissing = false
    /// `--feed`: the feed this import's rows belong to (`docs/import-semantics.md#feeds`): its
    /// rows carry it (`Model.feedColumn`), identities and links resolve among its rows, and
    /// `deleteMissing` deletes only its rows. nil: the database holds one feed, as without it.
    public var feed: String?
    /// `--remove` (with `feed`): the import reads no input and deletes every row of the feed,
    /// as `deleteMissing` deletes rows no input mentioned (the deletion rules apply).
    public var removeFeed = false
    /// Run `ANALYZE` before committing, so the query planner knows the new data.
    public var analyze = false
    /// Run `VACUUM` after committing, to give freed pages back. A new SQLite database is then
    /// built in 16 KiB pages and what lands is its vacuumed copy in the file's own format (a
    /// Core Data store's 4 KiB pages), written once with `VACUUM INTO`.
    public var vacuum = false
    /// `--rejects FILE`: every rejected record as one JSON line (file, line, column, entity,
    /// reason, record), written as the import goes; see `RejectsFile`.
    public var rejectsPath: String?
    /// Set from another thread or a signal handler to stop the import; it then rolls back and
    /// throws `.interrupted`.
    public var cancellation: ImportCancellation?
    /// Called on the importing thread after each input chunk (`chunkSize` bytes) is parsed,
    /// never per record. It should return quickly: the import waits for it. The library never
    /// prints; the `sluice` CLI draws its progress bar from this.
    public var progress: (@Sendable (ImportProgress) -> Void)?
    /// Hooks by entity name (`EntityHooks`); a family member without its own uses its
    /// nearest ancestor's.
    public var hooks: [String: EntityHooks] = [:]

    /// What the import's notes say about keys (`ImportReport.notes`).
    public enum KeyNotes: Sendable {
        /// Attributes whose keys no record held: most often a typo in the model's `key`.
        case absentKeys
        /// Keys the records held that no attribute maps, so were not imported: for a model
        /// that names every key a source may hold, most of them absent from any one source
        /// (the built-in GTFS model, for which `sluice import` sets it).
        case unmappedKeys
    }
    /// Which keys the notes name: by default the attributes whose keys no record held.
    public var keyNotes = KeyNotes.absentKeys

    /// `--schema`: the PostgreSQL schema of the tables (`docs/postgresql.md`); SQLite has none.
    public var schema = "public"

    /// How errors name these options: `ImportOptions.entity` (`.library`, the default) or
    /// `--entity` (`.commandLine`, which the `sluice` command sets).
    public var optionNames = OptionNames.library
    /// The tables the import writes (`--layout`): Sluice's own, or the SQLite store Core Data
    /// keeps for a Core Data model (`docs/coredata-store.md#importing`), which needs the model's
    /// file (`Importer(databasePath:modelFile:options:)`).
    public var layout = Layout.sluice

    /// The tables an import writes (`--layout`).
    public enum Layout: String, Sendable, CaseIterable {
        /// Sluice's own tables (`docs/database-layout.md`).
        case sluice
        /// The SQLite store Core Data keeps for the Core Data model, which an app opens as its own.
        case coreData = "coredata"
    }

    /// The defaults of `sluice import`.
    public init() {}

    /// Whether the record assembler takes its inlined common cases (`FastPaths`); tests set it
    /// false to prove them equal to the general path.
    var fastPaths = FastPaths.enabledByDefault

    /// The largest `maxValueBytes`: the most bytes one value of a column can hold (2 GiB - 1).
    public static let largestMaxValueBytes = Cell.maxByteCount

    /// Throws a usage error for options that no import can run with; `withModel` says
    /// whether the import has a model (`Importer(databasePath:model:)`) or is zero-config.
    /// `Importer` checks its options before it opens the database; the CLI checks them with
    /// its other arguments, so both refuse the same options with the same words.
    public func validate(withModel: Bool = true) throws(SluiceError) {
        let name = optionNames
        guard batchSize > 0 else { throw SluiceError(.usage, "\(name(.batchSize)) must be at least 1") }
        guard chunkSize > 0 else { throw SluiceError(.usage, "\(name(.chunkSize)) must be at least 1 byte") }
        guard maxValueBytes > 0 else { throw SluiceError(.usage, "\(name(.maxValueBytes)) must be at least 1") }
        guard maxValueBytes <= Self.largestMaxValueBytes else {
            throw SluiceError(.usage, "\(name(.maxValueBytes)) must be at most \(Self.largestMaxValueBytes) "
                + "(the largest value a column can hold)")
        }
        guard header == nil || mapKey == nil else {
            throw SluiceError(.usage, "\(name(.header)) and \(name(.mapKey)) cannot be used together: "
                + "a location is a map or a table, not both")
        }
        if let feed, feed.isEmpty || feed.utf8.contains(0) {
            throw SluiceError(.usage, "\(name(.feed)) must name the feed: a name of at least one character, without NUL")
        }
        if removeFeed, feed == nil {
            throw SluiceError(.usage, "\(name(.removeFeed)) needs \(name(.feed)): it removes the rows of one feed")
        }
        for root in roots {
            guard root.hasValidKey, !root.entity.isEmpty else {
                throw SluiceError(.usage, "\(name.root(root.key + "=" + root.entity, quoted: true)): expected KEY=ENTITY, "
                    + "KEY a key path (stops, data.items) or a file name (stops.txt), ENTITY an entity of the model")
            }
        }
        if !roots.isEmpty {
            guard entity == nil, path == nil, mapKey == nil, header == nil else {
                let other = name(entity != nil ? .entity : path != nil ? .path : mapKey != nil ? .mapKey : .header)
                throw SluiceError(.usage, "\(name(.roots)) and \(other) cannot be used together: \(name(.roots)) names the entity "
                    + "of each key or file, \(name(.entity)) (with \(name(.path)), \(name(.mapKey)), \(name(.header))) one entity "
                    + "for all the records")
            }
        }
        if !withModel {
            guard roots.isEmpty else {
                throw SluiceError(.usage, "\(name(.roots)) needs \(name(.model)): without a model, the records go to one table")
            }
            guard entity == nil else {
                throw SluiceError(.usage, "\(name(.entity)) needs \(name(.model)): without a model, the records go to one table")
            }
            guard feed == nil else {
                throw SluiceError(.usage, "\(name(.feed)) needs \(name(.model)): without a model, the records go to one table")
            }
            guard unresolved == nil, !deleteMissing else {
                throw SluiceError(.usage, "\(name(.unresolved)) and \(name(.deleteMissing)) need \(name(.model)): "
                    + "a zero-config import has no identities or relationships")
            }
        }
    }
}
