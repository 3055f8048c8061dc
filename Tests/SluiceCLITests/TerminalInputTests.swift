import Foundation
import SluiceTestSupport
import Testing

/// Standard input on a terminal, as when a user forgets the file: the command says it is
/// reading it, and the first Ctrl-D ends it (it took one for `import` to read nothing, and
/// three for `infer`, before the end of input was kept once seen).
@Suite struct TerminalInputTests {
    let workspace = Workspace()

    private func typed(_ arguments: [String], _ keys: String) throws -> SluiceResult {
        try SluiceRunner.run(arguments, stdin: Array(keys.utf8), in: workspace.path, stdinOnTerminal: true, timeout: 30)
    }

    @Test func importSaysItReadsTheTerminalAndOneCtrlDEndsIt() throws {
        let result = try typed(["import", "--db", "t.sqlite", "--table", "t"], "{\"a\": 1}\n\u{04}")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.first == "sluice: reading standard input from the terminal; Ctrl-D ends it", "\(result)")
        #expect(try workspace.database("t.sqlite").count("t") == 1)
    }

    @Test func inferEndsAtTheFirstCtrlD() throws {
        let result = try typed(["infer"], "{\"a\": 1}\n\u{04}")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.first == "sluice: reading standard input from the terminal; Ctrl-D ends it", "\(result)")
        #expect(result.stdout.contains("\"a\": \"integer\""), "\(result)")
    }

    /// Nothing is said when standard input is a pipe or a file, or with --quiet.
    @Test func aPipeGetsNoWord() throws {
        let result = try workspace.sluice("import", "--db", "p.sqlite", "--table", "t", stdin: Array("{\"a\": 1}\n".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("reading standard input"), "\(result)")
        let quiet = try typed(["import", "--quiet", "--db", "q.sqlite", "--table", "t"], "\u{04}")
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.stderrLines.isEmpty, "\(quiet)")
    }
}
