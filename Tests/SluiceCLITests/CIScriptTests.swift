import SluiceTestSupport
import Testing

/// `.ci/run` installs its Debian packages itself, so that CI on a new machine never depends on
/// the image; `scripts/install-deps` (the README's route) names the same packages.
@Suite struct CIScriptTests {
    @Test func ciInstallsWhatInstallDepsNames() throws {
        let ci = try Self.packages(in: ".ci/run", after: "apt-get install -y")
        let script = try ReleaseTests.run(PackageFiles.path("scripts/install-deps"), ["--list"])
        #expect(ci.contains("libsqlite3-dev") && !ci.contains("libyajl-dev"))
        #if os(Linux)
        #expect(ci == Set(script.stdout.split(separator: "\n").map(String.init)), "\(script)")
        #endif
    }

    /// The words after `marker` on its line (line continuations joined), up to a `do`.
    static func packages(in file: String, after marker: String) throws -> Set<String> {
        let text = String(decoding: try PackageFiles.bytes(file), as: UTF8.self)
            .replacingOccurrences(of: "\\\n", with: " ")
        guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }),
              let range = line.range(of: marker) else { return [] }
        let words = line[range.upperBound...].split(separator: " ").prefix { $0 != "do" }
        return Set(words.map { String($0.hasSuffix(";") ? $0.dropLast() : $0) })
    }
}
