/// Keeps the CSV files and fields a model does not know (SPEC section 12, `docs/gtfs.md`): the
/// headers of the inputs are read before the import, and the model gains a text attribute per
/// unknown field of a file it maps, and an entity per unknown file, so that the import keeps
/// them through the same engine, into any store, and a re-import finds them again.
///
/// * An unknown field of a mapped file: a `string` attribute named as the field (its column
///   too), optional, added to the entity its rows are.
/// * An unknown file (no entry of the root names it, no `--entity`): an entity named as the
///   file without its extension (`vehicles.txt` → `vehicles`, its table), a `string`
///   attribute per field, identified by all its fields as the reference's keyless files are,
///   each field `""` when empty (`default` with `defaultWhenMissing`), so that the identity is
///   whole and a re-import writes nothing; the root maps the file's name to it.
///
/// Only inputs that can be read twice are looked at: regular files, and each CSV or TSV entry
/// of a zip archive among them (up to its header; the rest of the archive is passed over).
/// Standard input and pipes are read once, by the import: what they hold that the model does
/// not know is named in the import's notes (`ImportOptions.keyNotes`, skipped entries), not
/// kept. A field or file that cannot be kept as it is named (its column or table would clash
/// with the model's, it has no name, the store cannot take its name: `AddedNames`) is named in
/// a note instead; the fields past a table's limit of columns in one note.
public struct UnknownCSV: Sendable {
    /// The model with what is kept added; the model given when nothing is unknown.
    public private(set) var model: Model
    /// The unknown fields kept, by entity, in the order met.
    public private(set) var fields: [(entity: String, field: String)] = []
    /// The unknown files kept: the input's name, and the entity made for it.
    public private(set) var files: [(input: String, entity: String)] = []
    /// What could not be kept, and why.
    public private(set) var notKept: [String] = []

    /// Why a file whose name is no key path (`my..notes.txt`, `.hidden.txt`) is not kept: the
    /// model's root maps files by key paths, split at dots.
    static let unnamable = "no key of the model's root can name the file (a root key is split at its dots, "
        + "and a dot at either end or two together leave an empty key)"

    /// PostgreSQL indexes at most 32 columns: an unknown file's identity (its fields) may not
    /// have more.
    static let maxIdentityFields = 32

    /// Reads the header of each CSV input among `inputs` (paths; `-` is standard input, which
    /// is left alone) and extends `model` with what it does not know, as far as the store of
    /// `database` (the import's `--db`: a path or a PostgreSQL URI) can name it. Nothing here
    /// fails: an input that cannot be read is left to the import, which says what is wrong with it.
    public static func keep(in model: Model, inputs: [String], options: ImportOptions, database: String) -> UnknownCSV {
        var headers: [CSVHeaders.Header] = []
        for path in inputs where path != "-" && SystemCalls.status(ofPath: path)?.isRegularFile == true {
            headers += CSVHeaders.read(path: path, options: options)
        }
        var kept = UnknownCSV(model: model, database: database)
        kept.add(headers, options: options)
        return kept
    }

    private init(model: Model, database: String) {
        self.model = model
        let tables = DatabaseLayout(model).tables
        storeNames = AddedNames(database: database, tables: tables)
        tableNames = Set(tables.map { Self.fold($0.name) } + model.entities.map { Self.fold($0.name) })
    }

    /// The model's tables and entities, folded (`fold`), with each entity added: kept as they
    /// grow, not made again for each file (5,000 files made it quadratic).
    private var tableNames: Set<String>

    /// What the store can name.
    private var storeNames: AddedNames

    /// One note for the fields kept, one for the files, then one per thing not kept.
    public var notes: [String] {
        var notes: [String] = []
        if !fields.isEmpty {
            let names = fields.map { "\($0.entity).\($0.field)" }
            let count = fields.count == 1 ? "1 field" : "\(fields.count) fields"
            notes.append("kept \(count) the model does not know, as text columns: " + Self.list(names))
        }
        if !files.isEmpty {
            let names = files.map { "\($0.input) → \($0.entity)" }
            let count = files.count == 1 ? "1 file" : "\(files.count) files"
            notes.append("kept \(count) the model does not know, as tables of text columns identified by all their fields: "
                + Self.list(names))
        }
        return notes + notKept
    }

    private static func list(_ names: [String], limit: Int = 20) -> String {
        names.prefix(limit).joined(separator: ", ") + (names.count > limit ? " and \(names.count - limit) more" : "")
    }

    // MARK: Extending the model

    private mutating func add(_ headers: [CSVHeaders.Header], options: ImportOptions) {
        let mapped = model.addingRoots(options.roots)
        var newEntities: [String: Int] = [:]  // entity name → index in `model.entities`
        var roots: [Model.RootOverride] = []
        for (input, fileNames, read) in headers {
            let entity = Self.entity(forFileNames: fileNames, in: mapped, options: options)
            let header: [String]
            switch read {
            case .success(let names): header = names
            case .failure(let error):
                // A file of the model's fails the import at this error; another is not kept.
                let place = error.position.map { " at line \($0.line), column \($0.column)" } ?? ""
                if entity == nil { notKept.append("\(input): not kept: its header\(place): \(error.message)") }
                continue
            }
            if let entity {
                addFields(header, to: entity, input: input)
                continue
            }
            let stem = fileNames.last ?? input
            // The file's name, as its root entry (`"vehicles.txt": "vehicles"`).
            let root = Model.RootOverride(key: fileNames.first { !$0.contains("/") } ?? stem, entity: stem)
            let fieldCount = Set(header.filter { !$0.isEmpty }).count
            if fieldCount == 0 {
                notKept.append("\(input): not kept: its header names no field")
            } else if !root.hasValidKey {
                notKept.append("\(input): not kept: \(Self.unnamable)")
            } else if let index = newEntities[stem] {
                addFields(header, toNewEntity: index, input: input)
                if !files.contains(where: { $0 == (input, stem) }) { files.append((input, stem)) }
            } else if fieldCount > Self.maxIdentityFields {
                notKept.append("\(input): not kept: its \(fieldCount) fields would all be its identity, and PostgreSQL "
                    + "indexes at most \(Self.maxIdentityFields) columns; map it with --root to an entity of your own")
            } else if let problem = tableProblem(stem) ?? storeNames.problem(ofTable: stem) {
                notKept.append("\(input): not kept: \(problem)")
            } else {
                model.entities.append(Model.Entity(name: stem, attributes: []))
                tableNames.insert(Self.fold(stem))
                newEntities[stem] = model.entities.count - 1
                addFields(header, toNewEntity: model.entities.count - 1, input: input)
                files.append((input, stem))
                roots.append(root)
            }
        }
        model = model.addingRoots(roots)
    }

    /// The entity the rows of an input of these names go to, as `ModelTarget.recordPath` finds it.
    private static func entity(forFileNames fileNames: [String], in model: Model, options: ImportOptions) -> String? {
        if let entity = options.entity { return entity }
        switch model.root {
        case .paths(let paths)?:
            for name in fileNames {
                if let match = paths.first(where: { $0.path.description == name }) { return match.entity }
            }
            return nil
        case .entity(let entity)?:
            return entity
        case nil:
            return model.entities.count == 1 ? model.entities[0].name : nil
        }
    }

    /// The keys an entity's records are read by at their top level: its attributes' and
    /// relationships' (inherited ones too), and its `entityBy` key.
    private func knownKeys(of entity: String) -> Set<String> {
        var keys: Set<String> = []
        for attribute in model.inheritedAttributes(of: entity) {
            for key in attribute.keys { if let first = key.keys.first { keys.insert(first) } }
        }
        for relationship in model.inheritedRelationships(of: entity) {
            for key in relationship.keys { if let first = key.keys.first { keys.insert(first) } }
        }
        var name: String? = entity
        while let current = name, let found = model.entity(named: current) {
            if let first = found.entityBy?.key.keys.first { keys.insert(first) }
            name = found.parent
        }
        return keys
    }

    /// Names and columns an entity's table already has, folded as SQLite compares them.
    private func takenNames(of entity: String) -> Set<String> {
        var taken: Set<String> = [Model.primaryKeyColumn]
        for attribute in model.inheritedAttributes(of: entity) {
            taken.insert(Self.fold(attribute.name))
            taken.insert(Self.fold(attribute.column))
        }
        for relationship in model.inheritedRelationships(of: entity) {
            taken.insert(Self.fold(relationship.name))
            if !relationship.toMany { taken.insert(Self.fold(relationship.column)) }
        }
        return taken
    }

    /// Unknown fields of a mapped file become optional text attributes of its entity.
    private mutating func addFields(_ header: [String], to entity: String, input: String) {
        guard let index = model.entities.firstIndex(where: { $0.name == entity }) else { return }
        let known = knownKeys(of: entity)
        var taken = takenNames(of: entity)
        var columns = 1 + model.inheritedAttributes(of: entity).count
            + model.inheritedRelationships(of: entity).filter { !$0.toMany }.count
        let limit = storeNames.maxColumns(Model.maxColumns(hasIdentity: !model.entities[index].identity.isEmpty))
        var seen: Set<String> = []
        var pastLimit: [String] = []
        for field in header where !known.contains(field) && seen.insert(field).inserted {
            if let problem = fieldProblem(field, taken: taken) {
                notKept.append("\(input): field \(ModelProblem.quote(field)) not kept: \(problem)")
                continue
            }
            guard columns < limit else {
                pastLimit.append(field)
                continue
            }
            model.entities[index].attributes.append(Model.Attribute(name: field, type: .string, keys: [JSONKeyPath([field])]))
            taken.insert(Self.fold(field))
            columns += 1
            fields.append((entity, field))
        }
        if !pastLimit.isEmpty {
            let count = pastLimit.count == 1 ? "field" : "\(pastLimit.count) fields"
            notKept.append("\(input): \(count) not kept, the table would have more than \(limit) columns: "
                + Self.list(pastLimit.map(ModelProblem.quote), limit: 5))
        }
    }

    /// The fields of an unknown file: text attributes, each part of the identity and `""` when
    /// empty, so that the identity is whole.
    private mutating func addFields(_ header: [String], toNewEntity index: Int, input: String) {
        var taken: Set<String> = Set(model.entities[index].attributes.map { Self.fold($0.name) }).union([Model.primaryKeyColumn])
        for field in header where model.entities[index].attribute(named: field) == nil {
            if model.entities[index].attributes.count >= Self.maxIdentityFields {
                notKept.append("\(input): field \(ModelProblem.quote(field)) not kept: the table's identity has "
                    + "\(Self.maxIdentityFields) fields, all PostgreSQL indexes")
                continue
            }
            if let problem = fieldProblem(field, taken: taken) {
                notKept.append("\(input): field \(ModelProblem.quote(field)) not kept: \(problem)")
                continue
            }
            model.entities[index].attributes.append(Model.Attribute(
                name: field, type: .string, keys: [JSONKeyPath([field])], defaultValue: .string(""), defaultWhenMissing: true))
            model.entities[index].identity.append(field)
            taken.insert(Self.fold(field))
        }
    }

    private func fieldProblem(_ field: String, taken: Set<String>) -> String? {
        if field.isEmpty { return "the header names no field here" }
        if taken.contains(Self.fold(field)) {
            return field.lowercased() == Model.primaryKeyColumn ? "\"pk\" is the row's own key"
                : "its column would clash with one of the model's (names ignore case)"
        }
        return storeNames.problem(ofColumn: field)
    }

    /// Why no table can be made for an unknown file named `stem`, or nil.
    private func tableProblem(_ stem: String) -> String? {
        let folded = Self.fold(stem)
        if stem.isEmpty { return "its name makes no table name" }
        if folded.hasPrefix("sqlite_") || folded.hasPrefix("sluice_") { return "table names beginning \(stem.prefix(7)) are reserved" }
        if tableNames.contains(folded) {
            return "a table \(ModelProblem.quote(stem)) is the model's (names ignore case): map the file with --root"
        }
        return nil
    }

    /// Names as SQLite compares them: ASCII case ignored.
    private static func fold(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
