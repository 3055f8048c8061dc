import Sluice

/// Draws `ProgressLine` on a terminal: `\r`, the line, clear to the end of the line. At most
/// one redraw per `interval` of the import's own clock, whatever the chunk rate; `clear()`
/// removes the bar, so that the summary or an error line starts on a clean line.
///
/// `@unchecked Sendable` because `ImportOptions.progress` must be `@Sendable`: the importer's
/// calls never overlap, and the last is made before `finish()` returns, so the state is never
/// touched from two threads at once (once the inputs are read the calls come from the
/// importer's helper thread too, which then keeps the line moving at least once a second).
final class ProgressBar: @unchecked Sendable {
    /// About four redraws a second: smooth enough, and no flood on a slow terminal.
    static let interval = 0.25

    private let descriptor: Int32
    private let fixedWidth: Int?
    private var lastDrawn: Double?
    /// What the line said last, without its counts: a new stage is drawn at once.
    private var lastStage: String?
    private(set) var isVisible = false
    /// The sizes of the inputs the importer has not been given yet (the library knows only the
    /// ones it has opened); nil when one of them has no size (standard input, a pipe).
    var bytesToCome: Int64? = 0

    /// - Parameter width: the terminal's width; by default asked of the terminal at each
    ///   redraw (it may be resized), else `$COLUMNS`, else 80.
    init(descriptor: Int32 = SystemCalls.standardError, width: Int? = nil) {
        self.descriptor = descriptor
        self.fixedWidth = width
    }

    /// Whether to draw: `--progress`/`--no-progress` when given, else when stderr is a
    /// terminal; never with `--quiet`.
    static func isWanted(flag: Bool?, quiet: Bool) -> Bool {
        guard !quiet else { return false }
        return flag ?? Terminal.isTerminal(SystemCalls.standardError)
    }

    /// The importer's callback. The first call draws at once (a short import still shows
    /// its bar), and so does each that begins a stage of the finish; the others wait for
    /// `interval`.
    func update(_ progress: ImportProgress) {
        let stage = ProgressLine.describe(progress.stage).stage
        let newStage = progress.stage.isFinishing && stage != lastStage
        if !newStage, let lastDrawn, progress.seconds - lastDrawn < Self.interval { return }
        lastDrawn = progress.seconds
        lastStage = progress.stage.isFinishing ? stage : nil
        var whole = progress
        whole.totalBytes = progress.totalBytes.flatMap { known in bytesToCome.map { known + $0 } }
        write("\r" + ProgressLine.render(whole, width: width) + "\u{1B}[K")
        isVisible = true
    }

    /// Removes the bar and leaves the cursor at the start of the empty line. Harmless when
    /// nothing is drawn.
    func clear() {
        guard isVisible else { return }
        write("\r\u{1B}[K")
        isVisible = false
    }

    private var width: Int {
        if let fixedWidth { return fixedWidth }
        if let columns = Terminal.columns(of: descriptor) { return columns }
        if let columns = SystemCalls.environment("COLUMNS").flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }

    private func write(_ text: String) {
        Diagnostics.write(text, to: descriptor)
    }

    /// The size of each of `paths` that is a regular file; nil when one is not (`-`, a pipe)
    /// or cannot be examined (opening it will say why).
    static func totalSize(of paths: some Sequence<String>) -> Int64? {
        var total: Int64 = 0
        for path in paths {
            guard path != "-", let info = SystemCalls.status(ofPath: path), info.isRegularFile else { return nil }
            total += info.size
        }
        return total
    }
}
