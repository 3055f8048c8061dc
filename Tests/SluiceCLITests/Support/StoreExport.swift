import Foundation
@testable import Sluice

/// The objects of a real Core Data store as one JSON document Sluice imports with the store's
/// own model: `{"Entity": [{attribute: value, relationship: identity or [identities]}, …], …}`,
/// one top-level key per entity with rows (`--root Entity=Entity`), keyed by the model's
/// attribute and relationship names.
///
/// Values are written so that the stored one comes back: a date as Unix seconds, 978307200
/// plus the stored double added in decimal text (never in binary, which would round it away);
/// binary as base64; a UUID as its canonical text; a boolean as `true`/`false`; a number as the
/// shortest text that reads back as the same double. A link is the target's identity. A
/// transformable attribute is left out: its value is an archive, which an import does not take
/// as bytes (SPEC 11).
///
/// Core Data models rarely name an identity. The export chooses one per table: the root
/// entity's first uniqueness constraint, else its first String, UUID or Integer attribute,
/// whose stored values are all present and distinct (`identities`). A constraint of several
/// attributes is the identity Sluice takes from the model itself, and a link to such a row is
/// the row's attributes as a nested object; a one-attribute identity is written into the
/// model (`modelText`: the `contents` with it as the `relatedByAttribute` of its table's
/// entities and of the relationships to them; userInfo is not part of Core Data's version
/// hashes, so the copy opens the same store), and a link to such a row is its bare value.
struct StoreExport {
    let layout: CoreDataStoreLayout
    let model: CoreDataModel
    /// The identity attributes of each table (by table name) with rows, or of any table where one fits.
    private(set) var identities: [String: [String]] = [:]
    /// Tables with rows but no attribute that can be their identity. Their rows are in
    /// `document`, as new objects, and not in `identifiedDocument`: a second import of them
    /// would add them again. A link to such a row cannot be written (only one from it); the
    /// comparison knows such a row by all its attributes.
    private(set) var unidentified: [String] = []
    /// Every object, under one top-level key per entity with rows (`roots`, in `Z_ENT` order).
    private(set) var document = ""
    private(set) var roots: [String] = []
    /// The objects of the tables with an identity: what an import into the store itself can
    /// give without adding rows.
    private(set) var identifiedDocument = ""
    private(set) var identifiedRoots: [String] = []

    private let connection: Connection
    /// Each entity's `Z_ENT` in this store, from its `Z_PRIMARYKEY`.
    private var numbers: [String: Int64] = [:]
    /// Per table, each row's `Z_PK` → its identity attributes as the export writes them, and a
    /// link to it.
    private var identityOfKey: [String: [Int64: (identity: String, link: String?)]] = [:]

    /// - Parameter identities: the identity of each table (by table name) to use instead of
    ///   choosing one: another export's `identities`, to read a second store of the model alike.
    init(store: String, modelPath: String, identities chosen: [String: [String]] = [:]) throws {
        model = try CoreDataModel.read(path: modelPath)
        let connection = try Connection(path: store, mode: .readOnly)
        let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap(\.first?.text))
        layout = try CoreDataStoreLayout(model, sourceName: modelPath, existingTables: tables)
        self.connection = connection
        defer { connection.close() }
        for row in try connection.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") {
            if case .text(let name) = row[0], case .integer(let number) = row[1] { numbers[name] = number }
        }
        try chooseIdentities(chosen)
        try exportObjects()
    }

    // MARK: Identities

    private mutating func chooseIdentities(_ given: [String: [String]]) throws {
        for table in layout.tables {
            guard let root = entity(table.root) else { continue }
            let rows = try count("SELECT count(*) FROM \(table.name)")
            let constrained = root.uniquenessConstraints.filter { $0.allSatisfy { root.attribute(named: $0) != nil } }
            let typed = root.attributes.filter { attribute in
                let type = attribute.attributeType?.value ?? ""
                return !attribute.isTransient && (type == "String" || type == "UUID" || type.hasPrefix("Integer"))
            }.map { [$0.name] }
            var chosen = given[table.name]
            for names in constrained + typed where chosen == nil {
                let columns = names.compactMap { layout.column(ofAttribute: $0, in: root.name)?.column }
                let present = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                let distinct = try count("SELECT count(*) FROM (SELECT DISTINCT \(columns.joined(separator: ", ")) FROM \(table.name) WHERE \(present))")
                if distinct == rows { chosen = names }
            }
            if let chosen { identities[table.name] = chosen } else if rows > 0 { unidentified.append(table.name) }
            var keys: [Int64: (identity: String, link: String?)] = [:]
            let columns = try columnNames(table.name)
            for row in try connection.rows("SELECT * FROM \(table.name)") {
                guard case .integer(let key) = row[columns.firstIndex(of: "Z_PK")!],
                      case .integer(let number) = row[columns.firstIndex(of: "Z_ENT")!],
                      let entity = numbers.first(where: { $0.value == number })?.key else { continue }
                let fields = attributeFields(of: entity, row: row, columns: columns)
                let object = "{" + fields.map(\.text).joined(separator: ",") + "}"
                guard let chosen else {
                    keys[key] = (object, nil)
                    continue
                }
                let identity = fields.filter { chosen.contains($0.name) }
                keys[key] = chosen.count == 1
                    ? (identity.first?.value ?? "null", identity.first?.value ?? "null")
                    : ("{" + identity.map(\.text).joined(separator: ",") + "}", object)
            }
            identityOfKey[table.name] = keys
        }
    }

    /// The identity of the row `key` of `table`: its identity attributes as exported (all its
    /// attributes where its table has no identity); nil when `key` is NULL.
    func identity(of key: ColumnValue, in table: String) -> String? {
        guard case .integer(let key) = key else { return nil }
        return identityOfKey[table]?[key]?.identity
    }

    /// A link to the row `key` of `table` as the export writes it.
    private func link(to key: ColumnValue, in table: String) -> String? {
        guard case .integer(let key) = key else { return nil }
        return identityOfKey[table]?[key]?.link ?? nil
    }

    /// The model's `contents` with each one-attribute identity as the `relatedByAttribute` of
    /// its table's entities and of every relationship to them.
    func modelText(original: String) -> String {
        var text = original
        for entity in model.entities {
            guard let table = layout.entity(named: entity.name)?.table, let identity = identities[table], identity.count == 1
            else { continue }
            let entry = "<userInfo><entry key=\"relatedByAttribute\" value=\"\(identity[0])\"/></userInfo>"
            text = Self.insert(entry, into: "<entity name=\"\(entity.name)\"", in: text) { _ in true }
            text = Self.insert(entry, into: "<relationship ", in: text) { $0.contains("destinationEntity=\"\(entity.name)\"") }
        }
        return text
    }

    /// `entry` as the first child of each element that starts with `opening` and whose opening
    /// tag `matches`; a self-closing tag is opened and closed around it.
    private static func insert(_ entry: String, into opening: String, in text: String, where matches: (Substring) -> Bool) -> String {
        let element = opening.dropFirst().prefix { $0 != " " }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: opening), let end = rest[start.upperBound...].range(of: ">") {
            let tag = rest[start.lowerBound..<end.upperBound]
            result += rest[..<start.lowerBound]
            if !matches(tag) {
                result += tag
            } else if tag.hasSuffix("/>") {
                result += tag.dropLast(2) + ">" + entry + "</\(element)>"
            } else {
                result += tag + entry
            }
            rest = rest[end.upperBound...]
        }
        return result + rest
    }

    // MARK: Objects

    private mutating func exportObjects() throws {
        var members: [(entity: String, identified: Bool, text: String)] = []
        for described in layout.entities {
            guard let entity = entity(described.name) else { continue }
            let table = described.table
            let columns = try columnNames(table)
            guard let number = numbers[entity.name] else { continue }
            let rows = try connection.rows("SELECT * FROM \(table) WHERE Z_ENT = ? ORDER BY Z_PK", [.integer(number)])
            guard !rows.isEmpty else { continue }
            var objects: [String] = []
            for row in rows {
                objects.append("{" + (try fields(of: entity.name, row: row, columns: columns)).joined(separator: ",") + "}")
            }
            var key = ""
            ModelWriter.appendQuoted(entity.name, to: &key)
            members.append((entity.name, identities[table] != nil, key + ":[\n" + objects.joined(separator: ",\n") + "\n]"))
        }
        roots = members.map(\.entity)
        document = "{\n" + members.map(\.text).joined(separator: ",\n") + "\n}\n"
        let identified = members.filter(\.identified)
        identifiedRoots = identified.map(\.entity)
        identifiedDocument = "{\n" + identified.map(\.text).joined(separator: ",\n") + "\n}\n"
    }

    /// One member of an exported object.
    struct Field {
        var name: String
        var value: String
        var text: String {
            var text = ""
            ModelWriter.appendQuoted(name, to: &text)
            return text + ":" + value
        }
    }

    /// The attributes of a row of `entityName` (its own and inherited), as exported.
    private func attributeFields(of entityName: String, row: [ColumnValue], columns: [String]) -> [Field] {
        lineage(entityName).flatMap { entity in
            entity.attributes.filter { !$0.isTransient }.compactMap { attribute -> Field? in
                guard let column = layout.column(ofAttribute: attribute.name, in: entityName)?.column,
                      let index = columns.firstIndex(of: column),
                      let text = Self.json(row[index], type: attribute.attributeType?.value ?? "") else { return nil }
                return Field(name: attribute.name, value: text)
            }
        }
    }

    private func fields(of entityName: String, row: [ColumnValue], columns: [String]) throws -> [String] {
        var fields = attributeFields(of: entityName, row: row, columns: columns).map(\.text)
        func add(_ name: String, _ value: String) {
            fields.append(Field(name: name, value: value).text)
        }
        let value = { (column: String) in row[columns.firstIndex(of: column)!] }
        let key = value("Z_PK")
        for entity in lineage(entityName) {
            for relationship in entity.relationships where !relationship.isTransient {
                guard let storage = layout.storage(ofRelationship: relationship.name, in: entityName),
                      let destination = relationship.destinationEntity?.value,
                      let destinationTable = layout.entity(named: destination)?.table else { continue }
                let targets: [ColumnValue]
                switch storage {
                case .toOne(_, let column, _, _):
                    guard let target = link(to: value(column), in: destinationTable) else { continue }
                    add(relationship.name, target)
                    continue
                case .byInverse(let table, let column), .virtualToOne(let table, let column):
                    let order = relationship.inverseName.flatMap { inverse -> String? in
                        guard case .toOne(_, _, _, let order)? = layout.storage(ofRelationship: inverse.value, in: destination) else { return nil }
                        return order
                    }
                    targets = try connection.rows("SELECT Z_PK FROM \(table) WHERE \(column) = ? AND Z_ENT IN (\(family(destination))) "
                                                  + "ORDER BY \(order ?? "Z_PK"), Z_PK", [key]).map { $0[0] }
                case .joinTable(let join, let ownSideFirst):
                    let (own, other) = ownSideFirst ? (join.first, join.second) : (join.second, join.first)
                    // One order column keeps the order of the side that is ordered.
                    let order = relationship.ordered == nil ? nil : own.orderColumn ?? other.orderColumn
                    targets = try connection.rows("SELECT \(other.column) FROM \(join.name) WHERE \(own.column) = ? "
                                                  + "ORDER BY \(order ?? other.column), \(other.column)", [key]).map { $0[0] }
                }
                let identified = targets.compactMap { link(to: $0, in: destinationTable) }
                guard !identified.isEmpty else { continue }
                add(relationship.name, "[" + identified.joined(separator: ",") + "]")
            }
        }
        return fields
    }

    // MARK: Values

    /// `value` as JSON for an attribute of Core Data's `type`; nil leaves the attribute out.
    static func json(_ value: ColumnValue, type: String) -> String? {
        if value == .null { return type == "Transformable" ? nil : "null" }
        switch (type, value) {
        case ("Transformable", _), ("Undefined", _), ("ObjectID", _):
            return nil
        case ("Date", .real(let seconds)):
            return unixSeconds(referenceSeconds: seconds.description)
        case ("Date", .integer(let seconds)):
            return unixSeconds(referenceSeconds: String(seconds))
        case ("Boolean", .integer(let flag)):
            return flag == 0 ? "false" : "true"
        case ("UUID", .blob(let bytes)) where bytes.count == 16:
            var text = ""
            ModelWriter.appendQuoted(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                                 bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14],
                                                 bytes[15])).uuidString.lowercased(), to: &text)
            return text
        case (_, .blob(let bytes)):
            return "\"" + Data(bytes).base64EncodedString() + "\""
        case (_, .integer(let number)):
            return String(number)
        case (_, .real(let number)):
            return number.description
        case (_, .text(let string)):
            if type == "Decimal" { return string }
            var text = ""
            ModelWriter.appendQuoted(string, to: &text)
            return text
        default:
            return "null"
        }
    }

    /// 978307200 + `referenceSeconds` (seconds since 2001-01-01, as decimal text), added digit
    /// for digit: the Unix seconds whose nearest double, less 978307200, is the stored one.
    static func unixSeconds(referenceSeconds: String) -> String {
        guard let seconds = Decimal(string: referenceSeconds, locale: Locale(identifier: "en_US_POSIX")) else { return referenceSeconds }
        return (seconds + 978_307_200).description
    }

    // MARK: Model lookups

    private func entity(_ name: String) -> CoreDataModel.Entity? {
        model.entities.first { $0.name == name }
    }

    /// The entity and its ancestors, root first.
    private func lineage(_ name: String) -> [CoreDataModel.Entity] {
        var chain: [CoreDataModel.Entity] = []
        var current = entity(name)
        while let found = current, chain.count <= model.entities.count {
            chain.insert(found, at: 0)
            current = found.parentEntity.flatMap { entity($0.value) }
        }
        return chain
    }

    /// The store's `Z_ENT`s of `entity` and the entities below it.
    private func family(_ entity: String) -> String {
        let family = layout.entity(named: entity)?.family ?? []
        return layout.entities.filter { family.contains($0.number) }.compactMap { numbers[$0.name] }.map(String.init).joined(separator: ",")
    }

    private func columnNames(_ table: String) throws -> [String] {
        try connection.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).compactMap(\.first?.text)
    }

    private func count(_ sql: String) throws -> Int64 {
        guard case .integer(let count)? = try connection.scalar(sql) else { return 0 }
        return count
    }
}
