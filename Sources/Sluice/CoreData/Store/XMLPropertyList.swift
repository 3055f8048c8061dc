/// Apple's XML property list format, read into the same `PropertyList` as the binary one
/// (`BinaryPropertyList`): a compiled model's `VersionInfo.plist` is XML when a tool other than
/// Xcode's compiler wrote it (or `plutil -convert xml1` did), and a bundle's
/// `.xccurrentversion` is XML as Xcode writes it and binary after some tools have saved it.
/// `PropertyList.read(_:sourceName:)` takes either.
///
/// `<date>` is refused: nothing Sluice reads from a property list holds one.
enum XMLPropertyList {
    static func read(_ bytes: [UInt8], sourceName: String) throws(SluiceError) -> PropertyList {
        let root = try XMLTree.parse(bytes, sourceName: sourceName)
        guard root.name == "plist", root.children.count == 1 else {
            throw SluiceError(.usage, "'\(sourceName)' is not a property list (its root is <\(root.name)>, not one <plist> value)")
        }
        return try value(root.children[0], sourceName: sourceName)
    }

    /// libxml2 bounds the nesting (256 levels by default), so the recursion is bounded too.
    private static func value(_ element: XMLTree.Element, sourceName: String) throws(SluiceError) -> PropertyList {
        func invalid(_ what: String) -> SluiceError {
            SluiceError(.usage, "'\(sourceName)': \(what) in the property list")
        }
        let text = String(element.text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        switch element.name {
        case "string", "key":
            return .string(element.text)
        case "integer":
            guard let number = Int64(text) else { throw invalid("<integer>\(text)</integer> is not a 64-bit integer") }
            return .integer(number)
        case "real":
            guard let number = Double(text) else { throw invalid("<real>\(text)</real> is not a number") }
            return .real(number)
        case "true", "false":
            return .bool(element.name == "true")
        case "data":
            let base64 = Array(text.utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })
            guard let bytes = base64.withUnsafeBytes(Base64Decoding.decode) else { throw invalid("a <data> is not base64") }
            return .data(bytes)
        case "array":
            var elements: [PropertyList] = []
            for child in element.children { elements.append(try value(child, sourceName: sourceName)) }
            return .array(elements)
        case "dict":
            guard element.children.count % 2 == 0 else { throw invalid("a <dict> holds a key without a value") }
            var members: [(key: String, value: PropertyList)] = []
            for index in stride(from: 0, to: element.children.count, by: 2) {
                guard element.children[index].name == "key" else { throw invalid("a <dict> member is not a <key>") }
                members.append((element.children[index].text, try value(element.children[index + 1], sourceName: sourceName)))
            }
            return .dictionary(members)
        default:
            throw invalid("<\(element.name)> is not a value Sluice reads")
        }
    }
}

extension PropertyList {
    /// A property list in either of Apple's formats: binary (`bplist00`) or XML.
    static func read(_ bytes: [UInt8], sourceName: String) throws(SluiceError) -> PropertyList {
        guard bytes.starts(with: Array("bplist".utf8)) else { return try XMLPropertyList.read(bytes, sourceName: sourceName) }
        do {
            return try BinaryPropertyList.read(bytes)
        } catch {
            throw SluiceError(.usage, "'\(sourceName)' is not a binary property list: \(error.message)")
        }
    }
}
