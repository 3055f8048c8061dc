@_spi(Fuzzing) import Sluice

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The long mode over the space of models (byte 0 with bit 7 set): bytes 1–8 seed the
/// model generator of the property tests (`Properties/`, the test target's files linked
/// here), so the fuzzer varies the model as well as the input. Byte 9 says what the input is:
///
/// * even: the rest of the bytes, as JSON (the fuzzer's own mutations);
/// * odd: the input the property tests' generator makes from the same seed, checked also
///   against their oracle (`Oracle`): an import under `abort` succeeds exactly when the
///   oracle finds no record error, and under `skip` rejects exactly the oracle's records.
///
/// For either input: the model is accepted, the input fed whole, in small chunks and
/// through the general path maps the same, and an import under `skip` succeeds exactly when
/// the mapping did and leaves a database exactly then.
func fuzzModelSpace(_ bytes: [UInt8]) -> Int32 {
    var seed: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { seed |= UInt64(byte) << (8 * UInt64(index)) }
    var random = PropertyRandom(seed: seed)
    let generated = ModelGenerator().model(&random)
    let mode = bytes.count > 8 ? bytes[8] : 1
    let fromGenerator = mode & 1 == 1
    let generatedInput = fromGenerator ? InputGenerator(model: generated).input(&random) : nil
    let input = generatedInput.map { Array($0.text.utf8) } ?? Array(bytes.dropFirst(9))
    let chunkSize = Int(mode >> 1 & 7) + 1

    guard let model = try? Model.parse(Array(generated.modelText.utf8), sourceName: "model.json"),
          let whole = try? Fuzzing.map(input, model: model, chunkSize: max(input.count, 1))
    else { fail("the generated model is refused", generated) }
    let chunked = try! Fuzzing.map(input, model: model, chunkSize: chunkSize)
    let general = try! Fuzzing.map(input, model: model, chunkSize: chunkSize, fastPaths: false)
    if whole.lines.map(Fuzzing.withoutExcerpt) != chunked.lines.map(Fuzzing.withoutExcerpt) {
        fail("whole and chunked (\(chunkSize)) runs differ", generated)
    }
    if general != chunked { fail("the fast and general paths differ", generated) }

    let database = workDirectory + "/model-space.sqlite"
    let rejects = workDirectory + "/model-space.rejects"
    var options = ImportOptions()
    options.batchSize = Int(mode >> 4 & 3) + 1
    let skipped = Fuzzing.importInput(input, model: model, databasePath: database, rejectsPath: rejects, options: options)
    let mapFailed = whole.lines.last?.hasPrefix("error ") == true
    let exists = access(database, F_OK) == 0
    switch skipped {
    case .success:
        if !exists || mapFailed { fail("the import succeeded where the mapping failed, or left no database", generated) }
    case .failure(let error):
        if exists { fail("the import failed (\(error)) but left a database", generated) }
        if !mapFailed, error.kind != .data { fail("the import failed (\(error)) where the mapping succeeded", generated) }
    }
    unlink(database)

    if let generatedInput {
        var oracle = Oracle(model: generated)
        let expected = oracle.importRecords(generatedInput.records, abort: false)
        if case .success = skipped, expected.failure == nil {
            let lines = rejectedLineCount(rejects)
            if lines != expected.rejectedLines.count {
                fail("\(lines) records rejected, the oracle rejects \(expected.rejectedLines.count)", generated)
            }
        } else if case .success = skipped {
            fail("the import succeeded, the oracle expects it to fail: \(expected.failure ?? "")", generated)
        } else if expected.failure == nil {
            fail("the import failed, the oracle expects it to succeed", generated)
        }
        var abortOracle = Oracle(model: generated)
        let abortExpected = abortOracle.importRecords(generatedInput.records, abort: true)
        options.onError = .abort
        var aborted = true
        do {
            let importer = try Importer(databasePath: database, model: model, options: options)
            try importer.importBytes(input)
            _ = try importer.finish()
            aborted = false
        } catch {}
        if aborted != (abortExpected.failure != nil) {
            fail("under abort the import \(aborted ? "failed" : "succeeded"), the oracle: \(abortExpected.failure ?? "success")",
                 generated)
        }
        unlink(database)
    }
    unlink(rejects)
    return 0
}

private func rejectedLineCount(_ path: String) -> Int {
    guard let file = fopen(path, "r") else { return 0 }
    defer { fclose(file) }
    var count = 0
    while true {
        let character = fgetc(file)
        if character == EOF { break }
        if character == 10 { count += 1 }
    }
    return count
}

private func fail(_ problem: String, _ model: PropertyModel) -> Never {
    let text = "SluiceFuzz (model space): \(problem)\nmodel: \(model.modelText)\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    abort()
}
