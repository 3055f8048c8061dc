/// Sluice's import log in a Core Data store, which has no `sluice_imports`: one key of the
/// store's metadata (`Z_METADATA.Z_PLIST`), `SluiceLastImport`, a dictionary of the last
/// import (its number, times, model digest and inputs as `sluice_imports` records them).
/// Core Data keeps keys an app sets in the metadata (`setMetadata(_:for:)`) and writes them
/// back with its own, so the store stays Core Data's (`docs/coredata-store.md#sluices-import-log`).
enum CoreDataImportLog {
    static let key = "SluiceLastImport"

    static let place = LayoutFile.ImportLogPlace(
        query: "SELECT Z_VERSION, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1",
        last: { rows in
            guard case .dictionary(let log)? = metadata(rows)?[key] else { return nil }
            let values = Dictionary(log, uniquingKeysWith: { _, last in last })
            guard case .integer(let number)? = values["number"] else { return nil }
            let text: (String) -> String? = { name in
                if case .string(let value)? = values[name] { return value }
                return nil
            }
            return LoggedImport(number: number, finishedAt: text("finished_at") ?? "",
                                modelSHA256: text("model_sha256") ?? "", inputs: text("inputs"))
        },
        record: { rows, record in
            guard let version = rows.first?.first, case .dictionary(var members)? = metadata(rows) else { return nil }
            var number: Int64 = 1
            if case .dictionary(let log)? = metadata(rows)?[key], case .integer(let last)? = log.last(where: { $0.key == "number" })?.value {
                number = last + 1
            }
            let entry = PropertyList.dictionary([
                ("number", .integer(number)), ("started_at", .string(record.startedAt)),
                ("finished_at", .string(record.finishedAt)), ("model_sha256", .string(record.modelSHA256)),
                ("inputs", .string(record.inputs)),
            ])
            members.removeAll { $0.key == key }
            members.append((key, entry))
            return ("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = ?", [.blob(BinaryPropertyList.write(.dictionary(members))), version])
        })

    /// The metadata dictionary of `Z_METADATA`'s first row (`Z_VERSION`, `Z_PLIST`).
    private static func metadata(_ rows: [[ColumnValue]]) -> PropertyList? {
        guard let row = rows.first, row.count == 2, case .blob(let bytes) = row[1] else { return nil }
        return try? BinaryPropertyList.read(bytes)
    }
}
