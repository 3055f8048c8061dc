/// One zero-config table (`docs/cli.md`): one stream for all the inputs, so a key is the same
/// column in every file.
final class FreeformTarget: ImportTarget {
    typealias Table = (name: String, writer: FreeformWriter, stream: FreeformStream)
    /// The import's table, then one per entry of a zip archive (`selectTable`), each made when
    /// its first input comes: an import of archives alone makes no table of its own.
    private var tables: [Table] = []
    /// Each table's index in `tables` by its name in lowercase.
    private var tableIndex: [String: Int] = [:]
    private let table: String
    private var selected: String
    private let makeTable: (String) throws(SluiceError) -> Table

    init(table: String, makeTable: @escaping (String) throws(SluiceError) -> Table) {
        self.table = table
        selected = table
        self.makeTable = makeTable
    }

    /// The import's table `table` over `store`, each table made as its first input comes;
    /// `refusal` says why a table's name cannot be one there (`ImportStores.refusal`).
    convenience init(table: String, store: any ImportStore, options: ImportOptions, rejects: RejectsFile?,
                     refusal: @escaping (String) -> SluiceError?) {
        let path = options.path.map { JSONKeyPath(parsing: $0).keys } ?? []
        self.init(table: table) { table throws(SluiceError) in
            if let refused = refusal(table) { throw refused }
            let writer = try FreeformWriter(table: table, store: store, onError: options.onError, rejects: rejects)
            return (table, writer, FreeformStream(
                table: table, path: path, mapKey: options.mapKey, numbersAsText: writer.storesNumbersAsText, sink: writer,
                capturesRejectedRecords: rejects != nil, maxValueBytes: options.maxValueBytes, maxKeys: writer.maxKeysPerTable,
                columnLimitOwner: writer.columnLimitOwner))
        }
    }

    /// Every input's values are records of the one table, at `--path` inside it.
    func route(forInput _: [String], format _: InputFormat, oneEntity _: (plan: MappingPlan, path: [String])?) -> InputRoute? {
        .own
    }

    func stream(for source: String, input _: Int, route _: InputRoute) throws(SluiceError) -> any RecordEventHandler {
        let current: Table
        // Names that differ only in case are one table, as they are in the database.
        if let found = tableIndex[selected.lowercased()] {
            current = tables[found]
        } else {
            current = try makeTable(selected)
            tableIndex[selected.lowercased()] = tables.count
            tables.append(current)
        }
        current.writer.source = source
        return current.stream
    }

    func plan(forEntity _: String, path _: String?) throws(SluiceError) -> (plan: MappingPlan, path: [String]) {
        throw SluiceError(.usage, "importFile(_:entity:path:) needs a model: a zero-config import writes one table")
    }

    func inputEnded(_: String, stream _: any RecordEventHandler, records _: Int, head _: [UInt8]?) {}

    /// An entry of a zip archive goes to a table of its own, named after its file (`stops.txt`
    /// → `stops`); nil is the import's own table again.
    func selectTable(named name: String?) {
        selected = name ?? table
    }

    func finish(sources _: [String], enter _: (ImportProgress.Stage) -> Void, update _: (ImportProgress.Stage) -> Void)
        throws(SluiceError) -> [String]
    {
        for table in tables { try table.writer.finish() }
        return []
    }

    var counts: [ImportReport.EntityCounts] { tables.map(\.writer.counts) }
    var notes: [String] { tables.flatMap(\.writer.notes) }
    var dropsTablesLeftEmpty: Bool { false }

    func close() -> SluiceError? { nil }
}
