extension UnsafeRawBufferPointer {
    /// The bytes without the spaces and tabs at either end: text given to a number, boolean or
    /// date attribute (`docs/import-semantics.md#numbers-booleans-and-dates-written-as-text`), as CSV writers that
    /// pad their columns leave it (`1, 0, 20240101`).
    func trimmingBlanks() -> UnsafeRawBufferPointer {
        var start = 0
        var end = count
        while start < end, self[start] == UInt8(ascii: " ") || self[start] == 0x09 { start += 1 }
        while end > start, self[end - 1] == UInt8(ascii: " ") || self[end - 1] == 0x09 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: self[start..<end])
    }
}
