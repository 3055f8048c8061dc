/// A slow, in-memory model of SPEC sections 2–4 for the models `ModelGenerator` makes: it
/// applies the records one after the other to rows held in arrays, and says which top-level
/// records are rejected, whether the import fails, and what every table holds afterwards.
/// It shares nothing with the engine.
struct Oracle {
    enum Link: Equatable {
        case none
        case row(Int)
        /// A bare id, linked (or not) when the import ends.
        case pending(OracleValue)
    }

    struct Row {
        var values: [String: OracleValue]
        /// The entity's child the row is (its `entity` column), nil for the entity itself.
        var child: Int? = nil
        var toOne: [String: Link] = [:]
        var joins: [String: [Link]] = [:]
        /// An ordered to-many's places, beside `joins`.
        var places: [String: [Int]] = [:]
        /// A child's place in its parent's ordered list, per inverse to-one.
        var toOnePlaces: [String: Int] = [:]
    }

    /// A top-level record, where it starts in the input, and its entity.
    struct TopLevelRecord {
        var value: PropertyJSON
        var entity: Int
        var line: Int
        /// A member of an object used as a map: its name is the value of an attribute.
        var mapped: MapMember?
    }

    struct MapMember {
        var attribute: String
        var name: String
    }

    struct Outcome {
        var rejectedLines: [Int] = []
        /// How many of the rejected records hold nested records.
        var nestedRejections = 0
        /// How many records updated a row that an earlier record of this import had written.
        var repeatedIdentities = 0
        /// Why the import fails, if it does.
        var failure: String?
    }

    let model: PropertyModel
    private(set) var rows: [[Row]]
    /// The rows this import has written so far, per entity.
    private var touched: [Set<Int>]
    private var repeatedIdentities = 0

    init(model: PropertyModel) {
        self.model = model
        rows = Array(repeating: [], count: model.entities.count)
        touched = Array(repeating: [], count: model.entities.count)
    }

    /// Whether a relationship of the record holds an object (a nested record).
    private func holdsNestedRecords(_ value: PropertyJSON, entity: Int) -> Bool {
        model.entities[entity].relationships.contains { relationship in
            switch value.member(relationship.lookupKey) {
            case .object: return true
            case .array(let items): return items.contains { if case .object = $0 { true } else { false } }
            default: return false
            }
        }
    }

    /// One import. With `abort`, the first record error fails it and `self` is left as it was.
    mutating func importRecords(_ records: [TopLevelRecord], abort: Bool) -> Outcome {
        let before = self
        var outcome = Outcome()
        for record in records {
            do {
                let assembled = try assemble(record.value, entity: record.entity, mapped: record.mapped)
                _ = apply(assembled)
            } catch {
                if abort {
                    self = before
                    return Outcome(rejectedLines: [record.line], failure: error.reason)
                }
                outcome.rejectedLines.append(record.line)
                if holdsNestedRecords(record.value, entity: record.entity) { outcome.nestedRejections += 1 }
            }
        }
        outcome.repeatedIdentities = repeatedIdentities
        touched = Array(repeating: [], count: model.entities.count)
        repeatedIdentities = 0
        if let failure = resolvePendingLinks() {
            self = before
            outcome.failure = failure
        }
        return outcome
    }

    // MARK: Assembling a record (every error is found before anything is applied)

    struct RecordError: Error {
        var reason: String
        var nested = false
    }

    indirect enum RelationshipValue {
        case null
        case nested(Assembled)
        case id(OracleValue)
        case many([RelationshipValue])
    }

    struct Assembled {
        var entity: Int
        /// The child `entityBy` chose, whose attributes `values` holds too.
        var child: Int?
        var values: [String: OracleValue]
        /// The identity's attribute values (nil: one is missing); a to-one part is the parent's
        /// row, known when the record is applied.
        var identity: [OracleValue]?
        /// In the order of their keys in the record.
        var relationships: [(PropertyModel.Relationship, RelationshipValue)]
    }

    private func assemble(_ value: PropertyJSON, entity index: Int, mapped: MapMember? = nil) throws(RecordError) -> Assembled {
        let entity = model.entities[index]
        guard case .object(let members) = value else { throw RecordError(reason: "\(entity.name): not an object") }
        // `entityBy`: the kind as text names a child, or the record stays as placed.
        let child: Int?
        switch value.member(PropertyModel.Entity.kindKey) {
        case .string(let text)?, .number(let text)?:
            child = PropertyModel.Entity.kindValues.prefix(entity.children.count).firstIndex(of: text)
        default: child = nil
        }
        var values: [String: OracleValue] = [:]
        for attribute in entity.attributes + (child.map { entity.children[$0].attributes } ?? []) {
            // A map's member name wins over the record's own key.
            let named: PropertyJSON? = mapped?.attribute == attribute.name ? .string(mapped!.name) : nil
            guard let found = named ?? attribute.lookupKeys.lazy.compactMap({ value.value(atPath: $0) }).first else {
                if !attribute.optional && attribute.defaultValue == nil {
                    throw RecordError(reason: "\(entity.name).\(attribute.name): required, missing")
                }
                continue
            }
            if case .null = found, !attribute.optional {
                throw RecordError(reason: "\(entity.name).\(attribute.name): required, null")
            }
            guard let converted = OracleConversion.convert(found, for: attribute) else {
                throw RecordError(reason: "\(entity.name).\(attribute.name): does not convert")
            }
            values[attribute.name] = converted
        }
        let identityValues = entity.identity.compactMap { entity.attribute($0) == nil ? nil : values[$0] ?? .null }
        let identity = entity.identity.isEmpty || identityValues.contains(.null) ? nil : identityValues

        var relationships: [(PropertyModel.Relationship, RelationshipValue, Int)] = []
        for relationship in entity.relationships where !relationship.isInverseSide {
            guard let position = members.firstIndex(where: { $0.0 == relationship.lookupKey }) else { continue }
            let found = members[position].1
            let target = relationship.target
            let converted: RelationshipValue
            switch found {
            case .null: converted = .null
            case .object(let members) where relationship.map != nil:
                var items: [RelationshipValue] = []
                for (name, member) in members where member != .null {
                    guard case .object = member else { throw RecordError(reason: "\(relationship.name): a map member not an object") }
                    do {
                        items.append(.nested(try assemble(member, entity: target, mapped: MapMember(attribute: relationship.map!, name: name))))
                    } catch {
                        throw RecordError(reason: error.reason, nested: true)
                    }
                }
                converted = .many(items)
            case .array(let items):
                guard relationship.toMany else { throw RecordError(reason: "\(relationship.name): an array for a to-one") }
                var elements: [RelationshipValue] = []
                for (place, item) in items.enumerated() where item != .null {
                    // Every element counts for a position, nulls too.
                    elements.append(try element(item, target: target, place: relationship.position.map { MapMember(attribute: $0, name: String(place)) }))
                }
                converted = .many(elements)
            default:
                let single = try element(found, target: target, place: relationship.position.map { MapMember(attribute: $0, name: "0") })
                converted = relationship.toMany ? .many([single]) : single
            }
            relationships.append((relationship, converted, position))
        }
        relationships.sort { $0.2 < $1.2 }
        return Assembled(entity: index, child: child, values: values, identity: identity,
                         relationships: relationships.map { ($0.0, $0.1) })
    }

    private func element(_ value: PropertyJSON, target: Int, place: MapMember? = nil) throws(RecordError) -> RelationshipValue {
        switch value {
        case .object:
            do {
                return .nested(try assemble(value, entity: target, mapped: place))
            } catch {
                throw RecordError(reason: error.reason, nested: true)
            }
        case .array, .null: throw RecordError(reason: "an array inside a relationship's array")
        default:
            guard let relatedBy = model.entities[target].relatedBy,
                  let id = OracleConversion.convert(value, for: relatedBy)
            else { throw RecordError(reason: "an id that does not convert") }
            return .id(id)
        }
    }

    // MARK: Applying a record

    /// The row of `entity` whose identity is `identity` (attribute values, and for a to-one
    /// part the row it links to), found among the rows as they are now.
    private func row(_ entity: Int, identity: [OracleValue]) -> Int? {
        let names = model.entities[entity].identity
        return rows[entity].indices.first { index in
            var values = identity[...]
            for name in names {
                let expected = values.removeFirst()
                if model.entities[entity].attribute(name) != nil {
                    if rows[entity][index].values[name] != expected { return false }
                } else if case .integer(let parent) = expected, rows[entity][index].toOne[name] == .row(Int(parent)) {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// The identity of a record applied under `parent` (the to-one and the parent's row), in
    /// the identity's order; nil when a part is missing.
    private func identity(_ record: Assembled, parent: (toOne: String, row: Int)?) -> [OracleValue]? {
        guard var values = record.identity?[...] else { return nil }
        var identity: [OracleValue] = []
        for name in model.entities[record.entity].identity {
            if model.entities[record.entity].attribute(name) != nil {
                identity.append(values.removeFirst())
            } else if let parent, parent.toOne == name {
                identity.append(.integer(Int64(parent.row)))
            } else {
                return nil
            }
        }
        return identity
    }

    private mutating func apply(_ record: Assembled, parent: (toOne: String, row: Int)? = nil) -> Int {
        let entity = model.entities[record.entity]
        let index: Int
        let identity = identity(record, parent: parent)
        if let identity, let existing = row(record.entity, identity: identity) {
            index = existing
            if touched[record.entity].contains(index) {
                repeatedIdentities += 1
            }
            // Columns the record's entity does not have (another child's) keep their values.
            for attribute in entity.attributes + (record.child.map { entity.children[$0].attributes } ?? []) {
                if let value = record.values[attribute.name] {
                    rows[record.entity][index].values[attribute.name] = value
                } else if attribute.defaultWhenMissing {
                    rows[record.entity][index].values[attribute.name] = defaultValue(attribute)
                }
            }
        } else {
            var values: [String: OracleValue] = [:]
            for attribute in entity.storedAttributes {
                values[attribute.name] = record.values[attribute.name] ?? defaultValue(attribute)
            }
            index = rows[record.entity].count
            rows[record.entity].append(Row(values: values))
            if let parent { rows[record.entity][index].toOne[parent.toOne] = .row(parent.row) }
        }
        rows[record.entity][index].child = record.child
        touched[record.entity].insert(index)
        for (relationship, value) in record.relationships {
            link(record.entity, index, relationship, value)
        }
        return index
    }

    private func defaultValue(_ attribute: PropertyModel.Attribute) -> OracleValue {
        attribute.defaultValue.flatMap { OracleConversion.convert($0, for: attribute) } ?? .null
    }

    private mutating func link(_ entity: Int, _ index: Int, _ relationship: PropertyModel.Relationship,
                               _ value: RelationshipValue)
    {
        let target = relationship.target
        if let inverse = relationship.inverse {
            // Stored in the children's to-one: the listed children point here; under replace
            // (and for null) the others that pointed here no longer do.
            var listed: [Int] = []
            var places: [Int] = []
            // `merge: add` places new links after the parent's largest place (docs/model.md,
            // ordered relationships); a child linked here already keeps its place.
            let base = relationship.replace ? 0
                : (rows[target].compactMap { $0.toOne[inverse] == .row(index) ? $0.toOnePlaces[inverse] : nil }.max() ?? -1) + 1
            var kept = Set<Int>()
            if !relationship.replace {
                for child in rows[target].indices where rows[target][child].toOne[inverse] == .row(index) { kept.insert(child) }
            }
            if case .many(let items) = value {
                for (place, item) in items.enumerated() {
                    guard case .nested(let child) = item else { continue }
                    let row = apply(child, parent: (inverse, index))
                    // A target listed twice keeps its first place.
                    if !listed.contains(row) { listed.append(row); places.append(place) }
                }
            }
            let clearOthers: Bool
            if case .null = value { clearOthers = true } else { clearOthers = relationship.replace }
            if clearOthers {
                for child in rows[target].indices where rows[target][child].toOne[inverse] == .row(index) && !listed.contains(child) {
                    rows[target][child].toOne[inverse] = Link.none
                    rows[target][child].toOnePlaces[inverse] = nil
                }
            }
            for (child, place) in zip(listed, places) {
                if kept.contains(child), rows[target][child].toOne[inverse] == .row(index) { continue }
                rows[target][child].toOne[inverse] = .row(index)
                if relationship.ordered { rows[target][child].toOnePlaces[inverse] = base + place }
            }
            return
        }
        func resolve(_ item: RelationshipValue) -> Link {
            switch item {
            case .nested(let child): return .row(apply(child))
            case .id(let id): return .pending(id)
            case .null, .many: return .none
            }
        }
        if !relationship.toMany {
            rows[entity][index].toOne[relationship.name] = resolve(value)
            return
        }
        guard case .many(let items) = value else {
            rows[entity][index].joins[relationship.name] = []
            rows[entity][index].places[relationship.name] = []
            return
        }
        var links = relationship.replace ? [] : rows[entity][index].joins[relationship.name, default: []]
        var places = relationship.replace ? [] : rows[entity][index].places[relationship.name, default: []]
        // `merge: add` places new links after the largest place (docs/model.md, ordered
        // relationships); a link already there keeps its place.
        let base = (places.max() ?? -1) + 1
        for (place, item) in items.enumerated() {
            let link = resolve(item)
            if !links.contains(link) { links.append(link); places.append(base + place) }
        }
        rows[entity][index].joins[relationship.name] = links
        rows[entity][index].places[relationship.name] = places
    }

    // MARK: The second pass

    /// Links every bare id to its row, or follows `unresolved`; returns why the import fails.
    private mutating func resolvePendingLinks() -> String? {
        for (entityIndex, entity) in model.entities.enumerated() {
            for relationship in entity.relationships where relationship.inverse == nil {
                for rowIndex in rows[entityIndex].indices {
                    if relationship.toMany {
                        var links: [Link] = []
                        var places: [Int] = []
                        let oldPlaces = rows[entityIndex][rowIndex].places[relationship.name, default: []]
                        for (number, link) in rows[entityIndex][rowIndex].joins[relationship.name, default: []].enumerated() {
                            let place = number < oldPlaces.count ? oldPlaces[number] : number
                            var resolved = link
                            if case .pending(let id) = link {
                                switch target(relationship, id) {
                                case .failure(let failure): return failure.reason
                                case .success(nil): continue
                                case .success(let row?): resolved = .row(row)
                                }
                            }
                            // A target listed twice keeps its first place.
                            if let earlier = links.firstIndex(of: resolved) {
                                places[earlier] = min(places[earlier], place)
                            } else {
                                links.append(resolved)
                                places.append(place)
                            }
                        }
                        rows[entityIndex][rowIndex].joins[relationship.name] = links
                        rows[entityIndex][rowIndex].places[relationship.name] = places
                    } else if case .pending(let id) = rows[entityIndex][rowIndex].toOne[relationship.name] {
                        switch target(relationship, id) {
                        case .failure(let failure): return failure.reason
                        case .success(let row): rows[entityIndex][rowIndex].toOne[relationship.name] = row.map { .row($0) } ?? Link.none
                        }
                    }
                }
            }
        }
        return nil
    }

    struct Failure: Error { var reason: String }

    /// The row an id names, a stub made for it, or nil (left unlinked).
    private mutating func target(_ relationship: PropertyModel.Relationship, _ id: OracleValue) -> Result<Int?, Failure> {
        if let row = row(relationship.target, identity: [id]) { return .success(row) }
        switch relationship.unresolved {
        case .null: return .success(nil)
        case .fail: return .failure(Failure(reason: "unresolved \(relationship.name) \(id.rendered)"))
        case .stub:
            let entity = model.entities[relationship.target]
            var values = Dictionary(uniqueKeysWithValues: entity.storedAttributes.map { ($0.name, OracleValue.null) })
            values[entity.identity[0]] = id
            rows[relationship.target].append(Row(values: values))
            return .success(rows[relationship.target].count - 1)
        }
    }

    // MARK: What the tables hold

    /// Per table (join tables too), its rows as sorted text: attribute values, and each link as
    /// the linked row's attribute values (pks differ between the engine and the oracle).
    func snapshot() -> [String: [String]] {
        var tables: [String: [String]] = [:]
        for (entityIndex, entity) in model.entities.enumerated() {
            var lines: [String] = []
            for row in rows[entityIndex] {
                var line = content(entityIndex, row)
                for relationship in entity.relationships where !relationship.toMany {
                    line += " | \(relationship.name) -> "
                    if case .row(let target) = row.toOne[relationship.name] ?? Link.none {
                        line += content(relationship.target, rows[relationship.target][target])
                    } else {
                        line += "NULL"
                    }
                    if relationship.isInverseSide, model.entities[relationship.target].relationship(relationship.inverse!)?.ordered == true {
                        line += " @" + (row.toOnePlaces[relationship.name].map(String.init) ?? "NULL")
                    }
                }
                lines.append(line)
                for relationship in entity.relationships where relationship.toMany && relationship.inverse == nil {
                    let places = row.places[relationship.name, default: []]
                    for (number, link) in row.joins[relationship.name, default: []].enumerated() {
                        guard case .row(let target) = link else { continue }
                        let place = relationship.ordered ? " @\(places[number])" : ""
                        tables["\(entity.table)_\(relationship.name)", default: []].append(
                            content(entityIndex, row) + " => " + content(relationship.target, rows[relationship.target][target]) + place)
                    }
                }
            }
            tables[entity.table] = lines
            for relationship in entity.relationships where relationship.toMany && relationship.inverse == nil {
                tables["\(entity.table)_\(relationship.name)", default: []].sort()
            }
        }
        return tables.mapValues { $0.sorted() }
    }

    /// A family's rows name their entity first (the `entity` column).
    func content(_ entity: Int, _ row: Row) -> String {
        let model = model.entities[entity]
        let kind = model.children.isEmpty ? [] : ["entity=" + (row.child.map { model.children[$0].name } ?? model.name)]
        return "(" + (kind + model.storedAttributes.map { "\($0.columnName)=\((row.values[$0.name] ?? .null).rendered)" })
            .joined(separator: ", ") + ")"
    }
}
