extension RecordAssembler: EventAssembler {
    /// A record is open from its `{`: any of them may still be rejected when it completes.
    var isInRejectableRecord: Bool { records.count > 0 }

    /// The sink numbers the record; a nested one is linked to its parent by that number.
    mutating func handOverCompleted(to sink: any RecordSink) throws(SluiceError) -> SluiceError.Reason? {
        attach(try withCompleted { record throws(SluiceError) in try sink.accept(record) })
        return nil
    }

    static func reject(_ error: SluiceError, entity: Int, record: [UInt8]?, to sink: any RecordSink)
        throws(SluiceError)
    {
        try sink.reject(error, entity: entity, record: record)
    }
}
