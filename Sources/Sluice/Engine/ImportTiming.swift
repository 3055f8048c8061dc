/// Where an import's time goes: its clock, the stage running now and when it began, the
/// phases the stages before it add up to (`ImportReport.Phases`), and the progress of
/// `finish()` (`FinishingProgress`) while it runs.
struct ImportTiming {
    let clock = MonotonicClock()
    let startedAt = UnixTime.now()
    private var phases = ImportReport.Phases()
    private var stage = ImportProgress.Stage.reading
    private var stageStartedAt = 0.0
    /// Reports the stages of `finish()` while it runs; nil without `ImportOptions.progress`.
    private var finishingProgress: FinishingProgress?

    var elapsedSeconds: Double { clock.elapsedSeconds }

    /// The reading begins: the database is open and ready.
    mutating func beginReading() {
        stageStartedAt = clock.elapsedSeconds
    }

    /// The inputs are read, `bytes` of them and `records`: `finish()` begins, reported through
    /// `progress` (when given) at least once a second until `endFinishing()`.
    mutating func beginFinishing(progress: (@Sendable (ImportProgress) -> Void)?, bytes: Int64, records: Int) {
        if let progress {
            let first = ImportProgress(bytesRead: bytes, totalBytes: bytes, records: records, seconds: clock.elapsedSeconds,
                                       stage: .finishing)
            finishingProgress = FinishingProgress(first: first, clock: clock, report: progress)
        }
        stage = .finishing
    }

    /// Stops reporting the progress of `finish()`, on every way out of it.
    mutating func endFinishing() {
        finishingProgress?.stop()
        finishingProgress = nil
    }

    /// Begins the next stage of `finish()`: the time since the current one began is added to
    /// its phase, and the progress callback hears of the new one.
    mutating func enter(_ next: ImportProgress.Stage) {
        let now = clock.elapsedSeconds
        phases.add(now - stageStartedAt, to: stage)
        stage = next
        stageStartedAt = now
        finishingProgress?.enter(next)
    }

    /// Tells the progress callback new counts of the current stage.
    func update(_ stage: ImportProgress.Stage) {
        finishingProgress?.enter(stage)
    }

    /// Ends `report` with the import's seconds, its peak memory (after the commit: a vacuum may
    /// be the run's peak) and its phases, the current stage's time added.
    mutating func complete(_ report: inout ImportReport) {
        report.seconds = clock.elapsedSeconds
        report.peakMemoryBytes = PeakMemory.residentBytes()
        phases.add(report.seconds - stageStartedAt, to: stage)
        report.phases = phases
    }
}
