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
        let memo = RepeatedValueMemo<Int>(maximumValueSize: 10, maximumTotalSize: 30, entryOverhead: 0)
        for value in 0..<3 { _ = memo.result(for: Data(repeating: UInt8(value), count: 10)) { value } }
        #expect(memo.count == 3)
        #expect(memo.result(for: Data(repeating: 1, count: 10)) { -1 } == 1, "found again: the column repeats")
        // A fourth value would pass 30 bytes: the memo is emptied, then keeps the new one.
        _ = memo.result(for: Data(repeating: 9, count: 10)) { 9 }
        #expect(memo.count == 1)
        #expect(memo.result(for: Data(repeating: 9, count: 10)) { -1 } == 9)
        #expect(memo.result(for: Data(repeating: 0, count: 10)) { -1 } == -1)
    }

    @Test func eachValueIsCountedWithItsResultsShareOfMemory() {
        // 100 bytes of room, 10-byte values costing 40 with their results: two fit, not ten.
        let memo = RepeatedValueMemo<Int>(maximumValueSize: 10, maximumTotalSize: 100, entryOverhead: 30)
        for value in 0..<2 { _ = memo.result(for: Data(repeating: UInt8(value), count: 10)) { value } }
        #expect(memo.result(for: Data(repeating: 0, count: 10)) { -1 } == 0)
        #expect(memo.count == 2)
        _ = memo.result(for: Data(repeating: 7, count: 10)) { 7 }
        #expect(memo.count == 1, "the third filled it: started over, keeping the new value")
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
        // Room for 10 values of 10 bytes: the 11th finds it full, with no value ever found again.
        let memo = RepeatedValueMemo<Int>(maximumValueSize: 10, maximumTotalSize: 100, entryOverhead: 0)
        for value in 0..<11 { _ = memo.result(for: Data(repeating: UInt8(value), count: 10)) { value } }
        #expect(memo.count == 0)
        let maker = Maker()
        _ = memo.result(for: Data("seen twice".utf8)) { maker.makeNumber() }
        _ = memo.result(for: Data("seen twice".utf8)) { maker.makeNumber() }
        #expect(maker.count == 2, "made each time while standing aside")
        // After standing aside it tries again, and a repeating column is remembered once more.
        for value in 0..<RepeatedValueMemo<Int>.minimumStandAside { _ = memo.result(for: withUnsafeBytes(of: value) { Data($0) }) { value } }
        let again = Maker()
        _ = memo.result(for: Data("seen twice".utf8)) { again.makeNumber() }
        _ = memo.result(for: Data("seen twice".utf8)) { again.makeNumber() }
        #expect(again.count == 1)
    }

    @Test func aColumnThatStillDoesNotRepeatIsLeftAloneTwiceAsLongEachTime() {
        let memo = RepeatedValueMemo<Int>(maximumValueSize: 10, maximumTotalSize: 100, entryOverhead: 0)
        let aside = RepeatedValueMemo<Int>.minimumStandAside
        var next = 0
        func distinct(_ count: Int) {
            for _ in 0..<count {
                // 10 bytes each: 10 values fill it.
                _ = memo.result(for: withUnsafeBytes(of: next) { Data($0) } + Data([0, 0])) { 0 }
                next += 1
            }
        }
        // Filled for nothing once: aside for `minimumStandAside` values; then filled for
        // nothing again (11 values fill it): aside for twice as many.
        distinct(11 + aside + 11)
        distinct(aside)
        let maker = Maker()
        _ = memo.result(for: Data("seen twice".utf8)) { maker.makeNumber() }
        _ = memo.result(for: Data("seen twice".utf8)) { maker.makeNumber() }
        #expect(maker.count == 2, "still standing aside after one period")
        distinct(aside - 2)
        let again = Maker()
        _ = memo.result(for: Data("seen twice".utf8)) { again.makeNumber() }
        _ = memo.result(for: Data("seen twice".utf8)) { again.makeNumber() }
        #expect(again.count == 1, "remembering again after two periods")
    }

    @Test func aPaletteWhoseColorsAllComeOnceBeforeAnyRepeatsIsStillRemembered() {
        // 5,000 values in a fixed cycle (as a table whose ids map one to one onto a palette):
        // the first pass finds nothing again, the second finds everything.
        let memo = RepeatedValueMemo<Int>()
        let maker = Maker()
        for pass in 0..<3 {
            for value in 0..<5_000 {
                _ = memo.result(for: withUnsafeBytes(of: value) { Data($0) }) { maker.makeNumber() + pass }
            }
        }
        #expect(maker.count == 5_000)
    }

    @Test func aColumnThatRepeatsEnoughKeepsItsMemoWhenFull() {
        // Room for 100 values; one value in eight is a common one, found again every time.
        let memo = RepeatedValueMemo<Int>(maximumValueSize: 8, maximumTotalSize: 800, entryOverhead: 0)
        let maker = Maker()
        for value in 0..<1_000 {
            let bytes = value % 8 == 0 ? Data("common".utf8) : withUnsafeBytes(of: value) { Data($0) }
            _ = memo.result(for: bytes) { maker.makeNumber() }
        }
        // Never stood aside: the common value was made once per start-over, not once per row.
        #expect(maker.count < 1_000 - 100)
    }
}
