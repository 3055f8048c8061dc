import Testing
@testable import Sluice

extension StoreTests {
    /// `KeyRuns`: keys in any order, repeated, up to the ends of `Int64`, as ascending runs.
    @Suite struct KeyRunsTests {
        @Test func keysBecomeAscendingRunsOfConsecutiveKeys() {
            func runs(_ keys: [Int64]) -> [[Int64]] { KeyRuns(keys).runs.map { [$0.first, $0.last] } }
            #expect(runs([]).isEmpty)
            #expect(runs([5]) == [[5, 5]])
            #expect(runs([1, 2, 3, 7, 8, 10]) == [[1, 3], [7, 8], [10, 10]])
            #expect(runs([3, 1, 2, 7, 7, 8, 2]) == [[1, 3], [7, 8]])
            #expect(runs([.max, .min, .max - 1, .min + 1, 0]) == [[.min, .min + 1], [0, 0], [.max - 1, .max]])
        }
    }
}
