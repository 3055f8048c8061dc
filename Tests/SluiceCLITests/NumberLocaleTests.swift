import Foundation
import Testing
@testable import Sluice

/// Numbers are read from their exact text, never through the C library's locale-dependent
/// `strtod` or yajl's integer parser (which refuses -2^63): yajl 2.1's known traps.
@Suite struct NumberLocaleTests {
    static let model = """
        {
          "root": "N",
          "entities": {
            "N": {
              "table": "n", "identity": "i",
              "attributes": { "i": "integer", "d": "double", "x": "decimal", "s": "string", "t": "date" }
            }
          }
        }
        """

    static let input = """
        {"i": -9223372036854775808, "d": 1.5, "x": 0.10, "s": -9223372036854775808, "t": 1700000000.5}
        {"i": 9223372036854775807, "d": "2.25e-3", "x": "-1234.5678", "s": 1e3, "t": "2024-02-29T12:30:00.250+01:00"}

        """

    static let expected: [[ColumnValue]] = [
        [.integer(-9_223_372_036_854_775_808), .real(1.5), .text("0.10"), .text("-9223372036854775808"), .text("2023-11-14T22:13:20.500Z")],
        [.integer(9_223_372_036_854_775_807), .real(0.00225), .text("-1234.5678"), .text("1e3"), .text("2024-02-29T11:30:00.250Z")],
    ]

    @Test func exactUnderTheCLocale() throws {
        try check(environment: [:])
    }

    /// German writes 1,5: a `strtod` that followed the locale would read "1.5" as 1.
    @Test(.enabled(if: GermanLocale.directory != nil, GermanLocale.reason))
    func exactUnderAGermanLocale() throws {
        try check(environment: ["LOCPATH": GermanLocale.directory!, "LC_ALL": GermanLocale.name, "LANG": GermanLocale.name])
    }

    private func check(environment: [String: String]) throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")

        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"],
                                          stdin: Array(Self.input.utf8), environment: environment)

        #expect(result.status == 0, "\(result)")
        let rows = try workspace.database("out.sqlite").rows(#"SELECT "i", "d", "x", "s", "t" FROM "n" ORDER BY "pk""#)
        #expect(rows == Self.expected)
    }
}

/// de_DE.UTF-8, from the system or compiled once with `localedef` into a temporary
/// directory (used through LOCPATH); nil when neither works.
enum GermanLocale {
    static let name = "de_DE.UTF-8"
    static let reason: Comment = "needs the de_DE.UTF-8 locale, or localedef and the locales package's sources to build it"

    static let directory: String? = {
        let directory = NSTemporaryDirectory() + "sluice-test-locales"
        if FileManager.default.fileExists(atPath: directory + "/" + name + "/LC_NUMERIC") { return directory }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/localedef")
        process.arguments = ["-i", "de_DE", "-f", "UTF-8", directory + "/" + name]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        return FileManager.default.fileExists(atPath: directory + "/" + name + "/LC_NUMERIC") ? directory : nil
    }()
}
