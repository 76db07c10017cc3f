@testable import KeyedBlobs
import Testing

@Suite struct RateLimiterTests {
    @Test func batchesAreBookedOneAfterAnotherAtTheRate() {
        let limiter = RateLimiter(rowsPerSecond: 1_000)
        // 500 rows take half a second of the budget: the next batch starts then, whoever asks.
        #expect(limiter.book(rows: 500, now: 0) == 0)
        #expect(limiter.book(rows: 500, now: 0) == 500_000_000)
        #expect(limiter.book(rows: 100, now: 100) == 1_000_000_000)
        // After a quiet spell, a batch starts at once: unused time is not saved up.
        #expect(limiter.book(rows: 100, now: 5_000_000_000) == 5_000_000_000)
    }
}
