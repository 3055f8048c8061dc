/// Test-only: holds an import at one point until the test lets it go, so that a test can make
/// another process act at exactly that moment (`Tests/SluiceCLITests/NewDatabaseRaceTests`).
///
/// Set `SLUICE_TEST_PAUSE_BEFORE_PLACING_DATABASE=GATE` (a path): just before moving a new
/// database into place, the import creates `GATE.waiting`, then waits until `GATE` exists.
/// Unset (always, outside the tests), it costs one `getenv` per new database.
enum TestPause {
    enum Point: String {
        case beforePlacingNewDatabase = "SLUICE_TEST_PAUSE_BEFORE_PLACING_DATABASE"
    }

    static func wait(_ point: Point) {
        guard let gate = SystemCalls.environment(point.rawValue), !gate.isEmpty else { return }
        let marker = SystemCalls.createForWriting(gate + ".waiting")
        if marker >= 0 { SystemCalls.close(marker) }
        while SystemCalls.status(ofPath: gate) == nil {
            SystemCalls.sleep(milliseconds: 10)
        }
    }
}
