/// Runs the hooks of `ImportOptions.hooks` (`EntityHooks`) between the record assembler and the
/// batch writer, on the importing thread. Only an import with hooks has one, so an import
/// without pays nothing for them.
///
/// `didImport` needs the row's pk, which exists once the writer thread has written the batch:
/// the writer keeps each written batch's pks (`BatchWriter.collectsPKs`), and this sink, on
/// the importing thread, calls `didImport` for the records of every batch that has come back,
/// in input order, each time a batch is handed over and at `finish()`.
final class HookedSink: RecordSink {
    let writer: BatchWriter
    /// Hooks per storage entity and entity name (a family member's own name), resolved once.
    private let hooks: [String: EntityHooks]
    private let model: Model
    private var resolved: [String: EntityHooks?] = [:]
    /// Per storage entity: its attribute names (shared by its records), and its hooks when it
    /// is not a family (whose records' hooks depend on their `"entity"`).
    private var names: [[String]]
    private var plainHooks: [EntityHooks?]
    private var isFamily: [Bool]
    /// Per storage entity: the relationships read raw for their custom import
    /// (`MappingPlan.EntityPlan.rawLinks`); their values follow the attributes'.
    private let rawLinks: [[Int]]
    /// The current input's name, for messages.
    var source = ""
    /// Records waiting for `didImport`, in input order, and how many of them each handed-over
    /// batch holds (cumulative counts into `waiting`).
    private var waiting: [(hooks: EntityHooks, record: ImportedRecord, handle: RecordHandle)] = []
    private var boundaries: [Int] = []
    private var seenHandOvers = 0
    /// Records skipped by `shouldImport`, per storage entity.
    private(set) var skipped: [Int]
    /// A hook's error in a record nested in the top-level record being assembled: that
    /// top-level record is rejected with it when it arrives, and the records nested in it
    /// are not imported (the unit of rejection is the top-level record).
    private var nestedFailure: SluiceError?
    /// How many of `waiting`'s last entries are records nested in the open top-level record.
    private var waitingNested = 0

    /// `values`: how the layout names a family row's entity (its name, or Core Data's number).
    init(writer: BatchWriter, model: Model, hooks: [String: EntityHooks], values: StoreValues = .sluice) {
        entityNames = Dictionary((values.entity.numbers ?? [:]).map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        self.writer = writer
        self.model = model
        self.hooks = hooks
        skipped = Array(repeating: 0, count: writer.plans.count)
        names = writer.plans.map { $0.attributes.map(\.name) }
        isFamily = names.map { $0.first == Model.entityColumn }
        rawLinks = writer.plans.map(\.rawLinks)
        plainHooks = writer.plans.map { plan in
            model.lineage(of: plan.name).lazy.compactMap { hooks[$0.name] }.first
        }
        writer.collectsPKs = hooks.values.contains { $0.didImport != nil }
    }

    /// Hooks must name entities of the model and their attributes (inherited included): a
    /// misspelt name would silently never run.
    static func validate(_ hooks: [String: EntityHooks], model: Model) throws(SluiceError) {
        for (entity, hooks) in hooks.sorted(by: { $0.key < $1.key }) {
            guard model.entity(named: entity) != nil else {
                throw SluiceError(.usage, "hooks for \(ModelProblem.quote(entity)): "
                                    + NameSuggestion.unknownEntity(entity, entities: model.entities.map(\.name)))
            }
            let attributes = model.inheritedAttributes(of: entity).map(\.name)
            for name in hooks.attributes.keys.sorted() where !attributes.contains(name) {
                throw SluiceError(.usage, "hooks for \(entity): \(ModelProblem.quote(name)) is not an attribute of \(entity)"
                                    + NameSuggestion.didYouMean(name, among: attributes))
            }
            let relationships = model.inheritedRelationships(of: entity).map(\.name)
            for name in hooks.relationships.keys.sorted() where !relationships.contains(name) {
                throw SluiceError(.usage, "hooks for \(entity): \(ModelProblem.quote(name)) is not a relationship of \(entity)"
                                    + NameSuggestion.didYouMean(name, among: relationships))
            }
        }
    }

    /// The relationships whose custom import runs, as `Entity.relationship` for every entity
    /// whose records use those hooks (its own, else its nearest ancestor's): the plan reads
    /// them raw.
    static func rawRelationships(_ hooks: [String: EntityHooks], model: Model) -> Set<String> {
        guard hooks.values.contains(where: { !$0.relationships.isEmpty }) else { return [] }
        var result: Set<String> = []
        for entity in model.entities {
            guard let found = model.lineage(of: entity.name).lazy.compactMap({ hooks[$0.name] }).first else { continue }
            for name in found.relationships.keys { result.insert("\(entity.name).\(name)") }
        }
        return result
    }

    /// The model entities whose attributes have a custom import: the plan reads them raw.
    static func rawAttributes(_ hooks: [String: EntityHooks]) -> Set<String> {
        Set(hooks.flatMap { entity, hooks in hooks.attributes.keys.map { "\(entity).\($0)" } })
    }

    func accept(_ record: borrowing Record) throws(SluiceError) -> RecordHandle {
        if let failure = nestedFailure {
            guard record.isTopLevel else { return .notImported }
            nestedFailure = nil
            try rejectTopLevel(failure, entity: record.entity, record: Self.text(of: record, names: names[record.entity]))
            return .notImported
        }
        let handle = try acceptHooked(record)
        if record.isTopLevel { waitingNested = 0 }
        return handle
    }

    private func acceptHooked(_ record: borrowing Record) throws(SluiceError) -> RecordHandle {
        let storage = record.entity
        let entity: String
        let found: EntityHooks?
        if isFamily[storage] {
            entity = entityName(of: record, storage: writer.plans[storage])
            found = hooks(for: entity)
        } else {
            entity = writer.plans[storage].name
            found = plainHooks[storage]
        }
        let columns = names[storage].count
        guard let hooks = found else {
            if record.valueCount == columns { return try forward(record) }
            // The raw values of another family member's relationship imports: not columns.
            let imported = ImportedRecord(entity: entity, names: names[storage], slots: (0..<columns).map { record.value($0) },
                                          source: source, position: record.position)
            return try forward(imported, like: record, links: record.links)
        }
        var imported = ImportedRecord(entity: entity, names: names[storage],
                                      slots: (0..<columns).map { record.value($0) },
                                      source: source, position: record.position)
        var links = record.links
        do {
            for (offset, relationship) in rawLinks[storage].enumerated() {
                // The raw value as JSON text; a null is a null cell. Missing: no call.
                guard let raw = record.value(columns + offset) else { continue }
                let plan = writer.plans[storage].relationships[relationship]
                guard let convert = hooks.relationships[plan.name] else { continue }
                links[relationship] = try Self.run(entity, "\(plan.name) import") {
                    let value = if case .text(let text) = raw { try JSONValue.parse(Array(text.utf8), sourceName: plan.name) }
                                else { JSONValue.null }
                    return try Self.link(try convert(value), plan)
                }
            }
            for (name, convert) in hooks.attributes {
                guard case .text(let text)? = imported[name] else { continue }
                imported[name] = try Self.run(entity, "\(name) import") {
                    try convert(try JSONValue.parse(Array(text.utf8), sourceName: name))
                }
            }
            if let shouldImport = hooks.shouldImport {
                guard try Self.run(entity, "shouldImport", { try shouldImport(imported) }) else {
                    skipped[record.entity] += 1
                    return .notImported
                }
            }
            if let willImport = hooks.willImport {
                try Self.run(entity, "willImport") { try willImport(&imported) }
            }
        } catch {
            let located = SluiceError(.data, error.message, in: imported.source, at: imported.position)
            if record.isTopLevel {
                try rejectTopLevel(located, entity: record.entity, record: Array(Self.json(imported.values).utf8))
            } else {
                nestedFailure = located
            }
            return .notImported
        }
        let handle = try forward(imported, like: record, links: links)
        if hooks.didImport != nil {
            waiting.append((hooks, imported, handle))
            if !record.isTopLevel { waitingNested += 1 }
        }
        try callDidImport()
        return handle
    }

    /// The stream rejects a top-level record: one rejection for it, even when a hook had
    /// failed in a record nested in it too.
    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) throws(SluiceError) {
        nestedFailure = nil
        try rejectTopLevel(error, entity: entity, record: record)
    }

    /// Rejects a top-level record and drops the records nested in it, from the batch and from
    /// the records waiting for `didImport`.
    private func rejectTopLevel(_ error: SluiceError, entity: Int, record: [UInt8]?) throws(SluiceError) {
        waiting.removeLast(waitingNested)
        waitingNested = 0
        try writer.reject(error, entity: entity, record: record)
    }

    /// Writes what is left, then calls `didImport` for every record still waiting, and adds the
    /// skipped records to the counts.
    func finish() throws(SluiceError) {
        try writer.finish()
        try callDidImport(finishing: true)
        for (entity, count) in skipped.enumerated() {
            writer.updateCounts(of: entity) { $0.skipped += count }
            skipped[entity] = 0
        }
    }

    // MARK: Records

    private func forward(_ record: borrowing Record) throws(SluiceError) -> RecordHandle {
        let handle = try writer.accept(record)
        try callDidImport()
        return handle
    }

    /// Hands the writer a record made of `imported`'s values (what the hooks left), with
    /// `links` and the place of `original`.
    private func forward(_ imported: ImportedRecord, like original: borrowing Record, links: [Link?]) throws(SluiceError)
        -> RecordHandle
    {
        var bytes: [UInt8] = []
        let cells = imported.slots.map { Cell($0, in: &bytes) }
        var record = Record()
        record.entity = original.entity
        record.links = links
        record.position = original.position
        record.isTopLevel = original.isTopLevel
        var outcome: Result<RecordHandle, SluiceError>!
        cells.withUnsafeBufferPointer { cells in
            bytes.withUnsafeBytes { bytes in
                record.lend(values: cells)
                record.lend(bytes: bytes)
                outcome = Result { () throws(SluiceError) in try writer.accept(record) }
            }
        }
        return try outcome.get()
    }

    /// Calls `didImport` for the records of the batches written so far, in input order.
    private func callDidImport(finishing: Bool = false) throws(SluiceError) {
        guard writer.collectsPKs else { return }
        while seenHandOvers < writer.handOvers {
            seenHandOvers += 1
            boundaries.append(waiting.count)
        }
        let written = writer.takeWritten()
        if finishing && written.count > boundaries.count { boundaries.append(waiting.count) }
        var done = 0
        for pks in written {
            let end = boundaries.removeFirst()
            for (hooks, record, handle) in waiting[done..<end] where handle.entity >= 0 {
                let pk = pks[handle.entity][handle.index]
                do {
                    try Self.run(record.entity, "didImport") { try hooks.didImport?(record, pk) }
                } catch {
                    try reject(error, record, entity: handle.entity)
                }
            }
            done = end
        }
        waiting.removeFirst(done)
        boundaries = boundaries.map { $0 - done }
    }

    // MARK: Hooks

    /// A relationship import's result as the link the record would have had from the input.
    private static func link(_ result: RelationshipImport, _ plan: MappingPlan.RelationshipPlan) throws(ConversionError)
        -> Link?
    {
        switch result {
        case .unchanged: return nil
        case .clear: return .clear
        case .ids(let ids):
            var targets: [LinkTarget] = []
            for id in ids where id != .null {
                if case .array = id { throw ConversionError("an id must be a scalar, got an array") }
                if case .object = id { throw ConversionError("an id must be a scalar, got an object") }
                guard let (_, converter) = plan.relatedBy else {
                    throw ConversionError("an id needs relatedBy: \(plan.relatedByName) has no single identity attribute")
                }
                do {
                    targets.append(.key(try converter.convert(id)))
                } catch {
                    throw ConversionError("\(error.message) (\(plan.relatedByName))")
                }
            }
            if plan.toMany { return .many(targets) }
            guard targets.count <= 1 else { throw ConversionError("a to-one takes one id, got \(targets.count)") }
            return targets.first.map { .one($0) } ?? .clear
        }
    }

    /// A family member's own name is in its `"entity"` column, or its number (Core Data's `Z_ENT`).
    private func entityName(of record: borrowing Record, storage: MappingPlan.EntityPlan) -> String {
        guard storage.attributes.first?.name == Model.entityColumn else { return storage.name }
        switch record.value(0) {
        case .text(let name)?: return name
        case .integer(let number)?: return entityNames[number] ?? storage.name
        default: return storage.name
        }
    }

    /// Each entity by its number in a family's entity column, where the layout numbers them.
    private let entityNames: [Int64: String]

    /// An entity's hooks, else its nearest ancestor's.
    private func hooks(for entity: String) -> EntityHooks? {
        if let known = resolved[entity] { return known }
        let found = model.lineage(of: entity).lazy.compactMap { self.hooks[$0.name] }.first
        resolved[entity] = found
        return found
    }

    /// Runs a hook; what it throws becomes a record error naming the hook (`Stop willImport`,
    /// `Stop.code import`), whose name is only built then.
    private static func run<Result>(_ entity: String, _ hook: String, _ body: () throws -> Result) throws(SluiceError)
        -> Result
    {
        do {
            return try body()
        } catch {
            let separator = hook.hasSuffix(" import") ? "." : " "
            let reason = (error as? SluiceError)?.message ?? "\(error)"
            throw SluiceError(.data, "\(entity)\(separator)\(hook): \(reason)")
        }
    }

    /// A `didImport` hook's error is the record's: it stops the import, or (`--on-error skip`)
    /// the record is counted as rejected, with its values as the hooks saw them as its text in
    /// `--rejects` (its row is written by then; see `docs/library.md`).
    private func reject(_ error: SluiceError, _ record: ImportedRecord, entity: Int) throws(SluiceError) {
        let located = SluiceError(.data, error.message, in: record.source, at: record.position)
        try writer.reject(located, entity: entity, record: Array(Self.json(record.values).utf8), droppingNested: false)
    }

    /// A record's values as JSON text, for `--rejects`.
    private static func text(of record: borrowing Record, names: [String]) -> [UInt8] {
        var values: [String: ColumnValue] = [:]
        for (index, name) in names.enumerated() where index < record.valueCount {
            if let value = record.value(index) { values[name] = value }
        }
        return Array(json(values).utf8)
    }

    private static func json(_ values: [String: ColumnValue]) -> String {
        let members = values.sorted { $0.key < $1.key }.map { name, value -> String in
            let text: String
            switch value {
            case .null: text = "null"
            case .integer(let number): text = String(number)
            case .real(let number): text = String(number)
            case .text(let string): text = quoted(string)
            case .blob(let bytes): text = quoted("\(bytes.count) bytes")
            }
            return "\(quoted(name)):\(text)"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String) -> String {
        var result = ""
        ModelWriter.appendQuoted(text, to: &result)
        return result
    }
}
