import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Core Data's Integer 16 and 32 attributes (the model's `"bits": 16` and `32`): a value out of
/// their range is a record error with its place, never stored or truncated, through the Core
/// Data model and through the model `convert-model` prints for it alike.
@Suite struct IntegerWidthTests {
    private static let entities = """
        <entity name="Reading">
          <attribute name="readingID" optional="YES" attributeType="Integer 64"/>
          <attribute name="small" optional="YES" attributeType="Integer 16"/>
          <attribute name="mid" optional="YES" attributeType="Integer 32"/>
        </entity>
        """

    /// Records 2 to 4 are out of range, each in another way: beyond the top, beyond the bottom
    /// as a numeric string, and a 64-bit value in a 32-bit attribute.
    private static let input = Array("""
        {"readingID": 1, "small": 32767, "mid": -2147483648}
        {"readingID": 2, "small": 32768, "mid": 0}
        {"readingID": 3, "small": "-32769"}
        {"readingID": 4, "small": 1, "mid": 9223372036854775807}
        {"readingID": 5, "small": -32768, "mid": 2.147483647e9}

        """.utf8)

    /// The workspace with the Core Data model and, as `model.json`, its conversion.
    private func workspace() throws -> Workspace {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.entities, to: "Readings.xcdatamodel")
        let converted = try workspace.sluice("convert-model", "Readings.xcdatamodel")
        try #require(converted.status == 0, "\(converted)")
        try workspace.write(converted.stdout, to: "model.json")
        return workspace
    }

    @Test func convertModelKeepsTheWidths() throws {
        let workspace = try workspace()
        let model = try String(contentsOfFile: workspace.file("model.json"), encoding: .utf8)
        #expect(model.contains(#""small": { "type": "integer", "bits": 16 }"#), "\(model)")
        #expect(model.contains(#""mid": { "type": "integer", "bits": 32 }"#), "\(model)")
        #expect(model.contains(#""readingID": "integer""#), "\(model)")
    }

    @Test(arguments: ["Readings.xcdatamodel", "model.json"])
    func aValueOutOfRangeStopsTheImport(_ model: String) throws {
        let workspace = try workspace()
        let result = try workspace.sluice(["import", "--db", "r.sqlite", "--model", model, "--entity", "Reading"],
                                          stdin: Self.input)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.last
                    == "sluice: error: <stdin>:2:1: Reading.small: cannot convert 32768 to integer: out of the 16-bit range (-32768…32767)",
                "\(result)")
        #expect(!workspace.exists("r.sqlite"))
    }

    @Test(arguments: ["Readings.xcdatamodel", "model.json"])
    func valuesOutOfRangeAreRejectedUnderSkip(_ model: String) throws {
        let workspace = try workspace()
        let result = try workspace.sluice(["import", "--db", "r.sqlite", "--model", model, "--entity", "Reading",
                                           "--on-error", "skip", "--rejects", "rejects.ndjson", "--quiet"],
                                          stdin: Self.input)
        #expect(result.status == 0, "\(result)")
        let rows = try workspace.database("r.sqlite").rows(#"SELECT "readingID", small, mid FROM "Reading" ORDER BY pk"#)
        #expect(rows == [[.integer(1), .integer(32767), .integer(-2147483648)],
                         [.integer(5), .integer(-32768), .integer(2147483647)]])
        let rejects = try String(contentsOfFile: workspace.file("rejects.ndjson"), encoding: .utf8)
        let reasons = try rejects.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return "\(object?["line"] ?? "") \(object?["reason"] ?? "")"
        }
        #expect(reasons == [
            "2 Reading.small: cannot convert 32768 to integer: out of the 16-bit range (-32768…32767)",
            "3 Reading.small: cannot convert \"-32769\" to integer: out of the 16-bit range (-32768…32767)",
            "4 Reading.mid: cannot convert 9223372036854775807 to integer: out of the 32-bit range (-2147483648…2147483647)",
        ])
    }

    @Test func aDefaultOutOfRangeIsAModelError() throws {
        let workspace = Workspace()
        try workspace.write(#"{ "entities": { "R": { "attributes": { "small": { "type": "integer", "bits": 16, "default": 40000 } } } } }"#,
                            to: "model.json")
        let result = try workspace.sluice("check", "--model", "model.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: model.json: entities.R.attributes.small.default: cannot convert 40000 to integer: out of the 16-bit range (-32768…32767)",
        ], "\(result)")
    }
}
