import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// The built-in GTFS model (`--model gtfs`) against the GTFS Schedule reference itself
/// (`Tests/Fixtures/GTFSReference/reference.md`): every file and every field, with the
/// reference's type, key and references; and the compiled-in text against its file in the
/// repository (`Sources/Sluice/Model/BuiltInModels/gtfs.json`).
@Suite struct GTFSModelTests {
    /// One file's table of the reference: its primary key as written, and its fields.
    struct ReferenceFile {
        var name: String
        var primaryKey: String?
        var fields: [(name: String, type: String, presence: String)] = []
        var stem: String { String(name.split(separator: ".")[0]) }
    }

    /// The "Field Definitions" of the reference: each `### file` section's `Primary key (…)`
    /// line and the rows of its field table.
    static let reference: [ReferenceFile] = {
        let text = String(decoding: try! PackageFiles.bytes("Tests/Fixtures/GTFSReference/reference.md"), as: UTF8.self)
        let definitions = text.components(separatedBy: "## Field Definitions")[1]
        var files: [ReferenceFile] = []
        for line in definitions.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") {
                files.append(ReferenceFile(name: String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)))
            } else if line.lowercased().hasPrefix("primary key ("), !files.isEmpty {
                files[files.count - 1].primaryKey = String(line.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" })
            } else if line.hasPrefix("|"), !files.isEmpty {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count > 4, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { continue }
                files[files.count - 1].fields.append((String(cells[1].dropFirst().dropLast()), cells[2], cells[3]))
            }
        }
        return files.filter { $0.name.hasSuffix(".txt") }
    }()

    static let model = try! ModelFile(builtIn: .gtfs).model

    /// The reference's type as a Sluice type (docs/gtfs.md): enums and integers are integers,
    /// floats and coordinates doubles, currency amounts decimals, the rest (IDs, dates, times,
    /// colours, URLs, codes, text) strings. `translations.table_name` is an enum of file names.
    static func expectedType(of field: String, _ type: String, in file: String) -> AttributeType {
        let type = type.lowercased()
        if file == "translations.txt" && field == "table_name" { return .string }
        if type == "enum" || type.hasSuffix("integer") { return .integer }
        if type.hasSuffix("float") || type == "latitude" || type == "longitude" { return .double }
        if type == "currency amount" { return .decimal }
        return .string
    }

    @Test func theCompiledInTextIsTheModelFile() throws {
        let file = try PackageFiles.bytes("Sources/Sluice/Model/BuiltInModels/gtfs.json")
        #expect(Array(BuiltInModel.gtfs.text.utf8) == file)
        #expect(try ModelFile.load(path: "gtfs").sha256 == SHA256.hex(of: file))
    }

    @Test func theModelIsValidForAnImport() throws {
        let file = try ModelFile.load(path: "gtfs")
        try file.validateForImport()
        try file.model.validate()
    }

    @Test func everyFileOfTheReferenceIsAnEntityItsRootNames() throws {
        #expect(Self.reference.count >= 31, "the reference's files were not found")
        guard case .paths(let root)? = Self.model.root else {
            Issue.record("the model's root is not a map of file names")
            return
        }
        for file in Self.reference {
            let entity = try #require(Self.model.entity(named: file.stem), "no entity for \(file.name)")
            #expect(entity.table == file.stem)
            #expect(root.contains { $0.path.description == file.name && $0.entity == file.stem }, "root does not map \(file.name)")
        }
        #expect(root.contains { $0.path.description == "features" && $0.entity == "locations" })
    }

    @Test func everyFieldIsAnAttributeOfTheReferencesType() throws {
        var count = 0
        for file in Self.reference {
            let entity = try #require(Self.model.entity(named: file.stem))
            #expect(!file.fields.isEmpty, "\(file.name): no fields parsed")
            for field in file.fields {
                count += 1
                let attribute = try #require(entity.attributes.first { $0.name == field.name }, "\(file.name): no attribute \(field.name)")
                #expect(attribute.column == field.name)
                #expect(attribute.keys == [JSONKeyPath([field.name])])
                #expect(attribute.type == Self.expectedType(of: field.name, field.type, in: file.name),
                        "\(file.name).\(field.name): \(field.type)")
            }
            #expect(entity.attributes.count == file.fields.count, "\(file.name): attributes the reference does not list")
        }
        #expect(count > 200)
    }

    /// The reference's primary key; `(*)` and `(none)` (feed_info.txt, one row) take every
    /// field. A key field the reference does not require has a default used when it is
    /// missing, so that its row's identity is whole.
    @Test func identitiesAreTheReferencesPrimaryKeys() throws {
        for file in Self.reference {
            let entity = try #require(Self.model.entity(named: file.stem))
            let key = try #require(file.primaryKey, "\(file.name): no primary key line")
            let expected = key == "`*`" || key == "none" ? file.fields.map(\.name)
                : key.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }
            #expect(entity.identity == expected, "\(file.name)")
            for field in file.fields where expected.contains(field.name) {
                let attribute = try #require(entity.attributes.first { $0.name == field.name })
                if field.presence == "**Required**" {
                    #expect(attribute.defaultValue == nil, "\(file.name).\(field.name)")
                } else {
                    #expect(attribute.defaultWhenMissing && attribute.defaultValue != nil, "\(file.name).\(field.name)")
                }
            }
        }
    }

    /// A foreign ID that names one row (the target's whole primary key) is a to-one named as
    /// the field without `_id`; service_id and shape_id (groups of rows) are not.
    @Test func foreignIDsNamingOneRowAreRelationships() throws {
        let keys = Dictionary(uniqueKeysWithValues: Self.reference.map { ($0.stem, $0.primaryKey) })
        var count = 0
        for file in Self.reference {
            let entity = try #require(Self.model.entity(named: file.stem))
            for field in file.fields {
                let name = field.name.hasSuffix("_id") ? String(field.name.dropLast(3)) : field.name
                var target: String?
                if let range = field.type.range(of: #"^Foreign ID referencing `([a-z_]+)\.([a-z_]+)`$"#, options: .regularExpression) {
                    let parts = field.type[range].split(separator: "`")[1].split(separator: ".").map(String.init)
                    if keys[parts[0]] == "`\(parts[1])`", parts[1] != "service_id" { target = parts[0] }
                } else if field.type == "Foreign ID referencing `id` from `locations.geojson`" {
                    target = "locations"
                }
                let relationship = entity.relationships.first { $0.keys == [JSONKeyPath([field.name])] }
                if let target {
                    count += 1
                    #expect(relationship?.name == name && relationship?.entity == target && relationship?.toMany == false,
                            "\(file.name).\(field.name) → \(target)")
                } else {
                    #expect(relationship == nil, "\(file.name).\(field.name) names no single row")
                }
            }
        }
        #expect(count > 30)
        let names = { (entity: String) in Self.model.entity(named: entity)?.relationships.map(\.name) ?? [] }
        #expect(names("stop_times").starts(with: ["trip", "stop"]))
        #expect(names("stops").contains("parent_station") && names("trips") == ["route"] && names("routes") == ["agency"])
        #expect(names("transfers").contains("from_stop") && names("transfers").contains("to_stop") && names("frequencies") == ["trip"])
    }
}
