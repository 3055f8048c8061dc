/// "Did you mean": for a name that is not known (a model field, an entity, an attribute), the
/// known name nearest to it, when it is close enough to be a typo.
///
/// Close means at most two edits, and no more than a third of the name's length, so that
/// short names are not matched to anything: `idnetity` → `identity`, `Stp` → `Stop`,
/// `to_many` → `toMany`, but nothing for `nope` or `F`. An edit is an insertion, a
/// deletion, a substitution or two neighbours swapped; letter case is ignored, and a name
/// that differs only in case is always suggested.
package enum NameSuggestion {
    /// At most this many names are listed in a message; a model may have hundreds.
    static let listLimit = 20

    package static func nearest(to name: String, among known: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased())
        let limit = min(2, typed.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in known.sorted() where candidate != name {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `; did you mean "identity"?`, or nothing when no known name is close.
    static func didYouMean(_ name: String, among known: some Sequence<String>) -> String {
        nearest(to: name, among: known).map { "; did you mean \(ModelProblem.quote($0))?" } ?? ""
    }

    /// `unknown entity "Stp"; the model has: Route, Stop, StopTime, Trip; did you mean "Stop"?`
    static func unknownEntity(_ name: String, entities: [String]) -> String {
        let sorted = entities.sorted()
        var list = sorted.prefix(listLimit).joined(separator: ", ")
        if sorted.count > listLimit { list += " and \(sorted.count - listLimit) more" }
        let known = sorted.isEmpty ? "" : "; the model has: \(list)"
        return "unknown entity \(ModelProblem.quote(name))\(known)\(didYouMean(name, among: sorted))"
    }

    /// Edits from `a` to `b`, a swap of neighbours counting as one (optimal string alignment).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
