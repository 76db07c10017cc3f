import Foundation
import Testing
@testable import PropertyList

/// A trailer for hand-made files: offset size, ref size, object count, top object, table offset.
func trailer(offsetSize: UInt8 = 1, refSize: UInt8 = 1, count: UInt64, top: UInt64 = 0, tableOffset: UInt64) -> [UInt8] {
    func be(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (UInt64($0) * 8)) } }
    return [0, 0, 0, 0, 0, 0, offsetSize, refSize] + be(count) + be(top) + be(tableOffset)
}

let magic = Array("bplist00".utf8)

/// A binary file of `objects` (object 0 at the top), each at the byte the list gives it, with
/// one-byte offsets and references, and `sortVersion` in the trailer (CF writes 0).
func smallBinaryFile(_ objects: [[UInt8]], sortVersion: UInt8 = 0) -> Data {
    var file = magic
    var offsets: [UInt8] = []
    for object in objects {
        offsets.append(UInt8(file.count))
        file += object
    }
    let table = UInt64(file.count)
    var end = trailer(count: UInt64(objects.count), tableOffset: table)
    end[5] = sortVersion
    return Data(file + offsets + end)
}

func readBinary(_ bytes: [UInt8], _ options: PropertyListReadOptions = .default) throws(PropertyListError) -> PropertyListValue {
    try BinaryPropertyListReader(options: options).read(Data(bytes))
}

/// The error reading `bytes` stops at, nil when they read; validating them (what `lint` does)
/// must stop at the very same error, or pass when reading does.
func binaryError(_ bytes: [UInt8], _ options: PropertyListReadOptions = .default) -> PropertyListError? {
    let readError: PropertyListError?
    do throws(PropertyListError) {
        _ = try readBinary(bytes, options)
        readError = nil
    } catch {
        readError = error
    }
    var validationError: PropertyListError?
    do throws(PropertyListError) {
        try BinaryPropertyListReader(options: options).validate(Data(bytes))
    } catch {
        validationError = error
    }
    #expect(validationError == readError, "validating and reading disagree")
    expectConverterAgreesWithTheTree(Data(bytes), options)
    return readError
}

@Suite struct BinaryPropertyListReaderTests {
    @Test func readsEveryIntegerWidthWithCFSignedness() throws {
        let cases: [([UInt8], PropertyListInteger)] = [
            ([0x10, 0xFF], PropertyListInteger(255)),                                  // 1 byte, unsigned
            ([0x11, 0xFF, 0xFF], PropertyListInteger(65535)),                          // 2 bytes, unsigned
            ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], PropertyListInteger(4_294_967_295)),      // 4 bytes, unsigned
            ([0x13] + [UInt8](repeating: 0xFF, count: 8), PropertyListInteger(-1)),    // 8 bytes, signed
            ([0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8),
             PropertyListInteger(UInt64.max)),                                         // 16 bytes: UInt64.max
            // CF keeps the last eight bytes of 16, unsigned: all ones is UInt64.max, not -1.
            ([0x14] + [UInt8](repeating: 0xFF, count: 16), PropertyListInteger(UInt64.max)),
        ]
        for (object, expected) in cases {
            let file = magic + object + [8] + trailer(count: 1, tableOffset: UInt64(8 + object.count))
            #expect(try readBinary(file) == .integer(expected))
        }
    }

    /// What CF's reader takes that a stricter one would not (CFBinaryPList.c).
    @Test func readsWhatCoreFoundationReads() throws {
        // Any eighth byte of the header.
        #expect(try readBinary(Array("bplist01".utf8) + [0x09, 8] + trailer(count: 1, tableOffset: 9)) == true)
        #expect(try readBinary(Array("bplist0x".utf8) + [0x09, 8] + trailer(count: 1, tableOffset: 9)) == true)
        // References wider than eight bytes, of which the last eight count.
        #expect(try readBinary(magic + [0xA1] + [UInt8](repeating: 0, count: 8) + [1] + [0x09] + [8, 18] + trailer(refSize: 9, count: 2, tableOffset: 19)) == [true])
        // Bytes above 0x7F in an ASCII string, read as Latin 1.
        #expect(try readBinary(magic + [0x51, 0xFF] + [8] + trailer(count: 1, tableOffset: 10)) == "\u{FF}")
        // Any date: NaN, and past year 9999.
        let nan = try readBinary(magic + [0x33, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0] + [8] + trailer(count: 1, tableOffset: 17))
        guard case .date(let d) = nan else { Issue.record("\(nan)"); return }
        #expect(d.timeIntervalSinceReferenceDate.isNaN)
        #expect(try readBinary(magic + [0x33, 0x42, 0x50, 0, 0, 0, 0, 0, 0] + [8] + trailer(count: 1, tableOffset: 17))
            == .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: 0x4250_0000_0000_0000))))
        // A UID of 16 bytes, by its last eight.
        #expect(try readBinary(magic + [0x8F] + [UInt8](repeating: 0, count: 15) + [7] + [8] + trailer(count: 1, tableOffset: 25)) == .uid(7))
        // A count written as an integer of 16 bytes.
        #expect(try readBinary(magic + [0x5F, 0x14] + [UInt8](repeating: 0, count: 15) + [2] + Array("hi".utf8) + [8] + trailer(count: 1, tableOffset: 28)) == "hi")
        // An unused offset pointing into the header.
        #expect(try readBinary(magic + [0x09] + [8, 3] + trailer(count: 2, tableOffset: 9)) == true)
        // A count written as an integer of 256 bytes or more, which CF reads as 0 (it hands the
        // size to `_getSizedInt` as a byte); found by FuzzParity.
        let count256 = [UInt8](repeating: 0, count: 255) + [2]
        #expect(try readBinary(magic + [0x5F, 0x18] + count256 + [0, 8] + trailer(offsetSize: 2, count: 1, tableOffset: 266)) == "")
        #expect(try readBinary(magic + [0xAF, 0x18] + count256 + [0, 8] + trailer(offsetSize: 2, count: 1, tableOffset: 266)) == [])
    }

    @Test func aKeyWrittenTwiceKeepsTheFirstValueAsCFDoes() throws {
        var file = magic
        file += [0xD2, 1, 2, 3, 4]         // object 0 at 8: dict of keys 1, 2 and values 3, 4
        file += [0x51] + Array("a".utf8)   // object 1 at 13: "a"
        file += [0x51] + Array("a".utf8)   // object 2 at 15: "a" again
        file += [0x10, 1]                  // object 3 at 17: 1
        file += [0x10, 2]                  // object 4 at 19: 2
        file += [8, 13, 15, 17, 19]        // offset table at 21
        file += trailer(count: 5, tableOffset: 21)
        #expect(try readBinary(file) == ["a": 1])
        var all = PropertyListReadOptions()
        all.duplicateKeys = .keepAll
        #expect(try readBinary(file, all).dictionaryValue?.count == 2)
    }

    /// Two UID objects of one value are two keys for CF, whose UIDs compare by identity: both
    /// entries stay, in order. (FuzzParity met such a dictionary; the harness now compares
    /// dictionaries entry by entry, so that two keys that print alike are not one.)
    @Test func twoUIDObjectsOfOneValueAreTwoKeysAsForCF() throws {
        var file = magic
        file += [0xD2, 1, 2, 3, 4]         // object 0 at 8: dict of keys 1, 2 and values 3, 4
        file += [0x80, 7]                  // object 1 at 13: UID 7
        file += [0x80, 7]                  // object 2 at 15: UID 7 again, another object
        file += [0x51] + Array("a".utf8)   // object 3 at 17: "a"
        file += [0x51] + Array("b".utf8)   // object 4 at 19: "b"
        file += [8, 13, 15, 17, 19]        // offset table at 21
        file += trailer(count: 5, tableOffset: 21)
        let entries = try #require(try readBinary(file).dictionaryValue)
        #expect(entries.count == 2)
        #expect(entries.keys == [.uid(7), .uid(7)])
        #expect(entries.values == ["a", "b"])
        #expect(CoreFoundationVerdict.reads(Data(file)) != false)
    }

    @Test func readsOddOffsetAndReferenceWidths() throws {
        // Three-byte offsets and five-byte references are legal, if unusual.
        var file = magic
        file += [0xA1, 0, 0, 0, 0, 1]      // object 0 at 8: array of one 5-byte ref to object 1
        file += [0x10, 0x2A]               // object 1 at 14: integer 42
        file += [0, 0, 8, 0, 0, 14]        // offset table at 16: two 3-byte offsets
        file += trailer(offsetSize: 3, refSize: 5, count: 2, tableOffset: 16)
        #expect(try readBinary(file) == .array([42]))
    }

    @Test func readsUIDsOfEachWidth() throws {
        for size in 1...8 {
            let object: [UInt8] = [0x80 | UInt8(size - 1)] + [UInt8](repeating: 0, count: size - 1) + [7]
            let file = magic + object + [8] + trailer(count: 1, tableOffset: UInt64(8 + object.count))
            #expect(try readBinary(file) == .uid(7))
        }
    }

    @Test func readsNullSetsAndNonStringKeys() throws {
        var file = magic
        file += [0xD1, 1, 2]               // object 0 at 8: dict {1: 2}
        file += [0x10, 0x05]               // object 1 at 11: integer key 5
        file += [0xC2, 3, 3]               // object 2 at 13: set of two refs to object 3
        file += [0x00]                     // object 3 at 16: null
        file += [8, 11, 13, 16]            // offset table at 17
        file += trailer(count: 4, tableOffset: 17)
        let value = try readBinary(file)
        #expect(value.dictionaryValue?.keys == [.integer(PropertyListInteger(5))])
        // A set holds each member once, as CF's does.
        #expect(value.dictionaryValue?.values == [.set([.null])])
    }

    @Test func readsUTF16AndKeepsLoneSurrogatesAsCFDoes() throws {
        let good = magic + [0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00] + [8] + trailer(count: 1, tableOffset: 15)
        #expect(try readBinary(good) == .string("é😀"))
        // 0x61: one UTF-16 unit, 0xD800, a lone high surrogate: CF keeps it.
        let lone = magic + [0x61, 0xD8, 0x00] + [8] + trailer(count: 1, tableOffset: 11)
        #expect(try readBinary(lone) == .invalidUTF16String([0xD800]))
        var refusing = PropertyListReadOptions()
        refusing.preservesInvalidUTF16 = false
        #expect(binaryError(lone, refusing)?.code == .invalidValue)
        let options = PropertyListReadOptions()
        // And the raw units survive a binary round trip.
        let written = BinaryPropertyListWriter().write(.invalidUTF16String([0xD800]))
        #expect(try BinaryPropertyListReader(options: options).read(written) == .invalidUTF16String([0xD800]))
    }

    @Test func readsCountsOf15AndAboveFromAFollowingInteger() throws {
        var object: [UInt8] = [0x5F, 0x10, 20] // ASCII string, count in a 1-byte int: 20
        object += Array("abcdefghijklmnopqrst".utf8)
        let file = magic + object + [8] + trailer(count: 1, tableOffset: UInt64(8 + object.count))
        #expect(try readBinary(file) == .string("abcdefghijklmnopqrst"))
    }

    @Test func sharedObjectsAreReadOnce() throws {
        // An array of three references to the same string.
        var file = magic
        file += [0xA3, 1, 1, 1]            // object 0 at 8
        file += [0x51, 0x78]               // object 1 at 12: "x"
        file += [8, 12]                    // offset table at 14
        file += trailer(count: 2, tableOffset: 14)
        #expect(try readBinary(file) == .array(["x", "x", "x"]))
    }

    // MARK: Corrupt input

    struct Corrupt: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var code: PropertyListError.Code
        var testDescription: String { name }
    }

    static let corrupt: [Corrupt] = [
        Corrupt(name: "too short for a trailer", bytes: magic + [0x08], code: .truncated),
        // CF reads "bplist0" and any eighth byte; "bplist1…" is another format.
        Corrupt(name: "version bplist10", bytes: Array("bplist10".utf8) + [0x08, 8] + trailer(count: 1, tableOffset: 9), code: .unrecognizedFormat),
        Corrupt(name: "offset size 0", bytes: magic + [0x08, 8] + trailer(offsetSize: 0, count: 1, tableOffset: 9), code: .malformed),
        Corrupt(name: "reference size 0", bytes: magic + [0x08, 8] + trailer(refSize: 0, count: 1, tableOffset: 9), code: .malformed),
        Corrupt(name: "no objects", bytes: magic + [0x08, 8] + trailer(count: 0, tableOffset: 9), code: .malformed),
        Corrupt(name: "top object past the count", bytes: magic + [0x08, 8] + trailer(count: 1, top: 1, tableOffset: 9), code: .malformed),
        Corrupt(name: "offset table past the trailer",
                bytes: magic + [0x08, 8] + trailer(count: 2, tableOffset: 9), code: .malformed),
        Corrupt(name: "object count times offset size overflows",
                bytes: magic + [0x08, 8] + trailer(offsetSize: 8, count: UInt64.max / 4, tableOffset: 9), code: .limitExceeded),
        Corrupt(name: "table offset inside the header",
                bytes: magic + [0x08, 8] + trailer(count: 1, tableOffset: 3), code: .malformed),
        Corrupt(name: "offset pointing into the offset table",
                bytes: magic + [0x08, 9] + trailer(count: 1, tableOffset: 9), code: .malformed),
        Corrupt(name: "one-byte refs cannot name 300 objects",
                bytes: magic + [0x08] + [UInt8](repeating: 8, count: 300 * 2) + trailer(offsetSize: 2, count: 300, tableOffset: 9), code: .malformed),
        Corrupt(name: "reference past the object count",
                bytes: magic + [0xA1, 5] + [8] + trailer(count: 1, tableOffset: 10), code: .malformed),
        Corrupt(name: "array that contains itself",
                bytes: magic + [0xA1, 0] + [8] + trailer(count: 1, tableOffset: 10), code: .cycle),
        Corrupt(name: "array claiming 2^62 elements",
                bytes: magic + [0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0] + [8] + trailer(count: 1, tableOffset: 18), code: .truncated),
        Corrupt(name: "negative count",
                bytes: magic + [0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [8] + trailer(count: 1, tableOffset: 18), code: .malformed),
        Corrupt(name: "data longer than the file",
                bytes: magic + [0x4E, 1, 2] + [8] + trailer(count: 1, tableOffset: 11), code: .truncated),
        Corrupt(name: "empty UTF-16 string, which CF cannot allocate",
                bytes: magic + [0x60] + [8] + trailer(count: 1, tableOffset: 9), code: .invalidValue),
        Corrupt(name: "UID past 32 bits",
                bytes: magic + [0x84, 1, 0, 0, 0, 0] + [8] + trailer(count: 1, tableOffset: 14), code: .invalidValue),
        Corrupt(name: "offset table ending before the trailer",
                bytes: magic + [0x08, 8, 0] + trailer(count: 1, tableOffset: 9), code: .malformed),
        Corrupt(name: "integer of 32 bytes",
                bytes: magic + [0x15, 0] + [8] + trailer(count: 1, tableOffset: 10), code: .malformed),
        Corrupt(name: "real of 2 bytes",
                bytes: magic + [0x21, 0, 0] + [8] + trailer(count: 1, tableOffset: 11), code: .malformed),
        Corrupt(name: "unknown marker 0x70",
                bytes: magic + [0x70] + [8] + trailer(count: 1, tableOffset: 9), code: .malformed),
        Corrupt(name: "array as a dictionary key",
                bytes: magic + [0xD1, 1, 1, 0xA0] + [8, 11] + trailer(count: 2, tableOffset: 12), code: .invalidValue),
    ]

    @Test(arguments: corrupt)
    func corruptInputIsRefusedWithAPreciseError(_ c: Corrupt) {
        let error = binaryError(c.bytes)
        #expect(error?.code == c.code, "\(String(describing: error))")
        #expect(error?.location != PropertyListError.Location.none)
    }

    struct Limit: CustomTestStringConvertible, Sendable {
        var depth: Int
        var maximumDepth: Int
        var accepted: Bool
        var testDescription: String { "depth \(depth) with limit \(maximumDepth)" }
    }

    /// A chain of `depth` nested one-element arrays around an empty one.
    static func nested(_ depth: Int) -> [UInt8] {
        var file = magic
        var offsets: [Int] = []
        for i in 0..<depth {
            offsets.append(file.count)
            file += [0xA1, UInt8(i + 1)]
        }
        offsets.append(file.count)
        file += [0xA0]
        let table = file.count
        file += offsets.map { UInt8($0) }
        return file + trailer(count: UInt64(depth + 1), tableOffset: UInt64(table))
    }

    @Test(arguments: [
        // CF refuses an object deeper than its cap (the top at 0): the empty array inside four
        // arrays is at depth 4, so a cap of 4 reads it and the next level is refused.
        Limit(depth: 3, maximumDepth: 4, accepted: true),
        Limit(depth: 4, maximumDepth: 4, accepted: true),
        Limit(depth: 5, maximumDepth: 4, accepted: false),
        Limit(depth: 40, maximumDepth: 512, accepted: true),
        Limit(depth: 40, maximumDepth: 10, accepted: false),
    ])
    func theDepthLimitIsEnforced(_ l: Limit) {
        var options = PropertyListReadOptions()
        options.maximumDepth = l.maximumDepth
        let error = binaryError(Self.nested(l.depth), options)
        if l.accepted { #expect(error == nil) } else { #expect(error?.code == .limitExceeded) }
    }

    @Test func exponentialSharingIsCountedAgainstTheObjectLimit() {
        // Thirty arrays, each holding two references to the next: 2^30 leaves once expanded.
        var file = magic
        var offsets: [Int] = []
        for i in 0..<30 {
            offsets.append(file.count)
            file += [0xA2, UInt8(i + 1), UInt8(i + 1)]
        }
        offsets.append(file.count)
        file += [0x51, 0x78] // "x"
        let table = file.count
        file += offsets.map { UInt8($0) }
        file += trailer(count: 31, tableOffset: UInt64(table))
        let error = binaryError(file)
        #expect(error?.code == .limitExceeded)
    }
}
