import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials  // JSONDecoder without ICU: Foundation's ICU data cost W1 6.6 MiB of peak RSS
#else
import Foundation
#endif
import Sluice

/// An option that takes one value given twice with different values (`--db a --db b`) is a
/// usage error: swift-argument-parser keeps the last one silently, and an import into the
/// wrong database, or with half of what was asked, is no mistake to make quietly. The
/// options are the commands' own definitions (`_dumpHelp`, swift-argument-parser's JSON
/// description of a command, which `--experimental-dump-help` prints), so an option added
/// later is covered with no list to keep. The same value twice changes nothing and passes.
enum RepeatedOptions {
    /// The usage message for the first option of `arguments` (`CommandLine.arguments`) that
    /// takes one value and is given two different ones; nil when there is none.
    static func problem(in arguments: [String], commands: [ParsableCommand.Type]) -> String? {
        let tokens = Array(arguments.dropFirst(2))
        guard let name = arguments.dropFirst().first, Self.namesAnOptionTwice(tokens),
              let command = commands.first(where: { $0._commandName == name }) else { return nil }
        let options = Self.options(of: command)
        var values: [String: String] = [:]
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if token == "--" { break }
            guard token.hasPrefix("--") else { continue }
            let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let option = String(parts[0].dropFirst(2))
            guard let isRepeating = options[option] else { continue }
            let value: String
            if parts.count == 2 {
                value = String(parts[1])
            } else {
                guard index < tokens.count else { break }
                value = tokens[index]
                index += 1
            }
            guard !isRepeating else { continue }
            if let first = values[option], first != value {
                // A PostgreSQL URI's password is never shown (`--db`).
                let shown = [first, value].map { "'" + ImportStores.displayName(of: $0) + "'" }
                return "--\(option) is given twice (\(shown[0]) and \(shown[1])); it takes one value"
            }
            values[option] = value
        }
        return nil
    }

    /// Whether any `--name` comes twice: without that (nearly every command line) no
    /// definition is read.
    private static func namesAnOptionTwice(_ tokens: [String]) -> Bool {
        var seen: Set<Substring> = []
        for token in tokens {
            if token == "--" { return false }
            guard token.hasPrefix("--") else { continue }
            if !seen.insert(token.prefix { $0 != "=" }).inserted { return true }
        }
        return false
    }

    /// The long names of `command`'s options (those that take a value), each with whether it
    /// may be repeated.
    static func options(of command: ParsableCommand.Type) -> [String: Bool] {
        struct Tool: Decodable { var command: Command }
        struct Command: Decodable { var arguments: [Argument]? }
        struct Argument: Decodable {
            var kind: String
            var names: [Name]?
            var isRepeating: Bool
        }
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        guard let tool = try? JSONDecoder().decode(Tool.self, from: Data(command._dumpHelp().utf8)) else { return [:] }
        var options: [String: Bool] = [:]
        for argument in tool.command.arguments ?? [] where argument.kind == "option" {
            for name in argument.names ?? [] where name.kind == "long" { options[name.name] = argument.isRepeating }
        }
        return options
    }
}
