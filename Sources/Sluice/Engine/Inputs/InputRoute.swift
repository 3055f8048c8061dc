/// Where an input's records go, chosen by its names before it is parsed (`ImportTarget.route`):
/// the mapping plan, where its top-level values stand among the plan's record locations, and
/// the table of rows its values are, if they are one.
struct InputRoute {
    /// The mapping of an input whose records are all one entity's
    /// (`Importer.importFile(_:entity:path:)`); nil for the import's own.
    var plan: MappingPlan?
    /// Where the input's top-level values stand (`RecordStart`).
    var start: RecordStart = .location(MappingPlan.rootLocation)
    /// A JSON input's records are rows of a table at this key path, named by its header
    /// (the model's `root` table), which `TabularRows` makes objects of; nil when they are objects.
    var table: (path: [String], header: TabularHeader)?

    /// The import's own plan, from the top of its locations.
    static let own = InputRoute()
}
