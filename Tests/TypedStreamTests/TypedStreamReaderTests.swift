import Foundation
import Testing
@testable import TypedStream
import TypedStreamFixtures

/// Streams built value by value with the test writer (TypedStreamFixtures), in both byte orders.
struct TypedStreamReaderTests {
    typealias F = FoundationTypedStreamObjects

    static let orders: [TypedStreamWriter.Order] = [.little, .big]

    @Test(arguments: orders)
    func integersOfEveryWidthReadBackInEitherByteOrder(order: TypedStreamWriter.Order) throws {
        var writer = TypedStreamWriter(byteOrder: order)
        let values: [Int64] = [0, 1, -1, 127, -110, -111, 128, -128, 300, -300, 32767, -32767, 32768, -32768, 70000, Int64(Int32.max), Int64(Int32.min + 1), -9_000_000_000, Int64.max, Int64.min]
        writer.writeGroup(String(repeating: "i", count: values.count), values.map { .integer($0) })
        let stream = try TypedStream(data: writer.data)
        #expect(stream.header.byteOrder == (order == .big ? .bigEndian : .littleEndian))
        #expect(stream.contents[0].values == values.map { .integer($0) })
    }

    @Test func unsignedIntegersAreReadAsTheirCTypeReadsThem() throws {
        var writer = TypedStreamWriter()
        // -1 written for an unsigned int is 4294967295, for an unsigned short 65535.
        writer.writeGroup("ISCQ", [.integer(-1), .integer(-1), .unsignedChar(200), .integer(-2)])
        let stream = try TypedStream(data: writer.data)
        #expect(stream.contents[0].values == [.unsignedInteger(4_294_967_295), .unsignedInteger(65535), .unsignedInteger(200), .unsignedInteger(UInt64.max - 1)])
    }

    @Test(arguments: orders)
    func realsReadBackWhetherWrittenAsIntegersOrAfterTheRealTag(order: TypedStreamWriter.Order) throws {
        var writer = TypedStreamWriter(byteOrder: order)
        writer.writeGroup("ffdd", [.float(2), .float(0.1), .double(-40000), .double(0.1)])
        let stream = try TypedStream(data: writer.data)
        #expect(stream.contents[0].values == [.float(2), .float(0.1), .double(-40000), .double(0.1)])
    }

    @Test func sharedObjectsAreOneObjectAndCyclesAreReferencesBack() throws {
        var writer = TypedStreamWriter()
        let shared = F.string("shared")
        let array = F.array([shared, shared], mutable: true)
        // The array holds itself: a cycle through a reference to an object still being read.
        array.groups.append(("@", [.object(array)]))
        array.groups[0] = ("i", [.integer(3)])
        writer.writeRoot(array)
        let stream = try TypedStream(data: writer.data)
        #expect(stream.objects.count == 2)
        let root = stream.objects[0]
        #expect(stream.classChain(of: root) == ["NSMutableArray", "NSArray", "NSObject"])
        #expect(root.groups.map(\.values) == [[.integer(3)], [.object(1)], [.object(1)], [.object(0)]])
        #expect(stream.classes.map(\.name) == ["NSMutableArray", "NSArray", "NSObject", "NSString"])
        #expect(stream.classes[3].superclass == 2)
        #expect(stream.classes[3].version == 1)
    }

    @Test func cStringsSelectorsAndClassesAreSharedAsNSArchiverSharesThem() throws {
        var writer = TypedStreamWriter()
        writer.writeGroup("**::#", [.cString("abc"), .cString("abc"), .sharedString("copy:"), .sharedString("copy:"), .classObject([("NSView", 41), ("NSResponder", 0), ("NSObject", 0)])])
        writer.writeGroup("#*", [.classObject([("NSView", 41)]), .cString(nil)])
        let stream = try TypedStream(data: writer.data)
        #expect(stream.contents[0].values == [.cString(Array("abc".utf8)), .cString(Array("abc".utf8)), .selector("copy:"), .selector("copy:"), .classReference(0)])
        #expect(stream.contents[1].values == [.classReference(0), .null])
        #expect(stream.classChain(ofClass: 0) == ["NSView", "NSResponder", "NSObject"])
    }

    @Test func structsArraysUnionsAndPointersReadAsTheirEncodingsSay() throws {
        var writer = TypedStreamWriter()
        writer.writeGroup("{_NSRect={_NSPoint=ff}{_NSSize=ff}}[3s][4c](?=ic)^i!B", [
            .sequence([.float(1), .float(2.5), .float(3), .float(4)]),
            .sequence([.integer(1), .integer(-2), .integer(300)]),
            .bytes([9, 8, 7, 6]),
            .bytes([1, 2, 3, 4]),
            .integer(42),
            .unsignedChar(1),
        ])
        let stream = try TypedStream(data: writer.data)
        #expect(stream.contents[0].values == [
            .structure(name: "_NSRect", fields: [.structure(name: "_NSPoint", fields: [.float(1), .float(2.5)]), .structure(name: "_NSSize", fields: [.float(3), .float(4)])]),
            .array([.integer(1), .integer(-2), .integer(300)]),
            .byteArray(Data([9, 8, 7, 6])),
            .union(Data([1, 2, 3, 4])),
            .integer(42),
            .ignored,
            .bool(true),
        ])
    }

    @Test func aStreamCutAtAnyByteIsCalledTruncatedAndNeverMisread() throws {
        var writer = TypedStreamWriter()
        let dictionary = F.dictionary([(F.string("k"), F.number(70000)), (F.string("d"), F.data([1, 2, 3]))])
        writer.writeRoot(F.array([dictionary, F.date(1.5), F.color(kind: 1, components: [0.1, 0.2, 0.3, 1])]))
        let whole = writer.data
        _ = try TypedStream(data: whole)
        // 16 bytes are the header alone: a stream with no values, which reads as empty.
        #expect(try TypedStream(data: whole.prefix(16)).contents.isEmpty)
        for cut in 14 ..< whole.count where cut != 16 {
            #expect(throws: TypedStreamError.self) { try TypedStream(data: whole.prefix(cut)) }
            do {
                _ = try TypedStream(data: whole.prefix(cut))
            } catch {
                #expect(error.code == .truncated, "cut at \(cut): \(error)")
                #expect(error.offset <= cut)
            }
        }
    }

    @Test func bytesThatAreNoTypedStreamAreNotOne() {
        #expect(!TypedStream.isTypedStream(Data("bplist00".utf8)))
        #expect(!TypedStream.isTypedStream(Data([4, 11] + Array("typedstreaX".utf8))))
        #expect(TypedStream.isTypedStream(Data([4, 11] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03])))
        #expect(throws: TypedStreamError.self) { try TypedStream(data: Data("hello".utf8)) }
    }

    @Test func streamerVersionThreeIsRefusedByName() throws {
        let writer = TypedStreamWriter(streamerVersion: 3)
        #expect { try TypedStream(data: writer.data) } throws: { ($0 as? TypedStreamError)?.code == .unsupportedVersion }
    }
}

/// Streams no archiver writes: each is refused with what is wrong and where, or bounded by a limit.
struct HostileTypedStreamTests {
    typealias F = FoundationTypedStreamObjects

    /// A header, then `tail`.
    static func stream(_ tail: [UInt8]) -> Data {
        Data([4, 11] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03] + tail)
    }

    static func error(_ data: Data, options: TypedStreamReadOptions = .default) -> TypedStreamError? {
        do {
            _ = try TypedStream(data: data, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func referencesPastTheirTablesAreMalformed() {
        // `@` as a new shared string, then a reference to object 5 of none.
        let e = Self.error(Self.stream([0x84, 0x01, 0x40, 0x92 + 5]))
        #expect(e?.code == .malformed)
        #expect(e?.message.contains("reference 5 to the object table, which has 0 entries") == true)
        // A group whose encoding refers to shared string 3 of 0.
        #expect(Self.error(Self.stream([0x92 + 3]))?.code == .malformed)
    }

    @Test func anObjectReferenceToAClassIsMalformed() {
        var writer = TypedStreamWriter()
        writer.writeGroup("#", [.classObject([("A", 0)])])
        writer.writeRaw([0x84, 0x01, 0x40, 0x92]) // a new "@" group referring to entry 0, a class
        let e = Self.error(writer.data)
        #expect(e?.message.contains("which is not an object") == true)
    }

    @Test func unknownTypeCodesAndBrokenEncodingsAreMalformedWithTheirEncoding() {
        for encoding in ["z", "[c]", "[5", "{_NSPoint=ff", "(?=ic", "bi", ""] {
            var writer = TypedStreamWriter()
            writer.writeGroup(encoding, [])
            #expect(Self.error(writer.data)?.code == .malformed, "\(encoding)")
        }
    }

    @Test func anArrayLongerThanTheBytesLeftIsRefusedBeforeItIsRead() {
        var writer = TypedStreamWriter()
        writer.writeGroup("[2000000000i]", [.integer(1)])
        #expect(Self.error(writer.data)?.code == .truncated)
        var bytes = TypedStreamWriter()
        bytes.writeGroup("[2000000000c]", [.bytes([1])])
        #expect(Self.error(bytes.data)?.code == .truncated)
    }

    @Test func anArrayOfSkippedFieldsStopsAtTheValueLimit() {
        var writer = TypedStreamWriter()
        writer.writeGroup("[2000000000!]", [])
        var options = TypedStreamReadOptions()
        options.maximumValueCount = 1000
        #expect(Self.error(writer.data, options: options)?.code == .limitExceeded)
    }

    @Test func nestingDeeperThanTheLimitIsRefused() {
        var writer = TypedStreamWriter()
        var inner = F.array([])
        for _ in 0 ..< 40 { inner = F.array([inner]) }
        writer.writeRoot(inner)
        var options = TypedStreamReadOptions()
        options.maximumDepth = 20
        #expect(Self.error(writer.data, options: options)?.code == .limitExceeded)
        #expect(Self.error(writer.data) == nil)
        var deepEncoding = TypedStreamWriter()
        deepEncoding.writeGroup(String(repeating: "{", count: 30) + "i" + String(repeating: "}", count: 30), [.integer(1)])
        #expect(Self.error(deepEncoding.data, options: options)?.code == .malformed)
    }

    @Test func aClassWhoseSuperclassIsItselfStillEnds() throws {
        // A new class A (number 0) whose superclass is a reference to entry 0: A itself.
        let data = Self.stream([0x84, 0x01, 0x23, 0x84, 0x84, 0x01, 0x41, 0x00, 0x92])
        let stream = try TypedStream(data: data)
        #expect(stream.classChain(ofClass: 0).count <= 2)
    }

    @Test func tooManyObjectsStopAtTheObjectLimit() {
        var writer = TypedStreamWriter()
        writer.writeRoot(F.array((0 ..< 50).map { F.string("s\($0)") }))
        var options = TypedStreamReadOptions()
        options.maximumObjectCount = 20
        #expect(Self.error(writer.data, options: options)?.code == .limitExceeded)
    }

    @Test func errorsSayTheClassAndFieldTheyAreIn() {
        var writer = TypedStreamWriter()
        let color = F.color(kind: 1, components: [0.5, 0.5, 0.5, 1])
        writer.writeRoot(color)
        let data = writer.data.dropLast(3)
        let e = Self.error(Data(data))
        #expect(e?.className == "NSColor")
        #expect(e?.description.contains("(in NSColor, group 2, value") == true)
    }
}
