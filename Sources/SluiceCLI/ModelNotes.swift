import Sluice

/// How the notes of a Core Data model reach the user (`docs/cli.md`): `check` and
/// `convert-model` print each one; `import` and `schema`, which run with the model as it
/// converts, print one line that counts them and says where to read them.
enum ModelNotes {
    /// `sluice: note: MODEL: PATH: MESSAGE`, one line per note, on stderr.
    static func printAll(of file: ModelFile) {
        for note in file.notes { Diagnostics.writeLine("sluice: note: \(file.path): \(note)") }
    }

    static func printSummary(of file: ModelFile) {
        guard !file.notes.isEmpty else { return }
        Diagnostics.writeLine("sluice: note: \(file.path): \(count(file)) on the Core Data model; "
                                + "sluice check --model \(file.path) lists them")
    }

    /// `1 note`, `13 notes`.
    static func count(_ file: ModelFile) -> String {
        file.notes.count == 1 ? "1 note" : "\(file.notes.count) notes"
    }
}
