import Foundation
import Testing
@testable import PropertyList

@Suite struct PropertyListValueTests {
    @Test func dictionariesWithTheSameEntriesInAnotherOrderAreEqual() {
        let a = PropertyListValue.dictionary(PropertyListDictionary([("a", 1), ("b", 2)]))
        let b = PropertyListValue.dictionary(PropertyListDictionary([("b", 2), ("a", 1)]))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func setsIgnoreOrderButArraysDoNot() {
        #expect(PropertyListValue.set([1, 2]) == .set([2, 1]))
        #expect(PropertyListValue.array([1, 2]) != .array([2, 1]))
    }

    @Test func integersCompareByValueWhateverTheirWidth() {
        #expect(PropertyListInteger(Int64(-1)) == PropertyListInteger(Int128(-1)))
        #expect(PropertyListInteger(UInt64.max).int64Value == nil)
        #expect(PropertyListInteger(UInt64.max).uint64Value == UInt64.max)
        #expect(PropertyListInteger(Int64.min).int64Value == Int64.min)
        #expect(PropertyListInteger(Int64(-5)).uint64Value == nil)
    }

    @Test func nanRealsEqualEachOther() {
        #expect(PropertyListValue.real(.nan) == .real(.nan))
    }
}
