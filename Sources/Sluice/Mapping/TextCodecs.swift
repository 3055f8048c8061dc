/// Base64 decoding for `binary` attributes: the standard alphabet (RFC 4648 §4) and the
/// URL-safe one (§5, `-` and `_`), even mixed; padding optional but, when present, correct.
/// Whitespace, other characters, a lone trailing character or data after the padding make
/// the text invalid. Unused low bits of the last character are ignored, as most decoders do.
enum Base64Decoding {
    /// The decoded bytes, or nil if `text` is not base64.
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        var length = text.count
        var padding = 0
        while padding < 2 && length > 0 && text[length - 1] == UInt8(ascii: "=") {
            length -= 1
            padding += 1
        }
        if padding > 0 && text.count % 4 != 0 { return nil }
        if length % 4 == 1 { return nil }

        let fullGroups = length / 4
        let tail = length % 4  // 0, 2 or 3 characters
        var output = [UInt8]()
        output.reserveCapacity(fullGroups * 3 + (tail == 0 ? 0 : tail - 1))
        var at = 0
        for _ in 0..<fullGroups {
            let a = value(text[at]), b = value(text[at + 1]), c = value(text[at + 2]), d = value(text[at + 3])
            guard (a | b | c | d) < 64 else { return nil }
            let bits = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            output.append(UInt8(truncatingIfNeeded: bits >> 16))
            output.append(UInt8(truncatingIfNeeded: bits >> 8))
            output.append(UInt8(truncatingIfNeeded: bits))
            at += 4
        }
        if tail >= 2 {
            let a = value(text[at]), b = value(text[at + 1])
            let c = tail == 3 ? value(text[at + 2]) : 0
            guard (a | b | c) < 64 else { return nil }
            let bits = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
            output.append(UInt8(truncatingIfNeeded: bits >> 16))
            if tail == 3 { output.append(UInt8(truncatingIfNeeded: bits >> 8)) }
        }
        return output
    }

    /// The 6-bit value of a base64 character, or 0xFF.
    private static func value(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return 0xFF
        }
    }
}

/// Canonical UUID text for `uuid` attributes: 8-4-4-4-12 hexadecimal digits in any case,
/// with hyphens; no braces, no `urn:uuid:`, no other form.
enum UUIDText {
    /// The lowercase form, or nil if `text` is not a canonical UUID.
    static func lowercased(_ text: UnsafeRawBufferPointer) -> String? {
        guard text.count == 36 else { return nil }
        for index in 0..<36 {
            let byte = text[index]
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                let lower = byte | 0x20
                guard NumberText.isDigit(byte) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f")) else {
                    return nil
                }
            }
        }
        return String(unsafeUninitializedCapacity: 36) { buffer in
            for index in 0..<36 {
                let byte = text[index]
                // Digits and '-' are unchanged by setting 0x20; letters become lowercase.
                buffer[index] = byte | 0x20
            }
            return 36
        }
    }

    /// The 16 bytes of a UUID in the form `lowercased` returns.
    static func bytes(ofLowercased text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for byte in text.utf8 where byte != UInt8(ascii: "-") {
            let digit = NumberText.isDigit(byte) ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "a") + 10
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return bytes
    }
}
