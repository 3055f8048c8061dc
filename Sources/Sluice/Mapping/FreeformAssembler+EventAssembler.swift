extension FreeformAssembler: EventAssembler {
    /// A zero-config record, once begun, is rejected for what is in it (invalid text, a limit).
    var isInRejectableRecord: Bool { isInRecord }

    /// A record the sink cannot take (`FreeformAssembler.tooManyColumns`, a data error with no
    /// position) comes back as the reason to reject it, at the record's place.
    mutating func handOverCompleted(to sink: any FreeformSink) throws(SluiceError) -> SluiceError.Reason? {
        do {
            try sink.accept(completed, columnNames: columnNames)
        } catch where error.kind == .data && error.position == nil {
            return SluiceError.Reason(error.message, at: completed.position, entity: 0)
        }
        return nil
    }

    /// Zero-config records have one table: `entity` is always 0.
    static func reject(_ error: SluiceError, entity: Int, record: [UInt8]?, to sink: any FreeformSink)
        throws(SluiceError)
    {
        try sink.reject(error, record: record)
    }
}
