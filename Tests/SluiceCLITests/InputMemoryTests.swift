import Foundation
import SluiceTestSupport
import Testing

/// Memory bounds of one input's parts (`docs/cli.md`, limits), each held by the binary's peak
/// resident memory: a CSV header's fields, one large JSON value.
@Suite struct InputMemoryTests {
    /// Runs `sluice arguments…` in `workspace` with `stdin` (a file of the workspace) as its
    /// standard input, through `sh`, and returns its exit status, its stderr lines and its
    /// peak resident bytes (the largest of the `sh` and `sluice` processes'). `sh` forks the
    /// binary: on Linux a process's maxrss survives `exec`, so one started straight from a
    /// larger process would report at least that one's.
    static func run(_ workspace: Workspace, _ arguments: [String], stdin: String = "/dev/null")
        throws -> (status: Int32, stderr: [String], peak: Int)
    {
        let script = """
            import resource, subprocess, sys
            with open(sys.argv[1], "rb") as stdin, open("stderr.txt", "wb") as err:
                status = subprocess.call(["/bin/sh", "-c", '"$0" "$@"'] + sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL, stderr=err)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            print(status, peak if sys.platform == "darwin" else peak * 1024)
            """
        let output = try GTFSFixture.python(["-c", script, stdin, SluiceRunner.executable.path] + arguments, in: workspace.path)
        let fields = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 2, "\(output)")
        let stderr = String(decoding: try #require(workspace.bytes(of: "stderr.txt")), as: UTF8.self)
        return (Int32(fields[0]), stderr.split(separator: "\n").map(String.init), fields[1])
    }

    /// Names `c0`, `c1`, … in base 36, as short as distinct names get.
    static func names(_ count: Int) -> [String] { (0..<count).map { "c" + String($0, radix: 36) } }

    /// A header of 2,000,000 short names (14 MB, 3 MB deflated in a zip) is refused at the
    /// first field past 65,536 (exit 65), within a few MiB of the import's base: each field
    /// cost about 75 bytes, 178 MiB here (2.4 GB from a 64 KB zip of one-letter names).
    @Test func aHeaderOfMoreFieldsThanTheLimitIsRefusedInBoundedMemory() throws {
        let workspace = Workspace()
        let names = Self.names(2_000_000)
        try workspace.write(try ZipBuilder([.init("wide.csv", Array((names.joined(separator: ",") + "\n1\n").utf8))]).bytes(),
                            to: "wide.zip")
        let result = try Self.run(workspace, ["import", "--db", "out.sqlite", "wide.zip"])
        let column = names.prefix(65_536).reduce(1) { $0 + $1.utf8.count + 1 }
        #expect(result.status == 65)
        #expect(result.stderr == ["sluice: error: wide.zip:wide.csv:1:\(column): the header has more than 65536 fields, "
            + "the most a CSV input may have"])
        #expect(result.peak < 80 << 20, "\(result.peak >> 20) MiB")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))
    }

    /// A header of 65,536 fields, the most, imports (a zero-config table takes the columns its
    /// rows have values for) in the same bound.
    @Test func aHeaderOfTheMostFieldsImportsInBoundedMemory() throws {
        let workspace = Workspace()
        let names = Self.names(65_536)
        try workspace.write(names.joined(separator: ",") + "\n1\n", to: "wide.csv")
        let result = try Self.run(workspace, ["import", "--quiet", "--db", "out.sqlite", "wide.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.peak < 80 << 20, "\(result.peak >> 20) MiB")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "c0" FROM "wide""#).map { $0[0].text } == ["1"])
    }

    /// One JSON number or string of 40 MB through standard input imports whole in at most the
    /// import's base and 6 times its bytes (docs/cli.md, Bounds): 4.1 and 5.1 times measured;
    /// its time is linear in its length (LongTokenTests counts the lexing).
    @Test(arguments: ["number", "string"])
    func oneLargeValueImportsInBoundedMemory(kind: String) throws {
        let workspace = Workspace()
        let length = 40_000_000
        let value = kind == "number" ? "1" + String(repeating: "7", count: length - 1)
            : "\"" + String(repeating: "a", count: length - 2) + "\""
        try workspace.write("[{\"v\": " + value + "}]\n", to: "big.json")
        let result = try Self.run(workspace, ["import", "--quiet", "--db", "out.sqlite", "-"], stdin: "big.json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.peak < (32 << 20) + 6 * length, "\(result.peak >> 20) MiB")
        let rows = try workspace.database("out.sqlite").rows(#"SELECT typeof("v"), CAST(length("v") AS TEXT), substr("v", 1, 3) FROM "records""#)
        #expect(rows.map { $0.map(\.text) } == [["text", String(kind == "number" ? length : length - 2), kind == "number" ? "177" : "aaa"]])
    }
}
