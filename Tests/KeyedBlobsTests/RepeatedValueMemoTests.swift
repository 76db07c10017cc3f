import Foundation
@testable import KeyedBlobs
import Synchronization
import Testing

@Suite struct RepeatedValueMemoTests {
    /// Counts how often the memo asks for a result to be made.
    final class Maker: Sendable {
        let calls = Mutex(0)
        func make(_ value: String) -> String {
            calls.withLock { $0 += 1 }
            return value
        }
        func makeNumber() -> Int {
            calls.withLock { $0 += 1 }
            return 0
        }
        var count: Int { calls.withLock { $0 } }
    }

    @Test func aValueSeenAgainIsNotMadeAgain() {
        let memo = RepeatedValueMemo<String>()
        let maker = Maker()
        for _ in 0..<5 {
            #expect(memo.result(for: Data("same bytes".utf8)) { maker.make("made") } == "made")
        }
        #expect(maker.count == 1)
        #expect(memo.count == 1)
    }

    @Test func valuesThatShareALongPrefixAreKeptApart() {
        // Archives of one shape share their first hundreds of bytes; only the end differs.
        let prefix = Data(repeating: 0x62, count: 300)
        let memo = RepeatedValueMemo<String>()
        #expect(memo.result(for: prefix + Data([1])) { "one" } == "one")
        #expect(memo.result(for: prefix + Data([2])) { "two" } == "two")
        #expect(memo.result(for: prefix + Data([1])) { "not remembered" } == "one")
        #expect(memo.result(for: prefix + Data([2])) { "not remembered" } == "two")
    }

    @Test func textAndBytesWithTheSameContentAreTwoValues() {
        let memo = RepeatedValueMemo<String>()
        #expect(memo.result(for: Data("{}".utf8), isText: false) { "bytes" } == "bytes")
        #expect(memo.result(for: Data("{}".utf8), isText: true) { "text" } == "text")
        #expect(memo.count == 2)
    }

    @Test func aValueLargerThanTheLimitIsNeverKept() {
        let memo = RepeatedValueMemo<String>(maximumValueSize: 8)
        let maker = Maker()
        let large = Data(repeating: 7, count: 9)
        _ = memo.result(for: large) { maker.make("a") }
        _ = memo.result(for: large) { maker.make("a") }
        #expect(maker.count == 2)
        #expect(memo.count == 0)
    }

    @Test func theMemoStartsOverWhenItHoldsItsLimitInBytes() {
        let memo = RepeatedValueMemo<Int>(maximumValueSize: 10, maximumTotalSize: 30)
        for value in 0..<3 { _ = memo.result(for: Data(repeating: UInt8(value), count: 10)) { value } }
        #expect(memo.count == 3)
        // A fourth value would pass 30 bytes: the memo is emptied, then keeps the new one.
        _ = memo.result(for: Data(repeating: 9, count: 10)) { 9 }
        #expect(memo.count == 1)
        #expect(memo.result(for: Data(repeating: 9, count: 10)) { -1 } == 9)
        #expect(memo.result(for: Data(repeating: 0, count: 10)) { -1 } == -1)
    }

    @Test func aRowSlicedFromABatchBufferMatchesTheSameBytesOnTheirOwn() {
        // A row read as a slice of a large batch buffer (kept as a copy of its own).
        let buffer = Data(repeating: 3, count: 1 << 20)
        let memo = RepeatedValueMemo<Int>()
        let row = buffer[1_000..<1_016]
        _ = memo.result(for: row) { 1 }
        #expect(memo.result(for: Data(repeating: 3, count: 16)) { 2 } == 1)
    }

    @Test func aColumnWhoseValuesNeverRepeatIsLeftAloneForAWhile() {
        let memo = RepeatedValueMemo<Int>()
        let window = RepeatedValueMemo<Int>.window
        // A first window of distinct values: no hits, so the memo empties and stands aside.
        for value in 0..<window { _ = memo.result(for: withUnsafeBytes(of: value) { Data($0) }) { value } }
        #expect(memo.count == 0)
        let maker = Maker()
        _ = memo.result(for: Data("seen twice".utf8)) { maker.makeNumber() }
        _ = memo.result(for: Data("seen twice".utf8)) { maker.makeNumber() }
        #expect(maker.count == 2, "made each time while standing aside")
        // After standing aside it tries again, and a repeating column is remembered once more.
        for value in 0..<RepeatedValueMemo<Int>.standAsideFor { _ = memo.result(for: withUnsafeBytes(of: value) { Data($0) }) { value } }
        let again = Maker()
        _ = memo.result(for: Data("seen twice".utf8)) { again.makeNumber() }
        _ = memo.result(for: Data("seen twice".utf8)) { again.makeNumber() }
        #expect(again.count == 1)
    }

    @Test func aColumnThatRepeatsEnoughKeepsItsMemo() {
        let memo = RepeatedValueMemo<Int>()
        // One value in eight repeats a single common value: above one in 16, so nothing is dropped.
        for value in 0..<(3 * RepeatedValueMemo<Int>.window) {
            let bytes = value % 8 == 0 ? Data("common".utf8) : withUnsafeBytes(of: value) { Data($0) }
            _ = memo.result(for: bytes) { value }
        }
        #expect(memo.count > RepeatedValueMemo<Int>.window)
    }
}
