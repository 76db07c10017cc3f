import Sweep
import Testing

/// The words and the fill of `sweep`'s progress bar.
@Suite struct SweepProgressTests {
    @Test func aQuarterOfTheBytesReadFillsAQuarterOfTheBar() {
        let progress = SweepProgress(examined: 3, items: 7, bytes: 50_000_000, totalBytes: 200_000_000, elapsed: 1)
        #expect(progress.fraction == 0.25)
        #expect(progress.detail == "3 files  7 items  50.0 MB / 200.0 MB  50.0 MB/s  ETA 3 s")
    }

    @Test func pathsWithNoBytesLeaveTheBarEmpty() {
        #expect(SweepProgress(examined: 0, items: 0, bytes: 0, totalBytes: 0, elapsed: 0).fraction == 0)
    }
}
