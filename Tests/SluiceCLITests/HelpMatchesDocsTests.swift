import Foundation
import SluiceTestSupport
import Testing

/// docs/cli.md's table of each command's options and the command's `--help` describe the same
/// options, with the same values and defaults: neither can gain, lose or change an option
/// without the other.
@Suite struct HelpMatchesDocsTests {
    @Test(arguments: ["import", "schema", "check", "infer", "convert-model"])
    func optionsInHelpAreThoseOfTheDocs(_ command: String) throws {
        let help = try Self.helpOptions(command)
        let docs = try Self.docOptions(command)

        #expect(help.map(\.name).sorted() == docs.map(\.name).sorted(), "sluice \(command) --help vs docs/cli.md")
        for option in help {
            guard let documented = docs.first(where: { $0.name == option.name }) else { continue }
            // `(values: abort, skip; default: abort)`: each value is in the table's value column.
            for value in option.values {
                #expect(documented.value.contains("`\(value)`"), "\(option.name): docs/cli.md's value column lacks `\(value)`: \(documented.value)")
            }
            if let value = option.defaultValue {
                #expect(documented.defaultValue?.contains("`\(value)`") == true, "\(option.name): docs/cli.md's default is not `\(value)`: \(documented.defaultValue ?? "")")
            }
        }
    }

    struct Option {
        var name: String
        var value = ""
        var defaultValue: String?
        var values: [String] = []
    }

    /// The long options of `sluice command --help`, but `--help` and `--version` (which every
    /// command has: docs/cli.md's synopsis says so once), with the values and default the help
    /// shows at the end of each.
    static func helpOptions(_ command: String) throws -> [Option] {
        let lines = try HelpTextTests.help([command], columns: 1000)
        guard let start = lines.firstIndex(of: "OPTIONS:") else { return [] }
        // An option's line, and the lines of its help when its label is too long to share one.
        var entries: [(label: Substring, text: String)] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("  -") {
                let label = line.drop { $0 == " " }.prefix { $0 != " " }
                entries.append((label, String(line.drop { $0 == " " }.dropFirst(label.count))))
            } else if line.hasPrefix("    "), !entries.isEmpty {
                entries[entries.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        var options: [Option] = []
        for (label, text) in entries {
            let text = text.trimmingCharacters(in: .whitespaces)
            // `--progress/--no-progress` is one flag with two names.
            for name in label.split(separator: "/") where !["--help", "--version", "-h,"].contains(name) {
                var option = Option(name: String(name))
                if let open = text.range(of: "(values: ", options: .backwards) ?? text.range(of: "(default: ", options: .backwards),
                   text.hasSuffix(")") {
                    let parts = text[open.lowerBound...].dropFirst().dropLast().split(separator: ";")
                    for part in parts.map({ $0.trimmingCharacters(in: .whitespaces) }) {
                        if part.hasPrefix("values: ") {
                            option.values = part.dropFirst("values: ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                        } else if part.hasPrefix("default: ") {
                            option.defaultValue = String(part.dropFirst("default: ".count))
                        }
                    }
                }
                options.append(option)
            }
        }
        return options
    }

    /// The options of the first table under docs/cli.md's heading `sluice command`: each row's
    /// first cell names them in backticks (`--progress` / `--no-progress`), then the value and
    /// the default.
    static func docOptions(_ command: String) throws -> [Option] {
        let text = String(decoding: try PackageFiles.bytes("docs/cli.md"), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(of: "## `sluice \(command)`") else {
            Issue.record("docs/cli.md has no heading ## `sluice \(command)`")
            return []
        }
        let section = lines[(heading + 1)...].prefix { !$0.hasPrefix("## ") }
        let table = section.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        var options: [Option] = []
        for row in table {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let names = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 && $0.element.hasPrefix("--") }
            for (_, name) in names {
                options.append(Option(name: String(name), value: cells[1], defaultValue: cells.count >= 4 ? cells[2] : ""))
            }
        }
        return options
    }
}
