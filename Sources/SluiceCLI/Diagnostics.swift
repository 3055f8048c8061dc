import Sluice

/// Everything the CLI writes to stderr, and the exit statuses of `docs/cli.md` (sysexits).
enum Diagnostics {
    static func exitStatus(for kind: SluiceError.Kind) -> Int32 {
        kind.exitStatus
    }

    /// swift-argument-parser's message without its own "Error: " prefix and help lines.
    static func oneLine(_ message: String) -> String {
        var line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? message
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        return line
    }

    static func printError(_ message: String) {
        writeLine("sluice: error: \(message)")
    }

    static func writeLine(_ line: String) {
        write(line.hasSuffix("\n") ? line : line + "\n")
    }

    /// Writes all of `text` unbuffered, so that it interleaves in order with the progress bar.
    /// A closed or full stderr is ignored: it must not stop an import.
    static func write(_ text: String, to descriptor: Int32 = SystemCalls.standardError) {
        var text = text
        text.withUTF8 { _ = SystemCalls.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// When `inputs` read standard input and it is a terminal, says so: otherwise the command
    /// seems to hang while it waits for typing.
    static func sayWhenReadingTheTerminal(_ inputs: [String]) {
        guard inputs.contains("-"), Terminal.isTerminal(SystemCalls.standardInput) else { return }
        writeLine("sluice: reading standard input from the terminal; Ctrl-D ends it")
    }

    static func exit(_ status: Int32) -> Never {
        SystemCalls.exit(status)
    }

    static func fail(_ error: SluiceError) -> Never {
        if let modelError = error.modelError { fail(modelError) }
        printError(error.description)
        Self.exit(exitStatus(for: error.kind))
    }

    /// A model with problems: one line for each, then exit 64.
    static func fail(_ error: ModelError) -> Never {
        for problem in error.problems { printError("\(error.source): \(problem)") }
        Self.exit(exitStatus(for: .usage))
    }
}
