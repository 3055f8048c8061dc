import Foundation

/// Waits up to `seconds` for `condition`, which another thread makes true (a reading or
/// flushing thread that runs on its own schedule); false when it never does.
func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(500)
    }
    return true
}
