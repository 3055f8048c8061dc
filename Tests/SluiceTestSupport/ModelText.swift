/// Names written into model files by tests and the fuzz target (which links this file:
/// `Fuzz/Sources/SluiceFuzz/Properties/`), escaped for where they stand. Standard library only.
public enum ModelText {
    /// A JSON string holding `text`.
    public static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` as an XML attribute's value (between double quotes); tab and line feed as
    /// character references, which attribute-value normalisation would turn into spaces.
    public static func xml(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            .replacing("\"", with: "&quot;").replacing("'", with: "&apos;").replacing("\t", with: "&#9;")
            .replacing("\n", with: "&#10;")
    }
}
