/// Keys as runs of consecutive keys, in ascending order (`TouchedRows`): `[3, 1, 2, 7, 7, 8]`
/// is `1...3` and `7...8`. A batch's keys come mostly ascending already (rows found in the
/// order their keys were issued, then the rows inserted); they are sorted only when they do not.
struct KeyRuns {
    private(set) var runs: [(first: Int64, last: Int64)] = []

    init(_ keys: [Int64]) {
        var ascending = true
        for index in keys.indices.dropFirst() where keys[index] < keys[index - 1] {
            ascending = false
            break
        }
        for key in ascending ? keys : keys.sorted() {
            // Sorted: `key - 1` is reached only when `key > last`, so it does not overflow.
            if let last = runs.last?.last, key <= last || key - 1 == last {
                runs[runs.count - 1].last = max(last, key)
            } else {
                runs.append((key, key))
            }
        }
    }
}
