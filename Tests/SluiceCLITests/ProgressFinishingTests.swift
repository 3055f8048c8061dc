import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice
@testable import SluiceCLI

/// The progress line once the input is read (`docs/cli.md`, progress): each stage of the
/// finish is named as it begins, and the line is redrawn at least once a second until the
/// end, even while one SQL statement runs for seconds.
@Suite struct ProgressFinishingTests {
    static let model = """
        {
          "root": { "items": "Item", "boxes": "Box" },
          "entities": {
            "Item": { "table": "items", "identity": "id", "attributes": { "id": { "type": "integer" } },
                      "relationships": { "box": { "entity": "Box", "key": "box" } } },
            "Box": { "table": "boxes", "identity": "id", "attributes": { "id": { "type": "integer" } } }
          }
        }
        """

    /// `items` records naming boxes that come after all of them: every link waits for the
    /// second pass.
    static func input(items: Int, boxes: Int) -> [UInt8] {
        var text = "{\"items\": [\n"
        for item in 0..<items { text += "{\"id\": \(item), \"box\": \(item % boxes)},\n" }
        text += "{\"id\": \(items), \"box\": 0}],\n\"boxes\": ["
        text += (0..<boxes).map { "{\"id\": \($0)}" }.joined(separator: ",") + "]}\n"
        return Array(text.utf8)
    }

    /// A frame of the line (`\r…\e[K`) and when it reached the terminal, in seconds from the
    /// first byte.
    struct Frame {
        var text: String
        var seconds: Double
    }

    /// The frames of `result`'s stderr in order, then the clear (`\r\e[K`, text "").
    static func frames(_ result: SluiceResult) -> [Frame] {
        let bytes = Array(result.stderr.utf8)
        guard let start = result.stderrArrivals.first?.nanoseconds else { return [] }
        var frames: [Frame] = []
        var frameStart = 0
        var index = 0
        while index + 3 <= bytes.count {
            if bytes[index] == 0x0D { frameStart = index + 1 }
            if bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "["), bytes[index + 2] == UInt8(ascii: "K") {
                let end = index + 3
                let arrival = result.stderrArrivals.first { $0.bytes >= end } ?? result.stderrArrivals.last!
                frames.append(Frame(text: String(decoding: bytes[frameStart..<index], as: UTF8.self),
                                    seconds: Double(arrival.nanoseconds - start) / 1e9))
                index = end
                continue
            }
            index += 1
        }
        return frames
    }

    /// A new database of the model whose `items` already hold `rows` rows the input will not
    /// mention: `--delete-missing` deletes them in a few long statements.
    static func databaseWithRows(_ rows: Int, in workspace: Workspace) throws {
        let empty = try workspace.sluice(["import", "--db", "t.sqlite", "--model", "model.json", "--quiet"],
                                         stdin: Array(#"{"items": [], "boxes": []}"#.utf8))
        #expect(empty.status == 0, "\(empty)")
        let connection = try Connection(path: workspace.file("t.sqlite"), mode: .readWrite)
        try connection.execute("""
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows))
            INSERT INTO items (id) SELECT -x FROM n
            """)
        connection.close()
    }

    @Test func everyStageIsNamedAndTheLineMovesAtLeastOnceASecond() throws {
        let workspace = Workspace()
        try workspace.write(Array(Self.model.utf8), to: "model.json")
        try Self.databaseWithRows(2_000_000, in: workspace)
        let items = 300_000
        try workspace.write(Self.input(items: items, boxes: 1_000), to: "in.json")

        let result = try workspace.sluiceOnTerminal(["import", "--db", "t.sqlite", "--model", "model.json",
                                                     "--delete-missing", "--analyze", "--vacuum", "in.json"])

        #expect(result.status == 0, "\(result)")
        let frames = Self.frames(result)
        let finishing = Array(frames.drop { !$0.text.hasPrefix("finishing: ") })
        let texts = finishing.map(\.text)
        // Each stage, in order (redrawn any number of times), then the clear.
        var stages: [String] = []
        for text in texts {
            let stage = text.components(separatedBy: "  ")[0]
            if stages.last != stage { stages.append(stage) }
        }
        #expect(stages == ["finishing: writing the last records", "finishing: linking Item.box",
                           "finishing: deleting Item rows not in the input", "finishing: deleting Box rows not in the input",
                           "finishing: ANALYZE", "finishing: committing", "finishing: VACUUM", ""], "\(texts)")
        // done of total: all but the links of the last batch of items, whose boxes it held.
        let linking = texts.filter { $0.hasPrefix("finishing: linking Item.box  ") }.map { $0.components(separatedBy: "  ")[1] }
        let total = linking.first.flatMap { Int($0.components(separatedBy: " of ").last!.replacingOccurrences(of: ",", with: "")) }
        #expect(total.map { $0 > items - 5_000 && $0 <= items } == true, "\(linking)")
        #expect(linking.first?.hasPrefix("0 of ") == true, "\(linking)")
        #expect(finishing.last?.text == "", "the line is cleared at the end")

        // From the first finishing frame to the clear, no gap of a second or more; the finish
        // took long enough for that to mean something.
        let gaps = zip(finishing, finishing.dropFirst()).map { $1.seconds - $0.seconds }
        let duration = (finishing.last?.seconds ?? 0) - (finishing.first?.seconds ?? 0)
        #expect(duration > 1.5, "the finish took \(duration) s: too short to show anything")
        #expect(gaps.allSatisfy { $0 < 1 }, "longest gap \(gaps.max() ?? 0) s in \(zip(texts, finishing.map(\.seconds)).map { "\($1): \($0)" })")
        #expect(Double(finishing.count) >= duration, "\(finishing.count) redraws in \(duration) s")

        let database = try workspace.database("t.sqlite")
        #expect(try database.count("items") == Int64(items + 1))
        #expect(try database.scalar("SELECT count(box_pk) FROM items") == .integer(Int64(items + 1)))
    }
}
