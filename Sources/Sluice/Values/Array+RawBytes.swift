extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws a `SluiceError`, rethrown as one (the
    /// standard library's rethrows untyped).
    func withRawBytes(_ body: (UnsafeRawBufferPointer) throws(SluiceError) -> Void) throws(SluiceError) {
        var failure: SluiceError?
        withUnsafeBytes { bytes in
            do throws(SluiceError) { try body(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
