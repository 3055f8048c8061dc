/// How far an import has come, handed to `ImportOptions.progress` once per input chunk; then,
/// once every input is read, at the start of each stage of the finish (`stage`) and at least
/// once a second until the import is over, even while one long SQL statement runs.
///
/// The calls never overlap. While the inputs are read they come from the thread that reads;
/// once `finish()` has begun, some come from a helper thread of the importer (the one that
/// keeps them coming during a long statement), all of them before `finish()` returns.
///
/// Bytes are counted as stored: for gzip input, the compressed bytes taken from the file, so
/// they compare with the file's size. Records are the records assembled so far (of every
/// entity, nested ones included), before they are written.
public struct ImportProgress: Sendable, Equatable {
    /// Bytes read so far from all the inputs of this import.
    public var bytesRead: Int64
    /// The inputs finished so far plus the size of the one being read, when that size is known
    /// (a regular file, or standard input redirected from one); nil for a pipe or a terminal.
    /// An importer learns of an input only when it is given it: a caller that imports several
    /// files and wants one total adds the sizes of the files still to come.
    public var totalBytes: Int64?
    /// The records read so far, of every entity.
    public var records: Int
    /// Since the importer was opened.
    public var seconds: Double
    /// What the import is doing: reading, or which stage of the finish.
    public var stage: Stage

    /// What the import is doing. After `.reading` come `.finishing`, then whichever of the
    /// others the import has to do, in the order they are listed here.
    public enum Stage: Sendable, Equatable {
        /// Reading its inputs: reported once per chunk.
        case reading
        /// Every input is read; the batches still waiting are written. Reported once, when
        /// `finish()` begins.
        case finishing
        /// A pass of the second pass: linking the references that came before their targets, of
        /// one relationship (`Entity.relationship`) or, on SQLite, of the to-ones of one entity
        /// together (`Entity.a, Entity.b`). `done` of `total` such references — for to-ones
        /// linked together, records whose references wait — are linked or found missing so far.
        case linking(relationship: String, done: Int, total: Int)
        /// Building an index that was deferred until after the load.
        case indexing(name: String)
        /// `--delete-missing`: deleting the rows of one entity that the import did not mention.
        case deleting(entity: String)
        /// `ANALYZE` (`ImportOptions.analyze`).
        case analyzing
        /// Recording the import in `sluice_imports` and committing.
        case committing
        /// `VACUUM` (`ImportOptions.vacuum`), after the commit.
        case vacuuming

        /// Whether every input is read (any stage but `.reading`).
        public var isFinishing: Bool { self != .reading }
    }

    /// A progress report, as the importer makes them (tests and hosts that relay progress make their own).
    public init(bytesRead: Int64, totalBytes: Int64?, records: Int, seconds: Double, stage: Stage = .reading) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.records = records
        self.seconds = seconds
        self.stage = stage
    }
}

extension ImportProgress {
    /// The progress in units of bytes, as a Foundation `Progress` counts them
    /// (`ImportRun.foundationProgress`): `bytesRead` of `totalBytes` (-1, indeterminate, when
    /// the size is unknown) while reading; once every input is read, complete (`bytesRead` of
    /// `bytesRead`), the stage saying what the finish is doing.
    var byteUnits: (completed: Int64, total: Int64) {
        if stage.isFinishing { return (bytesRead, bytesRead) }
        return (bytesRead, totalBytes ?? -1)
    }

    /// The stage in a few words, for a progress view's second line: `reading`,
    /// `linking StopTime.trip (3 of 10)`, `building index stops_name`, `committing`.
    public var stageDescription: String {
        switch stage {
        case .reading: "reading"
        case .finishing: "writing the last batches"
        case .linking(let relationship, let done, let total): "linking \(relationship) (\(done) of \(total))"
        case .indexing(let name): "building index \(name)"
        case .deleting(let entity): "deleting missing \(entity) rows"
        case .analyzing: "analyzing"
        case .committing: "committing"
        case .vacuuming: "vacuuming"
        }
    }
}
