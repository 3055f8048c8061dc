import CFuzzerDriver
@_spi(Fuzzing) import Sluice

#if canImport(Glibc)
import Glibc
#endif

/// One libFuzzer input: the first byte chooses how to read the rest, the rest is the JSON.
///
/// Byte 0, bit by bit:
/// * bits 0–2: the small chunk size, 1 to 8 bytes, for the chunked run;
/// * bits 3–4: where the records are: the model's `root` map, `--entity Item` (top-level
///   records), `--entity Item --path data.items`, or zero-config (no model);
/// * bit 5: a small `--max-value-bytes` (48) and nesting limit (12), to reach the limits;
/// * bit 6: also run a whole import into a new database file (slower: a file per run);
/// * bit 7: the long mode over the space of models instead (`ModelSpace.swift`): the next
///   bytes seed a random model, and the rest is its input.
///
/// What must hold, for every input (a violation aborts, and libFuzzer keeps the input):
/// * no crash, no sanitizer report, no unbounded allocation (libFuzzer's -rss_limit_mb);
/// * the input fed whole and fed in small chunks gives the same records, positions,
///   rejections and final error (the error's excerpt of the input may differ: it shows
///   only the current chunk);
/// * every captured rejected record is exactly one JSON value;
/// * a whole import succeeds exactly when the mapping run ended without an error, and a
///   new database exists afterwards exactly when it succeeded.
/// The executable's entry point (SwiftPM links `main` to `<Module>_main`): libFuzzer's driver,
/// which parses libFuzzer's flags and calls `fuzzOneInput` for every input.
@_cdecl("SluiceFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
}

/// `SLUICE_FUZZ_MODEL_SPACE=1` gives every input to the long mode, whatever its bit 7, so that a
/// run's whole time goes to the space of models (read once; libFuzzer's flags cannot carry it).
let onlyModelSpace = getenv("SLUICE_FUZZ_MODEL_SPACE").map { String(cString: $0) == "1" } ?? false

/// `SLUICE_FUZZ_TARGET=csv` or `zip` fuzzes the CSV reader or the zip reader instead
/// (`CSVZipFuzz.swift`), `coredata` the names of Core Data models (`CoreDataNamesFuzz.swift`);
/// `Fuzz/run.sh` gives each its own corpus.
let target = getenv("SLUICE_FUZZ_TARGET").map { String(cString: $0) } ?? ""

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let config = data[0]
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if target == "csv" { return fuzzCSV(config, input) }
    if target == "zip" { return fuzzZip(config, input) }
    if target == "coredata" { return fuzzCoreDataNames(Array(UnsafeBufferPointer(start: data, count: size))) }
    if config & 0x80 != 0 || onlyModelSpace { return fuzzModelSpace(input) }
    let chunkSize = Int(config & 7) + 1
    let mode = Int(config >> 3) & 3
    let small = config & 0x20 != 0
    let maxValueBytes = small ? 48 : 1 << 20
    let maxDepth = small ? 12 : 1_000

    func run(_ chunk: Int, fastPaths: Bool = true) -> Fuzzing.Outcome {
        switch mode {
        case 0: return try! Fuzzing.map(input, model: fuzzModel, chunkSize: chunk, maxValueBytes: maxValueBytes,
                                        maxDepth: maxDepth, fastPaths: fastPaths)
        case 1: return try! Fuzzing.map(input, model: fuzzModel, entity: "Item", chunkSize: chunk,
                                        maxValueBytes: maxValueBytes, maxDepth: maxDepth, fastPaths: fastPaths)
        case 2: return try! Fuzzing.map(input, model: fuzzModel, entity: "Item", path: "data.items", chunkSize: chunk,
                                        maxValueBytes: maxValueBytes, maxDepth: maxDepth, fastPaths: fastPaths)
        default: return Fuzzing.mapFreeform(input, chunkSize: chunk, maxValueBytes: maxValueBytes, maxDepth: maxDepth)
        }
    }

    let whole = run(max(input.count, 1))
    let chunked = run(chunkSize)
    let wholeLines = whole.lines.map(Fuzzing.withoutExcerpt)
    let chunkedLines = chunked.lines.map(Fuzzing.withoutExcerpt)
    if wholeLines != chunkedLines, !sameErrorPlace(wholeLines, chunkedLines) {
        report("whole and chunked (\(chunkSize)) runs differ", wholeLines, chunkedLines)
    }
    // The assembler's inlined common cases must do exactly what its general path does.
    let general = run(chunkSize, fastPaths: false)
    if general != chunked { report("the fast and general paths differ", chunked.lines, general.lines) }
    for text in whole.rejectedTexts + chunked.rejectedTexts {
        if let text, !Fuzzing.isOneJSONValue(text) {
            report("a captured record is not one JSON value: \(String(decoding: text, as: UTF8.self))", [], [])
        }
    }

    if config & 0x40 != 0, !small {
        checkImport(input, mode: mode, mapped: whole)
    }
    return 0
}

/// A whole import agrees with the mapping run, and leaves a database only when it succeeded.
private func checkImport(_ input: [UInt8], mode: Int, mapped: Fuzzing.Outcome) {
    var options = ImportOptions()
    options.batchSize = 3
    options.chunkSize = 7
    switch mode {
    case 1: options.entity = "Item"
    case 2: options.entity = "Item"; options.path = "data.items"
    case 3: break
    default: break
    }
    let database = workDirectory + "/fuzz.sqlite"
    let rejects = workDirectory + "/rejects.ndjson"
    let result = Fuzzing.importInput(input, model: mode == 3 ? nil : fuzzModel, databasePath: database,
                                     rejectsPath: rejects, options: options)
    let exists = access(database, F_OK) == 0
    let mapFailed = mapped.lines.last?.hasPrefix("error ") == true
    switch result {
    case .success:
        if !exists { report("the import succeeded but left no database", mapped.lines, []) }
        if mapFailed { report("the import succeeded where the mapping failed", mapped.lines, []) }
    case .failure(let error):
        if exists { report("the import failed (\(error)) but left a database", mapped.lines, []) }
        // A value SQLite refuses is the one failure only the import can see.
        if !mapFailed, error.kind != .data {
            report("the import failed (\(error)) where the mapping succeeded", mapped.lines, [])
        }
    }
    unlink(database)
    unlink(rejects)
}

/// Known and accepted: a token both misplaced and over `--max-value-bytes` is reported as
/// too large when a chunk boundary falls inside it, and as misplaced when it arrives whole
/// (yajl refuses it before handing it over). Same place, either diagnosis is true.
private func sameErrorPlace(_ first: [String], _ second: [String]) -> Bool {
    guard first.count == second.count, first.dropLast() == second.dropLast(),
          let a = first.last, let b = second.last, a.hasPrefix("error "), b.hasPrefix("error ") else { return false }
    let tooLarge = "a single value is larger than"
    guard a.contains(tooLarge) != b.contains(tooLarge) else { return false }
    func place(_ line: String) -> Substring { line.split(separator: " ", maxSplits: 2)[1] }
    return place(a) == place(b)
}

func report(_ problem: String, _ first: [String], _ second: [String]) -> Never {
    var text = "SluiceFuzz: \(problem)\n"
    text += "--- whole\n" + first.joined(separator: "\n") + "\n--- chunked\n" + second.joined(separator: "\n") + "\n"
    // Every byte: a name or value may hold NUL, where a C string would end the report.
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    abort()
}

/// A directory of this process for the databases of `checkImport`.
let workDirectory: String = {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    let path = "\(base)/sluice-fuzz-\(getpid())"
    mkdir(path, 0o700)
    return path
}()

/// Every attribute type, key paths, fallback keys, defaults, a required attribute, date
/// formats, a composite identity and an append-only entity; relationships of every storage:
/// a self to-one by id, a nested to-many through an inverse column, a join table to an
/// entity without identity (nested objects only), and a to-one with `relatedBy`.
let fuzzModel: Model = {
    let text = """
        {
          "root": { "items": "Item", "data.things": "Thing", "logs": "Log" },
          "entities": {
            "Item": {
              "identity": "id",
              "attributes": {
                "id": "integer",
                "name": { "type": "string", "key": ["name", "title", "meta.name"] },
                "price": { "type": "double", "key": "p.price" },
                "amount": "decimal",
                "flag": { "type": "boolean", "default": false },
                "when": "date",
                "day": { "type": "date", "key": "d", "dateFormat": "M/d/yyyy" },
                "stamp": { "type": "date", "key": "ms", "dateFormat": "unix-ms" },
                "local": { "type": "date", "key": "l", "dateFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" },
                "uid": "uuid",
                "blob": "binary",
                "extra": { "type": "json", "key": ["extra", "x.y"] },
                "req": { "type": "string", "optional": false, "default": "r", "defaultWhenMissing": true }
              },
              "relationships": {
                "parent": { "entity": "Item", "key": ["parent", "up.id"] },
                "things": { "entity": "Thing", "toMany": true, "inverse": "item", "merge": "replace" },
                "logs": { "entity": "Log", "toMany": true, "key": "logs" },
                "named": { "entity": "Item", "relatedBy": "name", "unresolved": "stub" }
              }
            },
            "Thing": {
              "identity": ["a", "b"],
              "attributes": {
                "a": "string",
                "b": { "type": "integer", "optional": false },
                "j": "json",
                "h": { "type": "date", "dateFormat": "h:mm a" }
              },
              "relationships": { "item": { "entity": "Item", "key": "item" } }
            },
            "Log": { "attributes": { "m": { "type": "string", "key": ["m", "msg.text"] }, "n": "double" } }
          }
        }
        """
    return try! Model.parse(Array(text.utf8), sourceName: "fuzz-model")
}()
