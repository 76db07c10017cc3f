import KeyedBlobs
import Testing

/// The words beside the progress bar of `scan` and `migrate`.
@Suite struct RowProgressTests {
    @Test func theLineSaysRowsRateAndTimeLeft() {
        let progress = ScanProgress(processed: 1_000, total: 4_000, elapsed: 2)
        #expect(progress.fraction == 0.25)
        #expect(progress.detail() == "1,000/4,000 rows  500 rows/s  ETA 6 s")
    }

    @Test func failedRowsAndAPauseAreSaidWhenThereAreAny() {
        let progress = ScanProgress(processed: 10, total: 10, elapsed: 0)
        #expect(progress.detail(failed: 3, note: "paused: replication lag 12 s")
                == "10/10 rows  0 rows/s  3 failed  paused: replication lag 12 s")
        #expect(progress.detail(failed: 0) == "10/10 rows  0 rows/s", "no rate yet: no time left is guessed")
    }

    @Test func workWithNoRowsIsDone() {
        #expect(ScanProgress(processed: 0, total: 0, elapsed: 1).fraction == 1)
        #expect(ScanProgress(processed: 12, total: 10, elapsed: 1).fraction == 1, "rows added since the count do not overfill the bar")
    }
}
