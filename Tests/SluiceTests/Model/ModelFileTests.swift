import Testing
import SluiceTestSupport
@testable import Sluice

@Suite struct ModelFileTests {
    @Test func loadingAModelRecordsTheDigestOfItsBytes() throws {
        let directory = TemporaryDirectory()
        let text = #"{"entities": {"A": {"attributes": {"x": "string"}}}}"#
        let path = try directory.write(Array(text.utf8), to: "model.json")
        let file = try ModelFile.load(path: path)
        #expect(file.sha256 == SHA256.hex(of: Array(text.utf8)))
        #expect(file.model.entities.map(\.name) == ["A"])
    }
}
