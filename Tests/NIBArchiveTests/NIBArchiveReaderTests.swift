import BlobFixtures
import Foundation
import NIBArchive
import Testing

/// The reader on nibs built by `NIBArchiveWriter`: every value type, and hostile archives (each
/// rule of the header and tables broken on purpose, truncation at every byte, the limits).
struct NIBArchiveReaderTests {
    /// A nib with one of each value type, a shared object and a cycle (object 1 refers to 0).
    static func everyType() -> [UInt8] {
        var writer = NIBArchiveWriter()
        let root = writer.object("NSObject")
        let text = writer.string("héllo")
        let child = writer.object("MyView", [
            ("i8", .int8(-5)), ("i16", .int16(-300)), ("i32", .int32(70_000)), ("i64", .int64(-1)),
            ("yes", .bool(true)), ("no", .bool(false)), ("f", .float(1.5)), ("d", .double(-2.25)),
            ("bytes", .data(Data([0, 1, 2, 255]))), ("nothing", .null), ("parent", .object(root)), ("title", text),
        ])
        writer.set(root, "NSObject", [("IB.objectdata", .object(child)), ("again", text)])
        return writer.bytes()
    }

    @Test func everyValueTypeReadsBackAsWritten() throws {
        let archive = try NIBArchive(data: Data(Self.everyType()))
        #expect(archive.objects.count == 3)
        let fields = archive.fields(of: archive.objects[2])
        #expect(fields.map(\.key) == ["i8", "i16", "i32", "i64", "yes", "no", "f", "d", "bytes", "nothing", "parent", "title"])
        #expect(fields.map(\.value) == [.int8(-5), .int16(-300), .int32(70_000), .int64(-1), .bool(true), .bool(false), .float(1.5),
                                        .double(-2.25), .data(Data([0, 1, 2, 255])), .null, .object(0), .object(1)])
        #expect(archive.className(of: archive.objects[1]) == "NSString")
        #expect(archive.classCounts.map(\.name) == ["NSObject", "NSString", "MyView"])
    }

    @Test(arguments: [(0, [0x80] as [UInt8]), (1, [0x81]), (127, [0xFF]), (128, [0x00, 0x81]), (300, [0x2C, 0x82]),
                      (1 << 21, [0x00, 0x00, 0x00, 0x81])])
    func varintsEndAtTheByteWithTheHighBitSet(value: Int, bytes: [UInt8]) {
        #expect(NIBArchiveWriter.varint(value) == bytes)
    }

    @Test func truncationAtEveryByteIsATypedErrorNeverACrash() {
        let bytes = Self.everyType()
        for end in 0..<bytes.count {
            #expect(throws: NIBArchiveError.self) { try NIBArchive(data: Data(bytes[..<end])) }
        }
    }

    /// Overwrites the little-endian word `n` of the header (0 the format version, 2 the object
    /// count, 3 its offset…).
    static func patched(_ bytes: [UInt8], word n: Int, _ value: UInt32) -> Data {
        var copy = bytes
        for i in 0..<4 { copy[10 + 4 * n + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
        return Data(copy)
    }

    static func code(_ data: Data, options: NIBArchiveReadOptions = .default) -> NIBArchiveError.Code? {
        do {
            _ = try NIBArchive(data: data, options: options)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func theHeaderIsCheckedBeforeAnyTable() {
        let bytes = Self.everyType()
        #expect(Self.code(Data("NIBArchivX".utf8) + Data(bytes.dropFirst(10))) == .notANIBArchive)   // wrong magic
        #expect(Self.code(Data(bytes.prefix(30))) == .truncated)                                     // the header cut short
        #expect(Self.code(Self.patched(bytes, word: 2, 0xFFFF_FFFF)) == .limitExceeded)              // 4 billion objects: over the limit
        #expect(Self.code(Self.patched(bytes, word: 2, 1_000)) == .truncated)                        // more objects than bytes
        #expect(Self.code(Self.patched(bytes, word: 3, 20)) == .malformed)                           // objects inside the header
        #expect(Self.code(Self.patched(bytes, word: 5, UInt32(bytes.count + 1))) == .truncated)      // keys past the end
        #expect(Self.code(Self.patched(bytes, word: 7, 0xFFFF_FFF0)) == .truncated)                  // values far past the end
    }

    @Test func indexesBetweenTablesAreChecked() throws {
        var writer = NIBArchiveWriter()
        writer.object("NSObject", [("ref", .object(0))])
        var bytes = writer.bytes()
        let valuesOffset = Int(bytes[10 + 4 * 7])
        let objectsOffset = Int(bytes[10 + 4 * 3])
        // The reference's 4 bytes follow the value's key varint and type byte.
        bytes[valuesOffset + 2] = 9                                       // object 9 of 1
        #expect(Self.code(Data(bytes)) == .malformed)
        bytes[valuesOffset + 2] = 0
        bytes[valuesOffset + 1] = 11                                      // type 11 is not defined
        #expect(Self.code(Data(bytes)) == .malformed)
        bytes[valuesOffset + 1] = 10
        bytes[valuesOffset] = 0x85                                        // key 5 of 1
        #expect(Self.code(Data(bytes)) == .malformed)
        bytes[valuesOffset] = 0x80
        bytes[objectsOffset] = 0x83                                       // class 3 of 1
        #expect(Self.code(Data(bytes)) == .malformed)
        bytes[objectsOffset] = 0x80
        bytes[objectsOffset + 2] = 0x82                                   // values 0..<2 of 1
        #expect(Self.code(Data(bytes)) == .malformed)
        bytes[objectsOffset + 2] = 0x81
        #expect(Self.code(Data(bytes)) == nil)
    }

    @Test func aVarintLongerThanNineBytesAndTextThatIsNotUTF8AreRefused() {
        var writer = NIBArchiveWriter()
        writer.object("NSObject", [("k", .null)])
        var bytes = writer.bytes()
        let keysOffset = Int(bytes[10 + 4 * 5])
        bytes[keysOffset + 1] = 0xFF                                      // the key "k" as a lone 0xFF byte
        #expect(Self.code(Data(bytes)) == .malformed)
        // An object table whose first varint never ends within 9 bytes.
        var long = NIBArchiveWriter().bytes()
        long += [UInt8](repeating: 0x01, count: 12)
        let patched = Self.patched(Array(Self.patched(long, word: 2, 1)), word: 3, 50)
        #expect(Self.code(patched) == .malformed)
    }

    @Test(arguments: ["maximumObjectCount", "maximumValueCount", "maximumNameCount"])
    func eachLimitStopsAnArchiveJustOverIt(limit: String) {
        // The archive has 3 objects, 15 values, 15 keys and 3 class names.
        func options(_ value: Int) -> NIBArchiveReadOptions {
            var options = NIBArchiveReadOptions()
            switch limit {
            case "maximumObjectCount": options.maximumObjectCount = value
            case "maximumValueCount": options.maximumValueCount = value
            default: options.maximumNameCount = value
            }
            return options
        }
        let just = ["maximumObjectCount": 3, "maximumValueCount": 15, "maximumNameCount": 15][limit]!
        #expect(Self.code(Data(Self.everyType()), options: options(just - 1)) == .limitExceeded)
        #expect(Self.code(Data(Self.everyType()), options: options(just)) == nil)
    }

    @Test func errorsSayWhatAndWhere() {
        let error = NIBArchiveError(.malformed, "unknown value type 11 (0 to 10 are defined)", offset: 812, entry: "value 12")
        #expect(error.description == "unknown value type 11 (0 to 10 are defined) at byte 812 (value 12)")
    }
}
