import Foundation
import Testing
import SluiceTestSupport
@testable import Sluice

private let items = Model(root: .entity("Item"), entities: [
    Model.Entity(name: "Item", table: "items", identity: ["id"], attributes: [
        .init(name: "id", type: .integer), .init(name: "name", type: .string), .init(name: "ref", type: .string),
    ]),
])

private let input = (1...5).map { #"{"id": \#($0), "name": "n\#($0)", "ref": \#($0)0}"# }.joined(separator: "\n")

/// What hooks saw, across the hooks' closures (which must be `@Sendable`).
private final class Log: @unchecked Sendable {
    private let lock = Monitor()
    private var entries: [String] = []
    func add(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return entries }
}

private func options(_ hooks: EntityHooks, batchSize: Int = 2) -> ImportOptions {
    var options = ImportOptions()
    options.batchSize = batchSize
    options.hooks = ["Item": hooks]
    return options
}

@Suite struct ImportHooksTests {
    @Test func shouldImportSkipsAndCounts() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("h.sqlite")
        let report = try importJSON(input, model: items, into: db, options: options(EntityHooks(shouldImport: { record in
            record["id"] != .integer(2)
        })))
        #expect(report.entities[0].skipped == 1)
        #expect(report.inserted == 4)
        #expect(try query(db, "SELECT id FROM items ORDER BY id") == [[.integer(1)], [.integer(3)], [.integer(4)], [.integer(5)]])
    }

    @Test func willImportReplacesValues() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("h.sqlite")
        try importJSON(input, model: items, into: db, options: options(EntityHooks(willImport: { record in
            if case .text(let name)? = record["name"] { record["name"] = .text(name.uppercased()) }
            record["ref"] = nil
        })))
        #expect(try query(db, "SELECT name, ref FROM items WHERE id = 3") == [[.text("N3"), .null]])
    }

    /// On the importing thread, in input order, with each row's pk, whatever the batches.
    @Test(arguments: [1, 2, 5_000])
    func didImportRunsInInputOrderWithThePK(batchSize: Int) throws {
        let directory = TemporaryDirectory()
        let db = directory.file("h.sqlite")
        let log = Log()
        let thread = currentThreadID()
        try importJSON(input, model: items, into: db, options: options(EntityHooks(didImport: { record, pk in
            #expect(currentThreadID() == thread)
            log.add("\(record["id"]!) \(pk)")
        }), batchSize: batchSize))
        let rows = try query(db, "SELECT id, pk FROM items ORDER BY id").map { "\($0[0]) \($0[1])" }
        #expect(log.all == rows)
        #expect(rows.count == 5)
    }

    /// MagicalRecord's `didImport:` forcing a numeric id to stay a string, as an attribute import.
    @Test func anAttributeImportTakesTheRawValue() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("h.sqlite")
        try importJSON(#"{"id": 1, "ref": 10.50}{"id": 2, "ref": "x"}{"id": 3}"#, model: items, into: db,
                       options: options(EntityHooks(attributes: ["ref": { raw in
            switch raw {
            case .number(let text): return .text("#" + text)
            case .string(let text): return .text(text)
            default: return .null
            }
        }])))
        #expect(try query(db, "SELECT ref FROM items ORDER BY id") == [[.text("#10.50")], [.text("x")], [.null]])
    }

    /// The example of `docs/library.md#hooks`, as written there.
    @Test func theDocumentedExample() throws {
        let log = Log()
        var options = ImportOptions()
        options.hooks["Stop"] = EntityHooks(
            shouldImport: { record in record["status"] != .text("deleted") },
            didImport: { record, pk in log.add("Stop \(record["remoteID"]!) is row \(pk)") },
            attributes: ["remoteID": { raw in
                switch raw {
                case .number(let text), .string(let text): return .text(text)   // 00123, 1.50: as written
                default: return .null
                }
            }])
        let model = Model(root: .entity("Stop"), entities: [Model.Entity(name: "Stop", identity: ["remoteID"], attributes: [
            .init(name: "remoteID", type: .integer), .init(name: "status", type: .string),
        ])])
        let directory = TemporaryDirectory()
        let report = try importJSON(#"[{"remoteID": 1.50}, {"remoteID": "00123"}, {"remoteID": 7, "status": "deleted"}]"#,
                                    model: model, into: directory.file("s.sqlite"), options: options)
        #expect(log.all == [#"Stop "1.50" is row 1"#, #"Stop "00123" is row 2"#])
        #expect(report.skipped == 1)
    }

    @Test func hooksMustNameTheModelsEntitiesAndAttributes() {
        var unknownEntity = ImportOptions()
        unknownEntity.hooks["Itme"] = EntityHooks()
        #expect(throws: SluiceError.self) { try Importer(databasePath: "/nonexistent/x.sqlite", model: items, options: unknownEntity) }
        var unknownAttribute = ImportOptions()
        unknownAttribute.hooks["Item"] = EntityHooks(attributes: ["nmae": { _ in .null }])
        do {
            _ = try Importer(databasePath: "/nonexistent/x.sqlite", model: items, options: unknownAttribute)
            Issue.record("expected a usage error")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.hasPrefix(#"hooks for Item: "nmae" is not an attribute of Item"#), "\(error)")
        }
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "refused" } }

    @Test func aThrowingHookIsARecordError() throws {
        let directory = TemporaryDirectory()
        let hooks = EntityHooks(willImport: { record in if record["id"] == .integer(3) { throw Refused() } })
        do {
            try importJSON(input, model: items, into: directory.file("a.sqlite"), options: options(hooks))
            Issue.record("expected the hook's error")
        } catch {
            #expect(error.kind == .data)
            #expect(error.description == "in.json:3:1: Item willImport: refused", "\(error)")
        }
        var skipping = options(hooks)
        skipping.onError = .skip
        skipping.rejectsPath = directory.file("rejects.jsonl")
        let report = try importJSON(input, model: items, into: directory.file("s.sqlite"), options: skipping)
        #expect(report.rejected == 1)
        #expect(report.inserted == 4)
        let rejects = try String(contentsOfFile: directory.file("rejects.jsonl"), encoding: .utf8)
        #expect(rejects.contains(#""reason":"Item willImport: refused""#), "\(rejects)")
        #expect(rejects.contains(#""id":3"#), "\(rejects)")
    }

    @Test func aThrowingDidImportStopsTheImport() throws {
        let directory = TemporaryDirectory()
        let hooks = EntityHooks(didImport: { record, _ in if record["id"] == .integer(4) { throw Refused() } })
        do {
            try importJSON(input, model: items, into: directory.file("a.sqlite"), options: options(hooks))
            Issue.record("expected the hook's error")
        } catch {
            #expect(error.description == "in.json:4:1: Item didImport: refused", "\(error)")
        }
    }
}
