import Foundation
@testable import Sluice
import Testing

/// The Store layer's suites, nested here so `swift test --filter Store` selects them.
@Suite enum StoreTests {}

extension Connection {
    /// The single integer of a query, for assertions.
    func integer(_ sql: String) throws -> Int64? {
        try scalar(sql)?.integerValue
    }
}
