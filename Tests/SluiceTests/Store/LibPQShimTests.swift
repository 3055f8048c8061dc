import Foundation
import SluiceTestSupport
import Testing

/// libpq opened at run time needs no libpq header to build (`Sources/CLibPQ/shim.h` declares
/// what Sluice uses): those declarations hold the values and sizes of libpq-fe.h's own.
@Suite struct LibPQShimTests {
    /// Builds and runs one C program twice, over libpq-fe.h and over the shim, where a C
    /// compiler and libpq's headers are installed (`libpq-dev`); otherwise says why it checked
    /// nothing. The two must print the same.
    @Test func theShimMatchesLibpqsHeader() throws {
        guard try Self.shell("command -v cc && pkg-config --exists libpq").status == 0 else {
            print("LibPQShimTests: no C compiler or no libpq headers; the shim was not checked")
            return
        }
        let directory = TemporaryDirectory()
        let source = directory.file("values.c")
        try Self.program.write(toFile: source, atomically: true, encoding: .utf8)
        let shim = PackageFiles.path("Sources/CLibPQ/shim.h")
        let real = try Self.shell("cc $(pkg-config --cflags libpq) -DHEADER='<libpq-fe.h>' -o '\(directory.file("real"))' '\(source)' "
            + "&& '\(directory.file("real"))'")
        let own = try Self.shell("cc -DHEADER='\"\(shim)\"' -o '\(directory.file("own"))' '\(source)' && '\(directory.file("own"))'")
        #expect(real.status == 0, "\(real.output)")
        #expect(own.status == 0, "\(own.output)")
        #expect(own.output == real.output)
        #expect(real.output.hasPrefix("0 1 0 1 2 3 4 5 6 7 4 4 4 "), "\(real.output)")
    }

    private static let program = """
        #include <stdio.h>
        #include HEADER
        static void notice(void *arg, const char *message) { (void)arg; (void)message; }
        int main(void) {
            PQnoticeProcessor processor = notice;
            (void)processor;
            printf("%d %d %d %d %d %d %d %d %d %d %zu %zu %zu %zu\\n", CONNECTION_OK, CONNECTION_BAD,
                   PGRES_EMPTY_QUERY, PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_OUT, PGRES_COPY_IN,
                   PGRES_BAD_RESPONSE, PGRES_NONFATAL_ERROR, PGRES_FATAL_ERROR,
                   sizeof(ConnStatusType), sizeof(ExecStatusType), sizeof(Oid), sizeof(PQnoticeProcessor));
            return 0;
        }
        """

    /// Runs `command` with `/bin/sh`: its exit status and what it wrote (both streams).
    private static func shell(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " 2>&1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
