import Testing
@testable import Sluice

/// The XML reader under Core Data models: what it keeps, and that no malformed document
/// crashes it or makes it read anything but its bytes.
@Suite struct XMLTreeTests {
    private func parse(_ text: String) throws(SluiceError) -> XMLTree.Element {
        try XMLTree.parse(Array(text.utf8), sourceName: "contents")
    }

    private func failure(_ text: String) -> SluiceError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func elementsAttributesAndTextInDocumentOrder() throws {
        let root = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <model b="2" a="1">
                <!-- a comment -->
                <entity name="A &amp; B"/>
                <key>x<![CDATA[<y>]]></key>
            </model>
            """)
        #expect(root.name == "model")
        #expect(root.attributes == [.init(name: "b", value: "2"), .init(name: "a", value: "1")])
        #expect(root.children.map(\.name) == ["entity", "key"])
        #expect(root.children[0][attribute: "name"] == "A & B")
        #expect(root.children[0][attribute: "nope"] == nil)
        #expect(root.children[1].text == "x<y>")
    }

    @Test func malformedXMLIsAUsageErrorAtItsPlace() {
        let error = failure("<model>\n  <entity name=\"A\">\n</model>")
        #expect(error?.kind == .usage)
        #expect(error?.description.hasPrefix("contents:3:") == true, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("not XML: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains("\n") == false)
    }

    @Test func emptyAndNonXMLInputs() {
        #expect(failure("")?.description == "contents:1:1: not XML: the file is empty")
        #expect(failure("{\"entities\": {}}")?.kind == .usage)
        #expect(failure("   ")?.kind == .usage)
        #expect(failure("<?xml version=\"1.0\"?>")?.kind == .usage)
    }

    /// Truncations, stray bytes, bad encodings, unknown entities: each is one error, never a crash.
    @Test(arguments: [
        "<model", "<model>", "<model name=\"a></model>", "<model></entity>", "<a><b></a></b>",
        "<model>&undefined;</model>", "<model>\u{0}</model>", "<model a=\"1\" a=\"2\"/>",
        "<?xml version=\"1.0\" encoding=\"NOPE\"?><model/>", "<model/><model/>", "</model>",
        "<model><entity name=\"x\"></entity>",
    ])
    func malformedDocumentsFailCleanly(_ text: String) {
        #expect(failure(text)?.kind == .usage, "\(text)")
    }

    @Test func invalidUTF8FailsCleanly() {
        let bytes: [UInt8] = Array("<model name=\"".utf8) + [0xFF, 0xFE, 0xC0] + Array("\"/>".utf8)
        #expect(throws: SluiceError.self) { try XMLTree.parse(bytes, sourceName: "contents") }
    }

    /// Entities are not expanded and no DTD is loaded: a model cannot make the reader read
    /// another file or grow without bound.
    @Test func entitiesAreNeitherLoadedNorExpanded() throws {
        let external = try? parse("""
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <model><entry value="&secret;"/></model>
            """)
        #expect(external.map { $0.children.first?[attribute: "value"]?.contains("root:") != true } ?? true)

        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n<!ENTITY a0 \"lol\">\n"
        for level in 1...12 { laughs += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">\n" }
        laughs += "]>\n<model><entry value=\"&a12;\"/></model>"
        if let root = try? parse(laughs) {
            #expect((root.children.first?[attribute: "value"]?.utf8.count ?? 0) < 1_000_000)
        }
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let depth = 100_000
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(failure(text)?.kind == .usage)
    }
}
