import Foundation
import Testing

/// An option that takes one value, given twice with different values, is a usage error
/// (`docs/cli.md#usage-errors`) for every command: the options come from each command's own
/// definition (`--experimental-dump-help`), so an option added later is tested with no list
/// to keep.
@Suite struct RepeatedOptionTests {
    static let commands = ["import", "check", "schema", "infer", "convert-model"]

    /// The long names of `command`'s options that take one value, from its definition.
    static func singleValueOptions(of command: String, in workspace: Workspace) throws -> [String] {
        let help = try workspace.sluice(command, "--experimental-dump-help")
        #expect(help.status == 0, "\(help)")
        let tool = try JSONSerialization.jsonObject(with: Data(help.stdout.utf8)) as? [String: Any]
        let arguments = (tool?["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? []
        return arguments.filter { $0["kind"] as? String == "option" && $0["isRepeating"] as? Bool == false }.flatMap {
            ($0["names"] as? [[String: String]] ?? []).filter { $0["kind"] == "long" }.compactMap { $0["name"] }
        }
    }

    @Test(arguments: commands)
    func everySingleValueOptionGivenTwiceIsAUsageError(_ command: String) throws {
        let workspace = Workspace()
        let options = try Self.singleValueOptions(of: command, in: workspace)
        #expect(command != "import" || options.count >= 15, "\(options)")
        for option in options {
            // Both spellings of a value, and the second one after other arguments.
            let result = try workspace.sluice([command, "--\(option)", "first.x", "--quiet", "--\(option)=second.x"])
            #expect(result.status == 64, "--\(option): \(result)")
            #expect(result.stderrLines == ["sluice: error: --\(option) is given twice ('first.x' and 'second.x'); it takes one value"],
                    "--\(option): \(result)")
            #expect(result.stdout.isEmpty)
        }
        #expect(workspace.contents.isEmpty)
    }

    /// The same value twice changes nothing: the import runs. A repeatable option (`--root`)
    /// and a value after `--` (a file named like an option) are no repetition.
    @Test func theSameValueTwiceAndRepeatableOptionsPass() throws {
        let workspace = Workspace()
        try workspace.write("{\"a\": 1}\n", to: "--db")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--table", "t", "--db=out.sqlite", "--quiet", "--",
                                           "--db"])
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT a FROM t") == [[.integer(1)]])
        let model = #"{"entities": {"A": {"attributes": {"a": "integer"}}, "B": {"attributes": {"b": "integer"}}}}"#
        try workspace.write(model, to: "model.json")
        let roots = try workspace.sluice(["import", "--db", "roots.sqlite", "--model", "model.json", "--root", "as=A",
                                          "--root", "bs=B", "--quiet", "-"], stdin: Array(#"{"as": [{"a": 1}], "bs": [{"b": 2}]}"#.utf8))
        #expect(roots.status == 0, "\(roots)")
    }

    /// A PostgreSQL URI's password is not shown.
    @Test func aPasswordInARepeatedDatabaseIsNotShown() throws {
        let result = try Workspace().sluice("import", "--db", "postgresql://u:secret1@localhost/a",
                                            "--db", "postgresql://u:secret2@localhost/b")
        #expect(result.status == 64)
        #expect(result.stderrLines == ["sluice: error: --db is given twice ('postgresql://u:***@localhost/a' and "
            + "'postgresql://u:***@localhost/b'); it takes one value"])
    }
}
