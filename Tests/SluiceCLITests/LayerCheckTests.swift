import Foundation
import SluiceTestSupport
import Testing

/// `scripts/check-layers`, which `scripts/test` runs before the tests: it passes on this
/// checkout (its known breaks listed in `scripts/layers-allowed`), and fails, one line per
/// problem, on a layer that reaches around another (by a type's name, or by a member another
/// folder added to its type) and on a listed break that is gone.
@Suite struct LayerCheckTests {
    @Test func thisCheckoutPasses() throws {
        let result = try Self.check(PackageFiles.root)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func eachRuleFailsOnItsBreakAndAStaleListedBreakFailsToo() throws {
        let tree = TemporaryDirectory()
        let files = [
            "Sources/Sluice/Parsing/Parser.swift": "struct Parser { let position = Position() }\n",
            "Sources/Sluice/Store/Store.swift": "// Parser in a comment is fine\nfinal class Store { let text = \"Parser\" }\n",
            "Sources/Sluice/Store/SQLite/SQLiteStore.swift": "final class SQLiteStore { func run() { sqlite3_step(nil) } }\n",
            "Sources/Sluice/Store/PostgreSQL/Postgres.swift": "struct Postgres { let parser: Parser }\n",
            "Sources/Sluice/Values/Position.swift": "struct Position {}\n",
            "Sources/Sluice/Mapping/Plan.swift": "struct Plan {}\n",
            "Sources/Sluice/Model/Model.swift": "struct Model { let plan: Plan? = nil; func read() { _ = Model.fromXML() } }\n",
            // A member that CoreData/ adds to Model's type: calling it names CoreData/.
            "Sources/Sluice/CoreData/XML.swift": "extension Model {\n    static func fromXML() -> Model { Model() }\n}\n",
            "Sources/Sluice/Engine/Importer.swift": "final class Importer { let store = SQLiteStore(); func go() { print(1); PQexec(nil, nil) } }\n",
            "Sources/SluiceCLI/Main.swift": "print(Importer())\nexit(0)\n",
            "scripts/layers-allowed": "# known\nengine-store Sources/Sluice/Engine/Importer.swift SQLiteStore  # listed\nfolder-order Sources/Sluice/Model/Model.swift Gone  # mended\n",
        ]
        try Self.write(files, into: tree)

        let result = try Self.check(tree.path)
        #expect(result.status == 1)
        #expect(result.stderr == """
            check-layers: Sources/Sluice/Engine/Importer.swift: c-api-fenced: names PQexec
            check-layers: Sources/Sluice/Engine/Importer.swift: cli-only-io: names print
            check-layers: Sources/Sluice/Model/Model.swift: folder-order: names Model.fromXML
            check-layers: Sources/Sluice/Model/Model.swift: folder-order: names Plan
            check-layers: Sources/Sluice/Store/PostgreSQL/Postgres.swift: parsing-store: names Parser
            check-layers: scripts/layers-allowed: folder-order Sources/Sluice/Model/Model.swift Gone no longer breaks the rule: remove the line

            """)
    }

    /// The stores name the seam's types and Store/'s, never the engine's; the seam names
    /// neither the engine's, nor Mapping's, nor a concrete store's, but may name Store/'s.
    @Test func storesNameNoEngineTypeAndTheSeamNamesNeitherSide() throws {
        let tree = TemporaryDirectory()
        try Self.write([
            "Sources/Sluice/Engine/Writer.swift": "final class Writer { let address = Address() }\n",
            "Sources/Sluice/Mapping/Plan.swift": "struct Plan {}\n",
            "Sources/Sluice/Seam/Address.swift": "struct Address { var table: Table? = nil }\n",
            "Sources/Sluice/Seam/Contract.swift": "protocol Contract { func write(_ writer: Writer, _ plan: Plan, _ store: SQLiteStore) }\n",
            "Sources/Sluice/Store/Table.swift": "struct Table { let address: Address }\n",
            "Sources/Sluice/Store/Stores.swift": "enum Stores { static func open(for writer: Writer) {} }\n",
            "Sources/Sluice/Store/SQLite/SQLiteStore.swift": "final class SQLiteStore: Contract { let writer: Writer? = nil }\n",
        ], into: tree)

        let result = try Self.check(tree.path)
        #expect(result.status == 1)
        #expect(result.stderr == """
            check-layers: Sources/Sluice/Seam/Contract.swift: seam-pure: names Plan
            check-layers: Sources/Sluice/Seam/Contract.swift: seam-pure: names SQLiteStore
            check-layers: Sources/Sluice/Seam/Contract.swift: seam-pure: names Writer
            check-layers: Sources/Sluice/Store/SQLite/SQLiteStore.swift: store-engine: names Writer
            check-layers: Sources/Sluice/Store/Stores.swift: store-engine: names Writer

            """)
    }

    private static func write(_ files: [String: String], into tree: TemporaryDirectory) throws {
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: tree.file((path as NSString).deletingLastPathComponent),
                                                    withIntermediateDirectories: true)
            try tree.writeFile(Array(text.utf8), named: path)
        }
    }

    private static func check(_ directory: String) throws -> (status: Int32, stderr: String) {
        try runProgram(PackageFiles.path("scripts/check-layers"), [directory])
    }
}
