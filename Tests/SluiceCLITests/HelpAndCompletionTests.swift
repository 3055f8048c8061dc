import Foundation
import Testing

/// `--help` of each subcommand shows examples; the completion scripts that
/// swift-argument-parser generates work with the built binary.
@Suite struct HelpAndCompletionTests {
    @Test(arguments: [["import", "--help"], ["help", "schema"], ["check", "--help"]])
    func helpShowsExamples(_ arguments: [String]) throws {
        let workspace = Workspace()
        let subcommand = arguments[0] == "help" ? arguments[1] : arguments[0]

        let result = try workspace.sluice(arguments)

        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let examples = try #require(lines.firstIndex(of: "Examples:"), "\(result.stdout)")
        let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE: ") }, "\(result.stdout)")
        #expect(examples < usage, "the examples are in the discussion")
        #expect(lines[examples..<usage].contains { $0.hasPrefix("  sluice \(subcommand) --") }, "\(result.stdout)")
    }

    /// `check` and `schema` take the same required `--model` and `--layout`, described alike.
    @Test(arguments: ["check", "schema"])
    func modelAndLayoutAreTheSameInCheckAndSchema(_ subcommand: String) throws {
        let result = try Workspace().sluice([subcommand, "--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("USAGE: sluice \(subcommand) --model <model> [--layout <layout>] "), "\(result.stdout)")
        let options = try #require(result.stdout.components(separatedBy: "OPTIONS:\n").last)
        #expect(options.hasPrefix("""
              --model <model>         The model: a JSON model file, a Core Data model
                                      (.xcdatamodeld, .xcdatamodel, contents), or gtfs (the
                                      built-in GTFS model).
              --layout <layout>       The store's layout: sluice (default: Sluice's tables)
                                      or coredata (the SQLite store Core Data keeps for a
                                      Core Data model). (values: sluice, coredata; default:
                                      sluice)

            """), "\(result.stdout)")

        let missing = try Workspace().sluice([subcommand])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Missing expected argument '--model <model>'"), "\(missing)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(_ shell: String) throws {
        let result = try Workspace().sluice(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        // fish names options without their dashes.
        for word in ["import", "schema", "check", "model", "on-error", "no-progress", "delete-missing"] {
            #expect(result.stdout.contains(word), "\(shell) script offers \(word)")
        }
    }

    /// Sources the bash script and asks it what it offers, as bash does on Tab.
    @Test func bashCompletesSubcommandsOptionsAndValues() throws {
        let bash = "/bin/bash"
        try #require(FileManager.default.isExecutableFile(atPath: bash))
        let workspace = Workspace()
        let script = try workspace.sluice(["--generate-completion-script", "bash"])
        try #require(script.status == 0, "\(script)")
        try workspace.write(script.stdout + """

            offer() {
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _sluice sluice "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
                echo "${COMPREPLY[*]}"
            }
            offer sluice im
            offer sluice import --no-p
            offer sluice import --on-error ""
            offer sluice import --unresolved ""
            offer sluice check --mo

            """, to: "complete.bash")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: bash)
        process.arguments = [workspace.file("complete.bash")]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let offered = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        #expect(offered == "import\n--no-progress\nabort skip\nnull stub fail\n--model\n")
    }
}
