import ArgumentParser
import Sluice

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import JSON, CSV, zip archives (GTFS feeds) or standard input into SQLite, PostgreSQL or a Core Data store.",
        // Written out: the generated one shows `--db <db> ...`, as if several were taken.
        usage: "sluice import [<options>] --db <db> [<files> ...]",
        discussion: """
        Input may be a JSON array, one object, an object holding record arrays, or a stream of \
        values (NDJSON, concatenated JSON); CSV or TSV (by the file's name or --format); or a \
        zip archive of such files, as a GTFS feed is (--model gtfs is the built-in GTFS \
        model); each optionally gzip-compressed. With no FILE, or with -, standard input is \
        read. --db is a SQLite file or a PostgreSQL URI; with --layout coredata and a Core \
        Data model, the SQLite file is the store Core Data keeps for that model, which an app \
        opens as its own. The import is one transaction: on any error the database is left \
        as it was.

        --model takes a JSON model file, a Core Data model (.xcdatamodeld, .xcdatamodel, \
        .momd) or gtfs. Without --model the import is zero-config: the records go to one \
        table (--table, by default the first FILE's name without its extensions, or \
        "records" for standard input), one column per key seen, added as new keys appear; \
        nested objects and arrays are stored as JSON text. Every record is appended as a new \
        row.

        A progress bar is shown while stderr is a terminal (--progress/--no-progress), and a \
        summary table at the end (--stats FILE writes the same as JSON; --quiet prints only \
        errors).

        Examples:
          # any JSON array or NDJSON file, no model: one table named after the file
          sluice import --db out.sqlite data.ndjson

          # a CSV file, no model: the table stops
          sluice import --db out.sqlite stops.csv

          # a GTFS feed with the built-in model, into SQLite or PostgreSQL
          sluice import --db transit.sqlite --model gtfs feed.zip
          sluice import --db postgresql://me@localhost/transit --model gtfs feed.zip

          # several files, one all-or-nothing import driven by a model
          sluice import --db transit.sqlite --model model.json stops.json trips.json

          # the records of one entity of a Core Data model
          sluice import --db app.sqlite --model App.xcdatamodeld \\
            --entity Item items.json

          # the same into Core Data's own store, which the app opens as its own
          sluice import --db App.sqlite --layout coredata --model App.xcdatamodeld \\
            --entity Item items.json

          # NDJSON from another program, records of one entity
          curl -s https://example.org/stops.ndjson |
            sluice import --db transit.sqlite --model model.json --entity Stop

          # records inside an envelope, gzip-compressed; bad records skipped and kept
          sluice import --db api.sqlite --model model.json --entity Item \\
            --path data.items --on-error skip --rejects rejects.ndjson dump.json.gz
        """
    )

    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The SQLite database to create or update, or a PostgreSQL URI (postgresql://user@host:5432/db).", valueName: "db"))
    var db: String

    @Option(name: .long, help: "With a PostgreSQL --db: the schema of the tables (created if missing; default: public).")
    var schema: String?

    @Option(name: .long, help: "The model: a JSON model file, a Core Data model (.xcdatamodeld, .xcdatamodel, contents), or gtfs (the built-in GTFS model). Without it the import is zero-config.")
    var model: String?

    @Option(name: .long, help: ModelOptions.mappingHelp)
    var mapping: String?

    @Option(name: .long, help: StoreLayout.importHelp)
    var layout: StoreLayout?

    @Option(name: .long, help: "Without --model: the table to import into (default: the first FILE's stem, or records).")
    var table: String?

    @Option(name: .long, help: "The entity of the top-level records (overrides the model's root; needs --model).")
    var entity: String?

    @Option(name: .long, help: ArgumentHelp("The records under a top-level key, or in a file or zip entry of that name, are of ENTITY; adds to or overrides the model's root (repeatable; needs --model).", valueName: "key=entity"))
    var root: [String] = []

    @Option(name: .long, help: "The key path of the records inside an envelope, e.g. data.items.")
    var path: String?

    @Option(name: .long, help: ArgumentHelp("The records are the members of an object used as a map (at --path, or the top-level object); each member's name goes to this attribute (with --model and --entity) or column.", valueName: "name"))
    var mapKey: String?

    @Option(name: .long, help: ArgumentHelp("The records are rows of a table (arrays): 'first' (the first array is the header, as NDJSON or in one array) or the key beside the records holding the header (pandas split: --path data --header columns).", valueName: "first|key"))
    var header: String?

    @Option(name: .long, help: ArgumentHelp("What the inputs are: json, csv or tsv (default: by each file's name, .csv or .tsv, else JSON; a zip archive by its content).", valueName: "json|csv|tsv"))
    var format: InputFormat?

    @Option(name: .long, help: "Records per find-or-create batch (fewer when wide: at most 10 times this many values).")
    var batchSize: Int = ImportOptions().batchSize

    @Option(name: .long, help: "What a record that cannot be imported does: abort (default) or skip.")
    var onError: ImportOptions.ErrorPolicy = .abort

    @Option(name: .long, help: "References still missing at the end: null (leave empty, report), stub (create the target with its id only) or fail. Overrides the model.")
    var unresolved: Model.UnresolvedPolicy?

    @Flag(name: .long, help: "Delete rows of the root entities (with identity) that this import did not mention.")
    var deleteMissing = false

    @Option(name: .long, help: ArgumentHelp("The feed this import belongs to, for several feeds in one database: its rows carry NAME in the column sluice_feed, ids and links resolve within it, --delete-missing and --skip-unchanged concern it alone (needs --model).", valueName: "name"))
    var feed: String?

    @Flag(name: .long, help: "With --feed: read no input and delete every row of that feed, as --delete-missing deletes (its deletion rules apply).")
    var remove = false

    @Option(name: .long, help: ArgumentHelp("Write each rejected record as one JSON line to this file.", valueName: "file"))
    var rejects: String?

    @Option(name: .long, help: "Invalid UTF-8 or an unpaired surrogate escape in a string: reject (an error; a record error inside a record) or replace (with U+FFFD, counted).")
    var invalidText: InvalidTextPolicy = .reject

    @Option(name: .long, help: "The largest single JSON value accepted, in bytes (at most 2147483647).")
    var maxValueBytes: Int = ImportOptions().maxValueBytes

    @Option(name: .long, help: ArgumentHelp("Write the summary's figures as JSON to this file.", valueName: "file"))
    var stats: String?

    @Flag(name: .long, help: "End the import, writing nothing, when every FILE is byte for byte what the last committed import read (same names, sizes, SHA-256) through the same model (standard input is always imported).")
    var skipUnchanged = false

    @Flag(name: .long, help: "Run ANALYZE before committing, so the query planner's statistics include the new rows.")
    var analyze = false

    @Flag(name: .long, help: "Run VACUUM after the import.")
    var vacuum = false

    @Flag(inversion: .prefixedNo, help: "Show a progress bar on stderr (default: when stderr is a terminal).")
    var progress: Bool?

    @Flag(name: .long, help: "Print nothing but errors: no progress bar, no summary.")
    var quiet = false

    @Argument(help: "JSON, CSV or TSV files, or zip archives of them, to import; - or none reads standard input.")
    var files: [String] = []

    func validate() throws {
        if let schema, !ImportStores.isPostgreSQL(db), !db.contains("://") {
            throw ValidationError("--schema '\(schema)' is for a PostgreSQL --db; '\(db)' is an SQLite file, which has no schemas")
        }
        guard header != "" else { throw ValidationError("--header must be 'first' or the key of the header; it is empty") }
        for text in root where Model.RootOverride(parsing: text) == nil {
            throw ValidationError("--root \"\(text)\": expected KEY=ENTITY, e.g. --root stops=Stop or --root stops.txt=Stop")
        }
        let model = self.effectiveModel
        if layout == .coredata, model == nil || model.flatMap(BuiltInModel.init(rawValue:)) != nil {
            throw ValidationError("--layout coredata needs --model with a Core Data model (.xcdatamodeld, .xcdatamodel or .momd), "
                                    + "or --db naming a Core Data store that carries its model: Core Data's store is made from one")
        }
        if mapping != nil, model == nil {
            throw ValidationError("--mapping needs a Core Data model (--model, or --layout coredata with a store that carries one)")
        }
        do {
            try importOptions.validate(withModel: model != nil)
        } catch {
            throw ValidationError(error.message)
        }
        if remove, !files.isEmpty {
            throw ValidationError("--remove reads no input: give no FILE (it deletes the rows of --feed \(feed ?? ""))")
        }
        if model != nil {
            guard table == nil else {
                throw ValidationError("--table is only for imports without --model; a model names its own tables")
            }
        } else {
            guard table != "" else { throw ValidationError("--table must not be empty") }
        }
    }

    /// `--model`, or without one (and not `--layout sluice`), the store `--db` names when it
    /// carries its own model (`Z_MODELCACHE`, a SwiftData app's only record of its model).
    private var effectiveModel: String? {
        model ?? (layout != .sluice && ModelFile.carriesCoreDataModel(path: db) ? db : nil)
    }

    /// The library's options as the arguments set them (`run()` adds progress and cancellation).
    private var importOptions: ImportOptions {
        var options = ImportOptions()
        options.optionNames = .commandLine
        options.entity = entity
        options.roots = root.compactMap(Model.RootOverride.init(parsing:))
        options.path = path
        options.mapKey = mapKey
        options.header = header.map(TabularHeader.init)
        options.format = format
        options.batchSize = batchSize
        options.onError = onError
        options.maxValueBytes = maxValueBytes
        options.invalidText = invalidText
        options.unresolved = unresolved
        options.deleteMissing = deleteMissing
        options.feed = feed
        options.removeFeed = remove
        options.analyze = analyze
        options.vacuum = vacuum
        options.rejectsPath = rejects
        options.schema = schema ?? options.schema
        options.layout = layout == .coredata ? .coreData : .sluice
        return options
    }

    /// Without `--layout`, the layout follows the store: an existing Core Data store is imported
    /// as one when the model is a Core Data model (`docs/coredata-store.md#importing`), with the
    /// note saying so; anything else into it is refused by the store itself.
    private func followingTheStore(_ options: inout ImportOptions) -> String? {
        guard layout == nil, let model = effectiveModel, ModelFile.isCoreDataModel(path: model), ImportStores.isCoreDataStore(db)
        else { return nil }
        options.layout = .coreData
        return "database '\(db)' is a Core Data store: imported in Core Data's layout (--layout coredata)"
    }

    func run() throws {
        // Before anything is opened: no output may overwrite a file the import reads or writes, and
        // each output must be writable, or the import does not start.
        let outputs = [("--rejects", rejects), ("--stats", stats)].compactMap { option, path in
            path.map { OutputPathCheck.Output(option: option, path: $0) }
        }
        try OutputPathCheck.check(outputs, database: db, inputs: files, model: model)
        let statsFile = try stats.map { try OutputFile(path: $0, role: "stats file") }

        var options = importOptions
        let layoutNote = followingTheStore(&options)
        let bar = ProgressBar.isWanted(flag: progress, quiet: quiet) ? ProgressBar() : nil
        if let bar { options.progress = { bar.update($0) } }
        // On every way out, an error included: the error line must not be glued to the bar.
        defer { bar?.clear() }
        options.cancellation = Interruption.install(clearsLine: bar != nil)
        defer { Interruption.uninstall() }

        // `--remove` reads nothing, standard input neither.
        let inputs = remove ? [] : files.isEmpty ? ["-"] : files
        let importer: Importer
        var keptNotes: [String] = []
        if let model = effectiveModel {
            let file = try ModelFile.load(path: model, mapping: mapping)
            try file.validateForImport(entity: entity, path: path, mapKey: mapKey, roots: options.roots, optionNames: .commandLine)
            if !quiet { ModelNotes.printSummary(of: file) }
            if BuiltInModel(rawValue: model) != nil {
                // A feed holds a few of the reference's fields: the notes name those it does not
                // know, and what its files' headers show is kept (`docs/gtfs.md`).
                options.keyNotes = .unmappedKeys
                let kept = UnknownCSV.keep(in: file.model, inputs: inputs, options: options, database: db)
                keptNotes = kept.notes
                importer = try Importer(databasePath: db, model: kept.model, options: options, modelSHA256: file.sha256)
            } else {
                importer = try Importer(databasePath: db, modelFile: file, options: options)
            }
        } else {
            importer = try Importer(databasePath: db, table: table ?? Self.defaultTable(for: files), options: options)
        }
        if skipUnchanged {
            if let unchanged = try importer.skipIfUnchanged(files: inputs) {
                if !quiet {
                    Diagnostics.writeLine("sluice: note: \(inputs.joined(separator: ", ")) unchanged since import \(unchanged.number) "
                                            + "of \(unchanged.finishedAt): nothing written")
                }
                return
            }
            if !quiet, inputs.contains("-") {
                Diagnostics.writeLine("sluice: note: --skip-unchanged: standard input is always imported (it is read once)")
            }
        }
        if !quiet { Diagnostics.sayWhenReadingTheTerminal(inputs) }
        for (index, input) in inputs.enumerated() {
            bar?.bytesToCome = ProgressBar.totalSize(of: inputs.dropFirst(index + 1))
            try importer.importFile(input)
        }
        var report = try importer.finish()
        report.notes = (layoutNote.map { [$0] } ?? []) + keptNotes + report.notes
        bar?.clear()
        if let statsFile { try StatsFile.write(report, to: statsFile) }
        if remove, let feed {
            if !quiet { Diagnostics.writeLine(Summary.removal(of: feed, from: ImportStores.displayName(of: db), report: report)) }
            return
        }
        if !quiet {
            Diagnostics.writeLine(Summary.text(of: report))
            for note in report.notes { Diagnostics.writeLine("sluice: note: \(note)") }
        }
    }

    /// The zero-config table of `files`: the first one's name without its directory and
    /// extensions (`data/stops.json.gz` → `stops`, `x.ndjson` → `x`), or `records` for
    /// standard input. A `.gz` is dropped, then one more extension.
    static func defaultTable(for files: [String]) -> String {
        guard let first = files.first, first != "-" else { return "records" }
        var name = first.split(separator: "/").last ?? ""
        if name.lowercased().hasSuffix(".gz") { name = name.dropLast(3) }
        if let dot = name.lastIndex(of: ".") { name = name[..<dot] }
        return name.isEmpty ? "records" : String(name)
    }
}

extension ImportOptions.ErrorPolicy: ExpressibleByArgument {}
extension Model.UnresolvedPolicy: ExpressibleByArgument {}
extension InvalidTextPolicy: ExpressibleByArgument {}
extension InputFormat: ExpressibleByArgument {}
