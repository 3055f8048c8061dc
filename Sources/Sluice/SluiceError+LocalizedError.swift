// FoundationEssentials (Foundation on Apple platforms) for `LocalizedError` only: the command
// line links it already, and without it an app's `error.localizedDescription` reads "The
// operation could not be completed. (Sluice.SluiceError error 1.)".
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an app shows (`localizedDescription`, SwiftUI's alerts) is the line the command prints
/// after `sluice: error: `: the place, then what is wrong.
extension SluiceError: LocalizedError {
    /// The error's one line, `description`: the place, then what is wrong.
    public var errorDescription: String? { description }
}

/// Every problem, one per line, each after the model's name.
extension ModelError: LocalizedError {
    /// Every problem of the model, one line each, `description`.
    public var errorDescription: String? { description }
}
