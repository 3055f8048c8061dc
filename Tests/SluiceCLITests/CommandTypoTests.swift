import Foundation
import SluiceTestSupport
import Testing

/// What a mistyped command, database or model file gets: one line saying which it was, with
/// the nearest right name, exit 64 (or 66 for a file that cannot be opened), nothing written.
@Suite struct CommandTypoTests {
    let workspace = Workspace()

    @Test func anUnknownCommandNamesTheCommandsAndTheNearest() throws {
        let typo = try workspace.sluice("imprt", "in.json")
        #expect(typo.status == 64, "\(typo)")
        #expect(typo.stderrLines == ["sluice: error: unknown command 'imprt'; the commands are: import, schema, check, infer, "
            + "convert-model, help; did you mean 'import'?"], "\(typo)")
        let unknown = try workspace.sluice("frobnicate")
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderrLines == ["sluice: error: unknown command 'frobnicate'; the commands are: import, schema, check, "
            + "infer, convert-model, help"], "\(unknown)")
    }

    /// A URI of another scheme was taken for an SQLite file's path (and failed as one, 73); its
    /// password is masked as a PostgreSQL URI's is.
    @Test func aDatabaseURIOfAnotherSchemeIsAUsageErrorWithTheNearestScheme() throws {
        let result = try workspace.sluice(["import", "--db", "postgres1://u:Secr3tPW@h/db", "--table", "t"], stdin: Array("[]".utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: database 'postgres1://u:***@h/db': 'postgres1://' is not a database Sluice "
            + "writes to (postgresql:// or postgres:// for PostgreSQL; an SQLite database is a file's path); did you mean 'postgres://'?"],
                "\(result)")
        #expect(!result.stderr.contains("Secr3tPW"))
        #expect(workspace.contents.isEmpty)
    }

    @Test func aMissingModelAndAMissingInputSaySo() throws {
        try workspace.write(#"{"root": "T", "entities": {"T": {"attributes": {"id": "integer"}}}}"#, to: "model.json")
        let model = try workspace.sluice("import", "--db", "d.sqlite", "--model", "modle.json", "in.json")
        #expect(model.status == 66, "\(model)")
        #expect(model.stderrLines == ["sluice: error: cannot open model 'modle.json': No such file or directory"], "\(model)")
        let input = try workspace.sluice("import", "--db", "d.sqlite", "--model", "model.json", "in.json")
        #expect(input.status == 66, "\(input)")
        #expect(input.stderrLines == ["sluice: error: cannot open input 'in.json': No such file or directory"], "\(input)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("d.sqlite")))
    }
}
