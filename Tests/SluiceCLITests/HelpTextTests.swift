import SluiceTestSupport
import Testing

/// What `--help` says: every kind of input, database and model is named where a newcomer
/// looks first, and the examples survive an 80-column terminal as commands that can be
/// copied and pasted.
@Suite struct HelpTextTests {
    static let commands: [[String]] = [[], ["import"], ["schema"], ["check"], ["infer"], ["convert-model"]]

    /// ArgumentParser wraps the discussion to the terminal's width: an example that does not
    /// fit would be cut mid-command. Each command line of the help reads the same at 80
    /// columns as on a terminal wide enough for anything.
    @Test(arguments: commands)
    func examplesAreWholeCommandsAt80Columns(_ command: [String]) throws {
        let narrow = try Self.help(command, columns: 80)
        let wide = try Self.help(command, columns: 400)

        #expect(Self.examples(narrow) == Self.examples(wide), "\(narrow)")
        #expect(!Self.examples(narrow).isEmpty, "\(narrow)")
        for (index, line) in narrow.enumerated() where line.trimmingLeadingSpaces.hasPrefix("sluice ") {
            #expect(wide.contains(line), "cut at 80 columns: \(line)")
            #expect(Self.isBalanced(line), "unbalanced quotes: \(line)")
            // A command may go on, as a shell reads it, after a backslash or a pipe only.
            let next = narrow.dropFirst(index + 1).first ?? ""
            let continues = next.hasPrefix(line.prefix { $0 == " " } + "  ")
            let goesOn = line.hasSuffix(" \\") || line.hasSuffix(" |")
            #expect(continues == goesOn, "a command broken without a backslash or pipe, or one that does not go on: \(line) / \(next)")
        }
    }

    /// The lines of the help's examples, from `Examples:` to the usage.
    static func examples(_ lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: "Examples:"),
              let end = lines.firstIndex(where: { $0.hasPrefix("USAGE: ") }) else { return [] }
        return Array(lines[start..<end])
    }

    static func isBalanced(_ line: String) -> Bool {
        ["'", "\"", "`"].allSatisfy { quote in line.filter { String($0) == quote }.count % 2 == 0 }
    }

    /// `sluice --help` and each command's help name every input, database and model kind:
    /// the first thing a newcomer reads says what the tool takes.
    @Test func helpNamesEveryTarget() throws {
        let root = try Self.help([], columns: 400).joined(separator: "\n")
        for word in ["SQLite", "PostgreSQL", "Core Data", "CSV", "TSV", "zip", "GTFS", "gtfs", "NDJSON", "--layout coredata"] {
            #expect(root.contains(word), "sluice --help names \(word)")
        }
        let expected: [String: [String]] = [
            "import": ["SQLite", "PostgreSQL", "Core Data model", "--layout coredata", "CSV", "zip", "GTFS", "--model gtfs"],
            "schema": ["SQLite", "PostgreSQL", "Core Data", "gtfs", "--layout coredata"],
            "check": ["Core Data", "gtfs", "--layout coredata"],
            "infer": ["JSON", "CSV", "TSV"],
            "convert-model": ["Core Data", "gtfs"],
        ]
        for (command, words) in expected {
            let help = try Self.help([command], columns: 400)
            for word in words {
                #expect(help.joined(separator: "\n").contains(word), "sluice \(command) --help names \(word)")
            }
        }
    }

    /// The DocC landing page says the same as the command's help.
    @Test func docCLandingPageNamesEveryTarget() throws {
        let page = String(decoding: try PackageFiles.bytes("Sources/Sluice/Sluice.docc/Sluice.md"), as: UTF8.self)
        let summary = try #require(page.split(separator: "\n").dropFirst().first { !$0.isEmpty })
        for word in ["JSON", "CSV", "SQLite", "PostgreSQL", "Core Data"] {
            #expect(summary.contains(word), "the summary names \(word): \(summary)")
        }
        for word in ["NDJSON", "TSV", "zip", "GTFS", "Core Data model", "--layout coredata", "PostgreSQL URI"] {
            #expect(page.contains(word), "the landing page names \(word)")
        }
    }

    /// The help of `command` rendered `columns` wide, as lines.
    static func help(_ command: [String], columns: Int) throws -> [String] {
        let result = try Workspace().sluice(command + ["--help"], environment: ["COLUMNS": "\(columns)"])
        guard result.status == 0, result.stderr.isEmpty else { throw HelpFailure(result: result) }
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    struct HelpFailure: Error, CustomStringConvertible {
        let result: SluiceResult
        var description: String { "\(result)" }
    }
}

extension String {
    var trimmingLeadingSpaces: Substring { drop { $0 == " " } }
}
