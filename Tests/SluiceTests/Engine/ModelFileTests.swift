import Testing
@testable import Sluice

@Suite struct ModelFileTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func loadingAModelRecordsTheDigestOfItsBytes() throws {
        let directory = TemporaryDirectory()
        let text = #"{"entities": {"A": {"attributes": {"x": "string"}}}}"#
        let path = try directory.write(Array(text.utf8), to: "model.json")
        let file = try ModelFile.load(path: path)
        #expect(file.sha256 == sha256Hex(Array(text.utf8)))
        #expect(file.model.entities.map(\.name) == ["A"])
    }
}
