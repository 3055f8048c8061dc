/// Where an import's records go (`Importer`): the model's entities through the batch writer
/// (`ModelTarget`), or one zero-config table (`FreeformTarget`). The importer reads inputs,
/// reports progress and commits; what differs between the two is here, behind these calls.
protocol ImportTarget: AnyObject {
    /// Where the records of the input named `fileNames` (`InputNames.fileNames`), of `format`,
    /// go: chosen by its names before it is parsed. `oneEntity`: the mapping and key path of an
    /// input whose records are one entity's (`Importer.importFile(_:entity:path:)`). Nil when
    /// nothing says which entity a CSV input's rows are.
    func route(forInput fileNames: [String], format: InputFormat, oneEntity: (plan: MappingPlan, path: [String])?)
        -> InputRoute?
    /// The handler of the next input's events; `source` names it, `input` numbers it, `route`
    /// says where its records go.
    func stream(for source: String, input: Int, route: InputRoute) throws(SluiceError) -> any RecordEventHandler
    /// The mapping of an input whose records are all of `entity`, at `path` inside it
    /// (`Importer.importFile(_:entity:path:)`), and that path's keys; a usage error without a model.
    func plan(forEntity entity: String, path: String?) throws(SluiceError) -> (plan: MappingPlan, path: [String])
    /// An input was read to its end through `stream`, `records` of them its own; `head`: a JSON
    /// input's first bytes (`InputShape.headLimit`), for notes on records not found.
    func inputEnded(_ name: String, stream: any RecordEventHandler, records: Int, head: [UInt8]?)
    /// Zero-config: the table the next inputs go to (an entry of a zip archive, by its file
    /// name), or nil for the import's own; a model's entities say where records go instead.
    func selectTable(named name: String?) throws(SluiceError)
    /// Writes what is left after the last input: the last batch, the second pass, the deferred
    /// indexes, `--delete-missing`. `enter` begins a stage of `finish()`; `update` reports
    /// progress within it. Returns the first unresolved references, described for the report.
    func finish(sources: [String], enter: (ImportProgress.Stage) -> Void, update: (ImportProgress.Stage) -> Void)
        throws(SluiceError) -> [String]
    /// What each entity (or the one table) counted so far.
    var counts: [ImportReport.EntityCounts] { get }
    /// The target's own notes for the report.
    var notes: [String] { get }
    /// Whether the tables the import created and left empty are dropped again (a model's).
    var dropsTablesLeftEmpty: Bool { get }
    /// Stops writing (the batch writer's thread); returns the error of a batch that failed
    /// before, which comes before any later one.
    @discardableResult
    func close() -> SluiceError?
}
