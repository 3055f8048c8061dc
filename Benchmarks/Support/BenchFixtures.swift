import Sluice
import SluiceFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs and databases of the benchmarks: generated once into a temporary folder (the
/// generator is deterministic, so a file of a given shape and scale is always the same).
public enum BenchFixtures {
    /// Where fixtures and databases go: `$SLUICE_BENCH_DIR`, default `/tmp/sluice-benchmarks`.
    public static let directory: String = {
        let path = getenv("SLUICE_BENCH_DIR").map { String(cString: $0) } ?? "/tmp/sluice-benchmarks"
        mkdir(path, 0o755)
        return path
    }()

    /// The Sluice repository (this file is `<repository>/Benchmarks/Support/BenchFixtures.swift`).
    public static let repository: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// A generated input of `shape` at `scale`, made if missing.
    public static func file(_ shape: FixtureShape, scale: Double) throws -> String {
        let path = "\(directory)/\(shape.rawValue)-\(scale).json"
        if access(path, F_OK) == 0 { return path }
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw FixtureError("cannot create \(temporary)") }
        defer { close(descriptor) }
        try TransitFixture(scale: scale).write(shape, to: ByteSink(fileDescriptor: descriptor))
        guard rename(temporary, path) == 0 else { throw FixtureError("cannot rename \(temporary)") }
        return path
    }

    /// The model of a shape, from `LargeFixtures/models/`.
    public static func model(_ shape: FixtureShape) throws -> Model {
        try ModelFile.load(path: "\(repository)/LargeFixtures/models/\(shape.rawValue).json").model
    }

    /// A database path in the benchmark folder, with any earlier file removed.
    public static func freshDatabase(_ name: String) -> String {
        let path = "\(directory)/\(name).sqlite"
        unlink(path)
        return path
    }

    /// One whole import of a file (`sluice import --db database --model … file`).
    @discardableResult
    public static func importFile(_ file: String, model: Model, into database: String,
                                  batchSize: Int = ImportOptions().batchSize,
                                  hooks: [String: EntityHooks] = [:]) throws -> ImportReport {
        var options = ImportOptions()
        options.batchSize = batchSize
        options.hooks = hooks
        let importer = try Importer(databasePath: database, model: model, options: options)
        try importer.importFile(file)
        return try importer.finish()
    }

    /// One whole import of bytes in memory.
    @discardableResult
    public static func importBytes(_ bytes: [UInt8], model: Model, into database: String) throws -> ImportReport {
        let importer = try Importer(databasePath: database, model: model)
        try importer.importBytes(bytes)
        return try importer.finish()
    }
}
