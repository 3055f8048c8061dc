@_spi(Fuzzing) import Sluice

#if canImport(Glibc)
import Glibc
#endif

/// The Core Data names' target (`SLUICE_FUZZ_TARGET=coredata`): the input's bytes choose a
/// Core Data model of names of every kind (`CoreDataNameCase`, the test target's file, linked
/// into `Properties/`), which `check --layout coredata` must accept exactly when an import
/// into a new Core Data store writes it, under Core Data's table and column names; a refusal
/// is the same usage error from both, never SQLite's text, and leaves no store.
func fuzzCoreDataNames(_ input: [UInt8]) -> Int32 {
    var bytes = ByteCursor(input)
    let model = CoreDataNameCase { count in
        count <= 256 ? Int(bytes.next()) % count : (Int(bytes.next()) | Int(bytes.next()) << 8) % count
    }
    var accepted = false
    if let problem = model.check(in: coreDataDirectory, accepted: &accepted) {
        report("Core Data names: \(problem)", [model.description], [model.contents])
    }
    return 0
}

/// An empty directory of this process for the model and store of each input.
let coreDataDirectory: String = {
    let path = workDirectory + "/coredata"
    mkdir(path, 0o700)
    return path
}()
