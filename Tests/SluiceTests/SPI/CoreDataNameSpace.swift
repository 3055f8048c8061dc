@_spi(Fuzzing) import Sluice
#if canImport(SluiceTestSupport)
import SluiceTestSupport
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Core Data models whose entity, attribute and relationship names come from every kind of
/// name: any Unicode (letters whose upper case is longer or ASCII, other scripts, combining
/// marks, emoji, format and control characters), case variants of each other (`Straße` and
/// `STRASSE`), Core Data's own tables and columns (`_PRIMARYKEY`, `Z_...`), quotes and
/// punctuation, SQL words, empty and very long names. The property (`check`): `sluice check
/// --layout coredata` accepts the model exactly when an import into a new Core Data store
/// writes it, with a table per entity and a column per attribute and to-one under Core
/// Data's names, and the record's values in them; a refusal is the same usage error from
/// both, in lines of its own, never SQLite's text, and leaves no store.
///
/// One copy serves `CoreDataNameSpaceTests` (seeded choices) and the fuzz target
/// (`Fuzz/Sources/SluiceFuzz/`, linked there with `ModelText`: choices from the fuzz bytes); it
/// imports only Sluice's SPI, `ModelText` and libc.
struct CoreDataNameCase: CustomStringConvertible {
    struct Relationship {
        var name: String
        var target: Int
        var toMany: Bool
        var ordered: Bool
        var inverse: String?
    }

    struct Entity {
        var name: String
        var attributes: [String]
        var relationships: [Relationship] = []
    }

    var entities: [Entity]

    static let alphabet: [String] = ["a", "b", "Z", "k", "0", "7", "_", "$", "ß", "ä", "Ä", "ı", "İ", "ſ", "ﬁ", "ǅ", "Σ", "ς",
                                     "é", "e\u{301}", "日", "😀", "\u{200B}", "\u{FEFF}", "ŉ", "ΐ", "Ω", "K", "s", "S"]
    static let punctuation: [String] = ["\"", "'", "`", " ", "-", ".", "[", "]", ";", "(", "\t", "\n", "\u{1}", "\\", "&",
                                        "<", "%", "\u{7F}", "\u{85}", "\u{2028}"]
    /// Whole names that meet Core Data's own tables and columns, or SQL's words.
    static let reserved = ["_PRIMARYKEY", "_METADATA", "_MODELCACHE", "_pk", "_ENT", "_OPT", "_FOK_X", "_FOK_", "PRIMARYKEY",
                           "METADATA", "PK", "ENT", "OPT", "select", "table", "order", "index", "default", "1", "_1X", "_",
                           "_1", "_2ITEMS", "", "Z", "z_pk", "sqlite_master", "sqlite_x"]

    /// A model drawn by `choose`, which gives a number below its argument.
    init(choose: (Int) -> Int) {
        func pick<T>(_ items: [T]) -> T { items[choose(items.count)] }
        func name() -> String {
            switch choose(12) {
            case 0: return pick(Self.reserved)
            case 1: return String(repeating: pick(Self.alphabet), count: 1 + choose(300))
            default: return (0...choose(6)).map { _ in choose(24) == 0 ? pick(Self.punctuation) : pick(Self.alphabet) }.joined()
            }
        }
        /// A name and another that differs only in case, or is the same upper-cased.
        func twin(of name: String) -> String {
            switch choose(4) {
            case 0: return name.uppercased()
            case 1: return name.lowercased()
            case 2: return name.replacing("ss", with: "ß").replacing("SS", with: "ß")
            default: return name
            }
        }
        func attributes() -> [String] {
            var names = [name()]
            for _ in 0..<choose(3) { names.append(choose(2) == 0 ? twin(of: pick(names)) : name()) }
            return names
        }
        // An entity without a name is not read (a note): the import names the first with --entity.
        func entityName() -> String {
            let name = name()
            return name.isEmpty ? "E" : name
        }
        var entities = [Entity(name: entityName(), attributes: attributes())]
        for _ in 0..<choose(3) {
            entities.append(Entity(name: choose(2) == 0 ? twin(of: pick(entities).name) : entityName(), attributes: attributes()))
        }
        // Relationships with their inverse: to-one and to-many (ordered or not), or many-to-many.
        if entities.count > 1 {
            for _ in 0..<choose(3) {
                let from = choose(entities.count), to = choose(entities.count)
                let forward = choose(3) == 0 ? twin(of: pick(entities[from].attributes)) : name()
                let backward = name()
                let manyToMany = choose(4) == 0
                entities[from].relationships.append(Relationship(name: forward, target: to, toMany: manyToMany,
                                                                 ordered: false, inverse: backward))
                entities[to].relationships.append(Relationship(name: backward, target: from, toMany: true,
                                                               ordered: choose(2) == 0, inverse: forward))
            }
        }
        self.entities = entities
    }

    var description: String {
        entities.map { entity in
            "\(entity.name.debugDescription) \(entity.attributes.map(\.debugDescription)) "
                + entity.relationships.map { "\($0.name.debugDescription)->\($0.target)\($0.toMany ? "*" : "")" }.joined(separator: " ")
        }.joined(separator: "; ")
    }

    /// The model's `contents` (an `.xcdatamodel`'s XML).
    var contents: String {
        var xml = "<?xml version=\"1.0\"?>\n<model>\n"
        for entity in entities {
            xml += "<entity name=\"\(ModelText.xml(entity.name))\">"
            for attribute in entity.attributes {
                xml += "<attribute name=\"\(ModelText.xml(attribute))\" optional=\"YES\" attributeType=\"String\"/>"
            }
            for relationship in entity.relationships {
                let target = ModelText.xml(entities[relationship.target].name)
                xml += "<relationship name=\"\(ModelText.xml(relationship.name))\" optional=\"YES\""
                    + (relationship.toMany ? " toMany=\"YES\"" : " maxCount=\"1\"") + (relationship.ordered ? " ordered=\"YES\"" : "")
                    + " deletionRule=\"Nullify\" destinationEntity=\"\(target)\""
                    + (relationship.inverse.map { " inverseName=\"\(ModelText.xml($0))\" inverseEntity=\"\(target)\"" } ?? "") + "/>"
            }
            xml += "</entity>\n"
        }
        return xml + "</model>\n"
    }

    /// One record of the first entity: its attributes by name, each `v` and its index.
    var record: String {
        "{" + entities[0].attributes.enumerated().map { ModelText.json($1) + ": " + ModelText.json("v\($0)") }.joined(separator: ", ") + "}"
    }

    /// Runs `check` and an import in `directory` (which must exist and be empty); nil when the
    /// property holds, else what went wrong. `accepted` says which side the case reached.
    func check(in directory: String, accepted: inout Bool) -> String? {
        let folder = directory + "/M.xcdatamodel"
        let modelPath = folder + "/contents"
        let database = directory + "/new.sqlite"
        defer {
            unlink(database)
            unlink(modelPath)
            rmdir(folder)
        }
        mkdir(folder, 0o700)
        guard Self.write(contents, to: modelPath) else { return "cannot write \(modelPath)" }

        let checked = Fuzzing.checkCoreData(modelPath: folder)
        let imported = Fuzzing.importCoreData(Array(record.utf8), modelPath: folder, entity: entities[0].name,
                                              databasePath: database)
        let stored = access(database, F_OK) == 0
        accepted = checked == nil
        // SQLite's own messages (a name in Sluice's may hold any of these words' letters, not these phrases).
        let raw = ["SQL logic error", "syntax error", "no such table", "no such column", "sqlite3_", "CREATE TABLE", "near \"",
                   "duplicate column name", "already exists", "unrecognized token", "malformed"]
        if let checked {
            if let text = raw.first(where: checked.contains) { return "check gave SQLite's text (\(text)): \(checked)" }
            guard let imported else { return "check refused, the import wrote: \(checked)" }
            let refusal = imported.modelError.map { "\($0)" } ?? "\(imported)"
            if imported.kind != .usage { return "check refused, the import failed otherwise (\(imported.kind)): \(refusal)" }
            if let text = raw.first(where: refusal.contains) { return "the import gave SQLite's text (\(text)): \(refusal)" }
            if stored { return "the import refused and left a store: \(refusal)" }
            // The check's first problem, without the model's name, is the import's too.
            let first = checked.split(separator: "\n", omittingEmptySubsequences: false)[0]
            let problem = first.hasPrefix(folder + ": ") ? String(first.dropFirst(folder.count + 2)) : String(first)
            if !refusal.contains(problem) { return "check and import refuse differently:\n\(checked)\n\(refusal)" }
            return nil
        }
        if let imported { return "check accepted, the import failed: \(imported)" }
        guard stored else { return "check accepted, the import succeeded, and no store" }
        do throws(SluiceError) {
            let tables = try Fuzzing.columns(databasePath: database)
            for entity in entities {
                let table = "Z" + entity.name.uppercased()
                guard let columns = tables[table] else { return "no table \(table) in \(tables.keys.sorted())" }
                // An attribute or relationship without a name is not read (a note).
                for property in entity.attributes + entity.relationships.filter({ !$0.toMany }).map(\.name) where !property.isEmpty {
                    let column = "Z" + property.uppercased()
                    if !columns.contains(column) { return "no column \(column) in \(table): \(columns)" }
                }
            }
            let first = entities[0]
            let named = first.attributes.indices.filter { !first.attributes[$0].isEmpty }
            let columns = named.map { Self.quote("Z" + first.attributes[$0].uppercased()) } + ["count(*)"]
            let select = "SELECT " + columns.joined(separator: ", ") + " FROM " + Self.quote("Z" + first.name.uppercased())
            let rows = try Fuzzing.rows(databasePath: database, select)
            let expected: [[String?]] = [named.map { "v\($0)" } + ["1"]]
            if rows != expected { return "rows \(rows), expected \(expected)" }
        } catch {
            return "cannot read the store: \(error)"
        }
        return nil
    }

    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacing("\"", with: "\"\"") + "\""
    }

    private static func write(_ text: String, to path: String) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        return fwrite(bytes, 1, bytes.count, file) == bytes.count
    }
}
