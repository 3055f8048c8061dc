/// The names `sluice infer` gives: entities from keys and file names (`stop_times` →
/// `StopTime`, `people.json` → `Person`), attributes and tables that need no quoting, and
/// names kept unique the way SQLite compares them (ASCII case ignored).
enum InferenceNaming {
    /// `stop_times` → `StopTime`, `lineItems` → `LineItem`, `people` → `Person`: the words of
    /// the key, the last one singular, each capitalised. `Item` when the key has no letters or
    /// digits.
    static func entityName(fromKey key: String) -> String {
        var parts = words(key)
        guard let last = parts.popLast() else { return "Item" }
        parts.append(singular(last))
        let name = parts.map(capitalised).joined()
        return name.first?.isNumber == true ? "Entity" + name : name
    }

    /// The file's name without its directory and extensions (`data/stops.json.gz` →
    /// `stops`), as the zero-config import names its table; nil for standard input.
    static func fileStem(_ path: String) -> String? {
        guard path != "-" else { return nil }
        var name = Substring(path.split(separator: "/").last ?? "")
        if name.lowercased().hasSuffix(".gz") { name = name.dropLast(3) }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return name.isEmpty ? nil : String(name)
    }

    /// A name that needs no quoting in SQL: the key itself when it is made of letters, digits
    /// and `_` and does not start with a digit; else each run of other characters becomes one
    /// `_` (`first name` → `first_name`, `e-mail` → `e_mail`), `_` in front of a leading digit,
    /// `field` when nothing is left.
    static func identifier(_ key: String) -> String {
        if isIdentifier(key) { return key }
        var result = ""
        var pendingSeparator = false
        for character in key {
            if character.isLetter || character.isNumber || character == "_" {
                if pendingSeparator, !result.isEmpty { result.append("_") }
                pendingSeparator = false
                result.append(character)
            } else {
                pendingSeparator = true
            }
        }
        if result.isEmpty { return "field" }
        return result.first!.isNumber ? "_" + result : result
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, !first.isNumber else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `Stop` → `stop`, `StopTime` → `stopTime`: a relationship named after an entity.
    static func lowerFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// A key naming a reference without its id suffix: `stop_id` → `stop`, `tripId` → `trip`,
    /// `StopID` → `Stop`; nil when it has none.
    static func referenceName(fromKey key: String) -> String? {
        for suffix in ["_id", "_ID", "_Id", "-id", "Id", "ID"] where key.hasSuffix(suffix) && key.count > suffix.count {
            let stem = String(key.dropLast(suffix.count))
            // `Id`/`ID` end a camel-case word only after a lowercase letter (`tripId`, not `VOID`).
            if suffix.first != "_", suffix.first != "-", stem.last?.isLowercase != true { continue }
            return stem
        }
        return nil
    }

    // MARK: Words

    /// The words of a key: split at every character that is not a letter or digit, and where
    /// a lowercase letter or digit is followed by an uppercase one (`lineItems`).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, previous.isLowercase || previous.isNumber, character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func capitalised(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    private static let irregular: [String: String] = [
        "people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse",
        "geese": "goose", "feet": "foot", "teeth": "tooth", "indices": "index", "matrices": "matrix",
        "vertices": "vertex", "criteria": "criterion", "phenomena": "phenomenon",
    ]

    /// English plural to singular for the usual cases (`stops`, `entries`, `addresses`,
    /// `boxes`, `statuses`, `people`); words that do not look plural stay as they are
    /// (`status`, `data`, `analysis`). The word's own letter case is kept.
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if let singular = irregular[lower] { return matchCase(singular, of: word) }
        guard lower.count > 2 else { return word }
        func drop(_ count: Int, adding suffix: String = "") -> String {
            String(word.dropLast(count)) + matchCase(suffix, of: word)
        }
        if lower.hasSuffix("ies"), lower.count > 4 { return drop(3, adding: "y") }
        if lower.hasSuffix("sses") || lower.hasSuffix("xes") || lower.hasSuffix("ches") || lower.hasSuffix("shes")
            || lower.hasSuffix("zzes") || lower.hasSuffix("uses") || lower.hasSuffix("ases")
        {
            return lower.hasSuffix("ouses") ? drop(1) : drop(2)
        }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") { return word }
        if lower.hasSuffix("s") { return drop(1) }
        return word
    }

    /// `suffix` in upper case when `word` is all upper case (`ENTRIES` → `ENTRY`).
    private static func matchCase(_ suffix: String, of word: String) -> String {
        word.contains(where: \.isLetter) && !word.contains(where: \.isLowercase) ? suffix.uppercased() : suffix
    }
}

/// Names already given in one scope, compared as SQLite compares identifiers (ASCII case
/// ignored), or exactly for a store that keeps names apart by case (`foldsCase: false`,
/// PostgreSQL's quoted names): `claim` hands out the name itself or the first free `name_2`,
/// `name_3`, ….
struct NameScope {
    private var taken: Set<String>
    private let foldsCase: Bool

    init(reserved: [String] = [], foldsCase: Bool = true) {
        self.foldsCase = foldsCase
        taken = Set(reserved.map { foldsCase ? Self.fold($0) : $0 })
    }

    func isFree(_ name: String) -> Bool { !taken.contains(form(name)) }

    private func form(_ name: String) -> String { foldsCase ? Self.fold(name) : name }

    /// The name, or `name_2`, `name_3`, … when taken (and when `alsoFree` refuses it); taken from now on.
    mutating func claim(_ name: String, alsoFree: (String) -> Bool = { _ in true }) -> String {
        var candidate = name
        var number = 1
        while !isFree(candidate) || !alsoFree(candidate) {
            number += 1
            candidate = "\(name)_\(number)"
        }
        taken.insert(form(candidate))
        return candidate
    }

    mutating func reserve(_ name: String) { taken.insert(form(name)) }

    static func fold(_ name: String) -> String {
        String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
