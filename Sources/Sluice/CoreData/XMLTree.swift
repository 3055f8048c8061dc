internal import CLibXML2

/// A small XML document (a Core Data model, a property list) read whole into Swift values:
/// elements with their attributes, child elements and text, in document order. Comments and
/// processing instructions are dropped.
///
/// libxml2 parses, for the reasons in `docs/architecture.md` (dependencies): it is the parser
/// that Foundation's `XMLParser` wraps, without linking Foundation into the library, and is
/// loaded only while a model is read (`LibXML2.withLoaded`). It runs
/// without network access, without loading DTDs and without expanding entities, so a model
/// file cannot make Sluice read other files or blow up in memory.
enum XMLTree {
    struct Element: Equatable, Sendable {
        var name: String
        /// In document order.
        var attributes: [Attribute]
        var children: [Element]
        /// The text directly inside the element (a property list's `<string>`), CDATA included.
        var text: String

        struct Attribute: Equatable, Sendable {
            var name: String
            var value: String
        }

        init(name: String, attributes: [Attribute] = [], children: [Element] = [], text: String = "") {
            self.name = name
            self.attributes = attributes
            self.children = children
            self.text = text
        }

        subscript(attribute name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }
    }

    /// Parses `bytes`, named `sourceName` in messages. Malformed XML is a usage error (a bad
    /// model, exit 64) at the line and column libxml2 reports.
    static func parse(_ bytes: [UInt8], sourceName: String) throws(SluiceError) -> Element {
        try LibXML2.withLoaded { xml throws(SluiceError) in try parse(bytes, sourceName: sourceName, xml) }
    }

    /// The tree is Swift values only: nothing of libxml2's outlives the call.
    private static func parse(_ bytes: [UInt8], sourceName: String, _ xml: LibXML2) throws(SluiceError) -> Element {
        guard let context = xml.newParserCtxt() else {
            throw SluiceError(.io, "cannot read '\(sourceName)': out of memory")
        }
        defer { xml.freeParserCtxt(context) }
        let options = Int32(SLUICE_XML_PARSE_NONET | SLUICE_XML_PARSE_NOERROR | SLUICE_XML_PARSE_NOWARNING)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xml.ctxtReadMemory(context, $0, Int32(clamping: buffer.count), sourceName, nil, options)
                }
            }
        }
        guard let document else { throw malformed(context, xml, sourceName: sourceName, empty: bytes.isEmpty) }
        defer { xml.freeDoc(document) }
        guard let root = xml.docGetRootElement(document) else {
            throw notXML("the document has no element", in: sourceName)
        }
        return element(root)
    }

    private static func element(_ node: UnsafeMutablePointer<sluice_xmlNode>) -> Element {
        var result = Element(name: string(node.pointee.name))
        var attribute = node.pointee.properties
        while let current = attribute {
            result.attributes.append(.init(name: string(current.pointee.name), value: text(of: current.pointee.children)))
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            if Int(current.pointee.type) == SLUICE_XML_ELEMENT_NODE { result.children.append(element(current)) }
            child = current.pointee.next
        }
        result.text = text(of: node.pointee.children)
        return result
    }

    /// The text among `nodes` (an attribute's value, an element's text), with a reference to
    /// a declared entity kept as written (`&name;`), never expanded.
    private static func text(of nodes: UnsafeMutablePointer<sluice_xmlNode>?) -> String {
        var value = ""
        var node = nodes
        while let current = node {
            switch Int(current.pointee.type) {
            case SLUICE_XML_TEXT_NODE, SLUICE_XML_CDATA_SECTION_NODE: value += string(current.pointee.content)
            case SLUICE_XML_ENTITY_REF_NODE: value += "&" + string(current.pointee.name) + ";"
            default: break
            }
            node = current.pointee.next
        }
        return value
    }

    private static func string(_ text: UnsafePointer<sluice_xmlChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text)
    }

    /// The error libxml2 reported last (where it gave up), as one line at its place.
    private static func malformed(_ context: OpaquePointer, _ xml: LibXML2, sourceName: String, empty: Bool) -> SluiceError {
        guard !empty, let error = xml.ctxtGetLastError(context),
              let text = error.pointee.message else {
            return notXML("the file is empty", in: sourceName)
        }
        var message = String(cString: text)
        while message.last?.isWhitespace == true { message.removeLast() }
        return notXML(message, in: sourceName, line: Int(error.pointee.line), column: Int(error.pointee.int2))
    }

    /// `source:line:column: not XML: message`, a usage error (a bad model, exit 64).
    private static func notXML(_ message: String, in source: String, line: Int = 1, column: Int = 1) -> SluiceError {
        SluiceError(.usage, "not XML: \(message)", in: source,
                    at: InputPosition(line: max(line, 1), column: max(column, 1), offset: 0))
    }
}
