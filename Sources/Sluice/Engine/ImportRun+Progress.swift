// Foundation's `Progress` on Apple platforms only, where Foundation is part of the system. On
// Linux it lives in Foundation proper (not FoundationEssentials), with ICU: linking it would add
// tens of megabytes to every program using the library, the `sluice` command included, for a
// type a Linux host rarely shows. There, `ImportRun.progress` is the sequence to follow.
#if canImport(Darwin)
import Foundation

extension ImportRun {
    /// A Foundation `Progress` following the import, for SwiftUI's `ProgressView` or
    /// `NSProgressIndicator`: counted in bytes read of the inputs' size (indeterminate when
    /// that is unknown, a pipe), complete once every input is read, with the stage
    /// (`ImportProgress.stageDescription`) as its `localizedAdditionalDescription`. Cancelling
    /// it cancels the import. Each call makes a new one that starts from the latest progress.
    public func makeFoundationProgress() -> Progress {
        let progress = Progress(totalUnitCount: -1)
        progress.kind = .file
        progress.isCancellable = true
        progress.cancellationHandler = { [weak self] in self?.cancel() }
        let box = UncheckedProgress(progress)
        addReceiver { value in
            let units = value.byteUnits
            box.progress.totalUnitCount = units.total
            box.progress.completedUnitCount = units.completed
            box.progress.localizedAdditionalDescription = value.stageDescription
        }
        return progress
    }
}

/// `Progress` is thread-safe (its documentation: it may be updated from any thread); the box
/// says so to the compiler whatever the SDK's annotations.
private struct UncheckedProgress: @unchecked Sendable {
    let progress: Progress
    init(_ progress: Progress) { self.progress = progress }
}
#endif
