import Foundation
import Testing
@testable import PropertyList

/// A value with every kind a binary plist holds, for round trips.
let everyKind: PropertyListValue = {
    var d = PropertyListDictionary()
    func add(_ key: String, _ value: PropertyListValue) { d.append(key: .string(key), value: value) }
    add("ascii", .string("hello"))
    add("unicode", .string("héllo wörld ✓ 😀"))
    add("empty", .string(""))
    add("small", .integer(PropertyListInteger(7)))
    add("negative", .integer(PropertyListInteger(-1)))
    add("int64min", .integer(PropertyListInteger(Int64.min)))
    add("uint64max", .integer(PropertyListInteger(UInt64.max)))
    add("big16", .integer(PropertyListInteger(Int128(Int64.min) * 4)))
    add("real", .real(3.25))
    add("tiny", .real(1e-300))
    add("true", .bool(true))
    add("false", .bool(false))
    add("date", .date(Date(timeIntervalSinceReferenceDate: 123_456_789.5)))
    add("data", .data(Data([0, 1, 2, 254, 255])))
    add("bigData", .data(Data((0..<300).map { UInt8($0 & 0xFF) })))
    let array: [PropertyListValue] = [.integer(PropertyListInteger(1)), .string("two"), .real(3.0), .array([.bool(false)])]
    add("array", .array(array))
    add("nested", .dictionary(PropertyListDictionary([(.string("inner"), .dictionary(PropertyListDictionary([(.string("deeper"), .string("yes"))])))])))
    return .dictionary(d)
}()

@Suite struct BinaryPropertyListWriterTests {
    @Test func everyKindOfValueRoundTrips() throws {
        let data = BinaryPropertyListWriter().write(everyKind)
        #expect(try BinaryPropertyListReader().read(data) == everyKind)
    }

    @Test func valuesOnlyBinaryCanHoldRoundTrip() throws {
        var d = PropertyListDictionary()
        d.append(key: .integer(PropertyListInteger(1)), value: .uid(300))
        d.append(key: .data(Data([1])), value: .null)
        let value = PropertyListValue.array([.dictionary(d), .set(["a", "b"]), .uid(UInt64.max)])
        #expect(try BinaryPropertyListReader().read(BinaryPropertyListWriter().write(value)) == value)
    }

    @Test func equalScalarsAreStoredOnce() throws {
        let value: PropertyListValue = ["same", "same", "same", 1, 1, true]
        let data = BinaryPropertyListWriter().write(value)
        // Objects: the array, "same", 1, true.
        let count = data.suffix(24).prefix(8).reduce(0) { $0 << 8 | Int($1) }
        #expect(count == 4)
    }

    @Test func stringsAreASCIIOrUTF16AsCFChooses() {
        let ascii = BinaryPropertyListWriter().write("abc")
        #expect(ascii[8] == 0x53)
        let utf16 = BinaryPropertyListWriter().write("é")
        #expect(utf16[8] == 0x61)
        #expect(Array(utf16[9...10]) == [0x00, 0xE9])
    }

    @Test func integersUseTheSmallestCFWidth() {
        func marker(_ v: PropertyListInteger) -> UInt8 { BinaryPropertyListWriter().write(.integer(v))[8] }
        #expect(marker(PropertyListInteger(255)) == 0x10)
        #expect(marker(PropertyListInteger(256)) == 0x11)
        #expect(marker(PropertyListInteger(70000)) == 0x12)
        #expect(marker(PropertyListInteger(1 << 40)) == 0x13)
        #expect(marker(PropertyListInteger(-1)) == 0x13)
        #expect(marker(PropertyListInteger(UInt64.max)) == 0x14)
    }

    @Test func referenceWidthGrowsWithTheObjectCount() throws {
        let value = PropertyListValue.array((0..<300).map { .integer(PropertyListInteger($0)) })
        let data = BinaryPropertyListWriter().write(value)
        #expect(data[data.count - 25] == 2) // ref size
        #expect(try BinaryPropertyListReader().read(data) == value)
    }

    @Test func theOutputIsWhatCFWritesForASmallDictionary() throws {
        // Foundation on Linux runs CF's own writer: the bytes must match.
        let value: PropertyListValue = ["a": 1, "b": "x"]
        let ours = BinaryPropertyListWriter().write(value)
        let theirs = try PropertyListSerialization.data(fromPropertyList: ["a": 1, "b": "x"] as NSDictionary, format: .binary, options: 0)
        #expect(try BinaryPropertyListReader().read(theirs) == value)
        #expect(ours.count == theirs.count)
    }
}
