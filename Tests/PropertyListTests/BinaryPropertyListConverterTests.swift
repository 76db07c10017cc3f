import Foundation
import Testing
@_spi(Writers) @testable import PropertyList

/// What converting `data` gives: the bytes, or the error.
enum Conversion: Equatable, CustomStringConvertible {
    case written(Data)
    case failed(PropertyListError)

    init(_ body: () throws(PropertyListError) -> Data) {
        do throws(PropertyListError) { self = .written(try body()) } catch { self = .failed(error) }
    }

    var description: String {
        switch self {
        case .written(let d): "\(d.count) bytes"
        case .failed(let e): "\(e)"
        }
    }
}

/// The converter must give what reading the tree and writing it gives, bytes and errors alike,
/// for XML (`XMLPropertyListWriter`) and for binary (`BinaryPropertyListLayoutWriter` over the
/// input, which lays the tree out as CF writes back what it read: the same CF layout reached
/// from the tree and the original's places rather than from the walk's objects); and it must
/// not fall back to the tree where the tree path succeeds, except for what only the tree path
/// can tell (returned so callers can expect it).
@discardableResult
func expectConverterAgreesWithTheTree(_ data: Data, _ options: PropertyListReadOptions = .default,
                                      sourceLocation: SourceLocation = #_sourceLocation) -> (xmlTranscoded: Bool, binaryTranscoded: Bool) {
    let converter = BinaryPropertyListConverter(options: options)
    let reader = BinaryPropertyListReader(options: options)
    let treeXML = Conversion { () throws(PropertyListError) in try XMLPropertyListWriter().write(reader.read(data)) }
    let treeBinary = Conversion { () throws(PropertyListError) in BinaryPropertyListLayoutWriter(original: data, options: options).write(try reader.read(data)) }
    let xml = converter.transcodedXML(data)
    let binary = converter.transcodedBinary(data)
    if let xml { #expect(Conversion.written(xml) == treeXML, "XML transcoded, but the tree path gives \(treeXML)", sourceLocation: sourceLocation) }
    if let binary { #expect(Conversion.written(binary) == treeBinary, "binary transcoded, but the tree path gives \(treeBinary)", sourceLocation: sourceLocation) }
    var streamedBinary = Data()
    let streamed = converter.transcodeBinary(data, chunkSize: 64) { streamedBinary.append(contentsOf: $0) }
    #expect(streamed == (binary != nil), sourceLocation: sourceLocation)
    if streamed { #expect(Conversion.written(streamedBinary) == treeBinary, "binary handed on in chunks, but the tree path gives \(treeBinary)", sourceLocation: sourceLocation) }
    expectPositionedBinaryAgreesWithTheTree(data, converter, treeBinary: treeBinary, oneWalkTook: binary != nil, sourceLocation: sourceLocation)
    expectMirroredBinaryAgreesWithTheWritten(data, converter, sourceLocation: sourceLocation)
    #expect(Conversion { () throws(PropertyListError) in try converter.xml(data) } == treeXML, sourceLocation: sourceLocation)
    #expect(Conversion { () throws(PropertyListError) in try converter.binary(data) } == treeBinary, sourceLocation: sourceLocation)
    expectXMLInPiecesAgreesWithTheTree(data, options, treeXML: treeXML, oneWalkTook: xml != nil, sourceLocation: sourceLocation)
    expectCheckedBinaryAgreesWithTheTree(data, options, treeBinary: treeBinary, oneWalkTook: binary != nil, sourceLocation: sourceLocation)
    return (xml != nil, binary != nil)
}

/// Binary written by a converter with two workers, however small the file, must be the tree's
/// too, and must take every file one worker takes.
func expectCheckedBinaryAgreesWithTheTree(_ data: Data, _ options: PropertyListReadOptions, treeBinary: Conversion, oneWalkTook: Bool,
                                          sourceLocation: SourceLocation = #_sourceLocation) {
    let checked = BinaryPropertyListConverter(options: options, workers: 2, minimumBytesForWorkers: 0)
    let binary = checked.transcodedBinary(data)
    if let binary { #expect(Conversion.written(binary) == treeBinary, "binary written beside the check, but the tree path gives \(treeBinary)", sourceLocation: sourceLocation) }
    #expect(oneWalkTook == (binary != nil), "one walk took the file: \(oneWalkTook); beside the check: \(binary != nil)", sourceLocation: sourceLocation)
    #expect(Conversion { () throws(PropertyListError) in try checked.binary(data) } == treeBinary, sourceLocation: sourceLocation)
    expectPositionedBinaryAgreesWithTheTree(data, checked, treeBinary: treeBinary, oneWalkTook: oneWalkTook, sourceLocation: sourceLocation)
}

/// The binary walk that compares with its input until they differ must give the bytes of the
/// walk that writes from the start, and take the same files.
func expectMirroredBinaryAgreesWithTheWritten(_ data: Data, _ converter: BinaryPropertyListConverter,
                                              sourceLocation: SourceLocation = #_sourceLocation) {
    var mirrored: Data?
    var written: Data?
    converter.walkBinary(data, mirrorsInput: true) { mirrored = $0.data() }
    converter.walkBinary(data, mirrorsInput: false) { written = $0.data() }
    #expect(mirrored == written, "compared with the input: \(mirrored?.count ?? -1) bytes; written: \(written?.count ?? -1)",
            sourceLocation: sourceLocation)
}

/// Whether the binary walk of `data` still finds every object it laid out to be the input's own
/// bytes when it has numbered them all (before the offset table and trailer are compared).
func binaryWalkMirrorsToTheEnd(_ data: Data) throws -> Bool {
    try data.withUnsafeBytes { raw throws(PropertyListError) -> Bool in
        var parser = try BinaryPropertyListParser(raw, options: .default, sharing: .refused)
        var t = BinaryPropertyListParser.BinaryTranscoding(parser.trailer, refSize: BinaryPropertyListObjectTable.width(for: parser.trailer.objectCount),
                                                           source: raw)
        _ = try parser.transcodeBinary(parser.trailer.topObject, depth: 0, into: &t)
        return t.file.isMirroring
    }
}

/// Binary handed on to a file as it is laid out (at every collection, and every 64 bytes),
/// with references filled in afterwards written again, must leave the file the tree writes.
func expectPositionedBinaryAgreesWithTheTree(_ data: Data, _ converter: BinaryPropertyListConverter, treeBinary: Conversion, oneWalkTook: Bool,
                                             sourceLocation: SourceLocation = #_sourceLocation) {
    for every in [1, 64] {
        let output = RecordingPositionedOutput()
        let took = converter.transcodeBinary(data, into: output, handingOnEvery: every)
        #expect(took == oneWalkTook, "handing on every \(every) bytes, the walk took the file: \(took)", sourceLocation: sourceLocation)
        if took {
            #expect(Conversion.written(Data(output.bytes)) == treeBinary,
                    "binary handed on every \(every) bytes, but the tree path gives \(treeBinary)", sourceLocation: sourceLocation)
        }
    }
}

/// The XML written by three threads in pieces, however small the file, whole and handed on a
/// piece at a time, must be the tree's too; and the pieces must take every file one walk takes.
func expectXMLInPiecesAgreesWithTheTree(_ data: Data, _ options: PropertyListReadOptions, treeXML: Conversion, oneWalkTook: Bool,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
    let inPieces = BinaryPropertyListConverter(options: options, workers: 3, minimumBytesForWorkers: 0, workerStackSize: 256 << 20)
    let whole = inPieces.transcodedXML(data)
    if let whole { #expect(Conversion.written(whole) == treeXML, "XML written in pieces, but the tree path gives \(treeXML)", sourceLocation: sourceLocation) }
    #expect(!oneWalkTook || whole != nil, "one walk took the file, the pieces did not", sourceLocation: sourceLocation)
    var streamed = Data()
    if inPieces.transcodeXML(data, chunkSize: 64, to: { streamed.append(contentsOf: $0) }) {
        #expect(Conversion.written(streamed) == treeXML, "XML handed on in pieces, but the tree path gives \(treeXML)", sourceLocation: sourceLocation)
    }
    #expect(Conversion { () throws(PropertyListError) in try inPieces.xml(data) } == treeXML, sourceLocation: sourceLocation)
}

@Suite struct BinaryPropertyListConverterTests {
    /// A document with every kind of value the binary format holds, shared objects and
    /// dictionaries of one shape, written by our writer.
    static let everyKind: PropertyListValue = {
        var records: [PropertyListValue] = []
        for n in 0..<40 {
            var d = PropertyListDictionary()
            d.append(key: "name", value: .string("item \(n)"))
            d.append(key: "title", value: .string(n % 3 == 0 ? "Zürich 日本語 \(n) 😀" : "plain <title> & \(n)"))
            d.append(key: "count", value: .integer(PropertyListInteger(Int64(n * 977) - 20_000)))
            d.append(key: "score", value: .real(Double(n) / 7))
            d.append(key: "on", value: .bool(n % 2 == 0))
            d.append(key: "when", value: .date(Date(timeIntervalSinceReferenceDate: Double(n) * 86_400.5)))
            d.append(key: "blob", value: .data(Data((0..<(n % 70)).map { UInt8(truncatingIfNeeded: $0 * 7) })))
            d.append(key: "tags", value: .array([.string("red"), .integer(PropertyListInteger(n % 4)), .set([.string("s"), .real(0.5)])]))
            records.append(.dictionary(d))
        }
        var top = PropertyListDictionary()
        top.append(key: "records", value: .array(records))
        top.append(key: "big", value: .integer(PropertyListInteger(UInt64.max)))
        top.append(key: "negative", value: .integer(PropertyListInteger(Int64.min)))
        top.append(key: "nan", value: .real(.nan))
        top.append(key: "infinity", value: .real(-.infinity))
        top.append(key: "zero", value: .real(-0.0))
        top.append(key: "uid", value: .uid(70_000))
        top.append(key: "empty", value: .array([]))
        top.append(key: "nothing", value: .dictionary(PropertyListDictionary()))
        top.append(key: "control\u{0}\r", value: .string("\u{FFFE}\u{FFFF}"))
        return .dictionary(top)
    }()

    @Test func aDocumentOfEveryKindConvertsWithoutItsTreeToWhatTheTreeWrites() throws {
        let data = BinaryPropertyListWriter().write(Self.everyKind)
        let taken = expectConverterAgreesWithTheTree(data)
        #expect(taken.xmlTranscoded && taken.binaryTranscoded)
        // Our writer lays a tree out as CF does, so the file comes back as it was.
        #expect(try BinaryPropertyListConverter().binary(data) == data)
    }

    /// A file in CF's layout is its own rewrite: the walk finds every object it lays out to be
    /// the input's bytes at the same place, so it keeps no output of its own, and hands on the
    /// input's bytes, whole or a few at a time.
    @Test func aFileInCFsLayoutIsRewrittenAsItsOwnBytesWithoutWritingThem() throws {
        // Edge values of every scalar kind (small ones shared as CF shares them), within what the
        // walk takes: dates of the years 1 to 9999, UIDs of 32 bits, no large scalar held twice.
        let reals: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude, 2.2250738585072009e-308, .greatestFiniteMagnitude,
                               1e-300, 5e-324, 1e300, 0.1, 1.0 / 3, 123_456_789.123_456_789, .nan, .infinity, -.infinity]
        // Dates from the year 4 to 9923 (the walk leaves those past the years 1 to 9999 to the tree).
        let dates: [Double] = [-6.3e10, -978_307_200, -0.5, 0, 0.000_001, 1e9 + 0.25, 3e10, 2.5e11]
        let strings: [String] = ["", "a", "plain ASCII of more than fifteen characters", "é", "Zürich", "Москва", "日本語",
                                 "😀👨‍👩‍👧", "<&>\"'", "\u{0}\u{1F}\r\n\t", "\u{FEFF}bom", "\u{FFFE}\u{FFFF}"]
        var values: [PropertyListValue] = reals.map { PropertyListValue.real($0) }
        values += dates.map { PropertyListValue.date(Date(timeIntervalSinceReferenceDate: $0)) }
        // Each once: a large scalar met twice leaves the file to the tree.
        values += strings.map { PropertyListValue.string($0) }
        let others: [PropertyListValue] = [
            .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max)), .integer(PropertyListInteger(0)), .integer(PropertyListInteger(-1)),
            .integer(PropertyListInteger(Int64(Int32.max) + 1)), .data(Data()), .data(Data(repeating: 0xAB, count: 16)),
            .data(Data(repeating: 7, count: 300)), .bool(true), .bool(false), .bool(true), .uid(0), .uid(255), .uid(UInt64(UInt32.max)),
        ]
        values += others
        let keyed: [PropertyListValue] = strings.indices.map { PropertyListValue.string("k\($0)") }
        let reals12: [PropertyListValue] = reals.prefix(strings.count).map { PropertyListValue.real($0) }
        values.append(.dictionary(PropertyListDictionary(keys: keyed, values: reals12)))
        let edges = PropertyListValue.array(values)
        let edgeFile = BinaryPropertyListWriter().write(edges)
        for data in [BinaryPropertyListWriter().write(Self.everyKind), XMLInPiecesTests.records(2_000, underKeys: true), edgeFile] {
            #expect(try binaryWalkMirrorsToTheEnd(data))
            #expect(BinaryPropertyListConverter().transcodedBinary(data) == data)
            for every in [1, 64, 4 << 20] {
                let output = RecordingPositionedOutput()
                #expect(BinaryPropertyListConverter().transcodeBinary(data, into: output, handingOnEvery: every))
                #expect(Data(output.bytes) == data)
                #expect(!output.rewroteAPlace, "nothing handed on twice")
            }
        }
    }

    /// Where the input stops being CF's layout (an integer in more bytes than CF writes, a
    /// count in a wider integer, a sort-version byte CF writes as 0, an object after a gap),
    /// the walk copies the input's bytes so far and writes the rest: the file is the one the
    /// walk that writes from the start gives, handed on whole or a few bytes at a time.
    @Test func aFileThatLeavesCFsLayoutPartWayIsWrittenFromWhereItLeavesIt() throws {
        let canonical: [[UInt8]] = [[0xA4, 1, 2, 3, 4], [0x53] + Array("abc".utf8), [0x10, 5],
                                    [0x33, 0x41, 0xC0, 0, 0, 0, 0, 0, 0], [0x41, 0xEE]]
        #expect(try binaryWalkMirrorsToTheEnd(smallBinaryFile(canonical)))
        #expect(try BinaryPropertyListConverter().binary(smallBinaryFile(canonical)) == smallBinaryFile(canonical))
        var wideInteger = canonical
        wideInteger[2] = [0x11, 0, 5]
        var wideCount = canonical
        wideCount[0] = [0xAF, 0x10, 4, 1, 2, 3, 4]
        var lastDiffers = canonical
        lastDiffers[4] = [0x4F, 0x10, 1, 0xEE]
        for (objects, sortVersion) in [(wideInteger, UInt8(0)), (wideCount, 0), (lastDiffers, 0), (canonical, 1)] {
            let data = smallBinaryFile(objects, sortVersion: sortVersion)
            #expect(try binaryWalkMirrorsToTheEnd(data) == (sortVersion == 1))
            let rewritten = try BinaryPropertyListConverter().binary(data)
            #expect(rewritten == smallBinaryFile(canonical), "rewritten as CF writes it")
            #expect(rewritten != data)
            expectConverterAgreesWithTheTree(data)
        }
        // A gap of four bytes before the integer: the same objects, placed after it.
        var gapped = magic
        var offsets: [UInt8] = []
        for (n, object) in canonical.enumerated() {
            if n == 2 { gapped += [0x10, 5, 0x10, 5] }
            offsets.append(UInt8(gapped.count))
            gapped += object
        }
        let table = UInt64(gapped.count)
        let data = Data(gapped + offsets + trailer(count: 5, tableOffset: table))
        #expect(try BinaryPropertyListConverter().binary(data) == smallBinaryFile(canonical))
        expectConverterAgreesWithTheTree(data)
    }

    /// A dictionary holding one key twice as two objects of the file (the same text, in ASCII
    /// or in UTF-16) is left to the reader, which keeps the entry CF keeps, as one key object
    /// held twice is: the walk makes each object of the file an object of the output, so it
    /// compares the keys' text, not their output objects (FuzzBinaryPropertyList found six
    /// keys of which two were "number6"; the input is kept in Tests/FuzzRegressions).
    @Test func aKeyWrittenTwiceAsTwoObjectsIsLeftToTheReader() throws {
        for second: [UInt8] in [[0x51, 0x61], [0x61, 0x00, 0x61]] {
            var file = magic
            var offsets: [UInt8] = []
            func add(_ object: [UInt8]) { offsets.append(UInt8(file.count)); file += object }
            add([0xD2, 1, 2, 3, 4])                     // 0: {1: 3, 2: 4}
            add([0x51, 0x61])                           // 1: "a"
            add(second)                                 // 2: "a" again, another object
            add([0x10, 1])                              // 3: 1
            add([0x10, 2])                              // 4: 2
            let table = UInt64(file.count)
            file += offsets
            file += trailer(count: 5, tableOffset: table)
            let taken = expectConverterAgreesWithTheTree(Data(file))
            #expect(!taken.binaryTranscoded && !taken.xmlTranscoded)
            let value = try BinaryPropertyListReader().read(try BinaryPropertyListConverter().binary(Data(file)))
            #expect(value.dictionaryValue?.count == 1)
        }
        let found = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/FuzzBinaryPropertyList/crash-binary-walk-equal-keys-as-two-objects")
        let taken = expectConverterAgreesWithTheTree(try Data(contentsOf: found))
        #expect(!taken.binaryTranscoded)
    }

    /// A top set holding two members CF holds equal ("number5" twice) is left to the tree by
    /// the XML written in pieces, as by one walk, so both give the reader's ten members (found
    /// by FuzzBinaryPropertyList: the pieces wrote eleven).
    @Test func aTopSetWithEqualMembersIsLeftToTheTreeInPiecesToo() throws {
        let found = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/FuzzBinaryPropertyList/crash-top-set-with-equal-members-in-pieces")
        let data = try Data(contentsOf: found)
        let taken = expectConverterAgreesWithTheTree(data)
        #expect(!taken.xmlTranscoded)
        #expect(BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0).transcodedXML(data) == nil)
        guard case .set(let members) = try BinaryPropertyListReader().read(data) else {
            Issue.record("not a set")
            return
        }
        #expect(members.count == 10)
    }

    /// Two null objects (marker 0x00) in a file stay two objects through the converter's walk
    /// and through the layout writer alike, each object of the file an object of the output
    /// (found by FuzzBinaryPropertyList: the layout writer stored the nulls once).
    @Test func twoNullObjectsStayTwoInEveryWriterThatKeepsTheLayout() throws {
        let found = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/FuzzBinaryPropertyList/difference-two-null-objects")
        let data = try Data(contentsOf: found)
        let taken = expectConverterAgreesWithTheTree(data)
        #expect(taken.binaryTranscoded)
        let layout = BinaryPropertyListLayoutWriter(original: data).write(try BinaryPropertyListReader().read(data))
        #expect(try BinaryPropertyListReader().read(layout) == BinaryPropertyListReader().read(data))
        #expect(layout.filter { $0 == 0x00 }.count >= 2)
    }

    /// UTF-8 in an ASCII string (marker 0x5) is no "é" for CF: it reads each byte as Latin 1,
    /// so the converters give the two characters CF gives, and the file is left to the tree.
    @Test func utf8InAnASCIIStringConvertsAsTheLatin1CFReads() throws {
        var file = magic
        file += [0x52, 0xC3, 0xA9]                   // 0 at 8: "Ã©", as CF reads these bytes
        file += [8]                                  // offset table at 11
        file += trailer(count: 1, tableOffset: 11)
        #expect(try BinaryPropertyListReader().read(Data(file)) == .string("\u{C3}\u{A9}"))
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(!taken.xmlTranscoded && !taken.binaryTranscoded)
    }

    /// Equal scalars stored as objects of their own stay apart, as CF writes back what it read
    /// (its reader makes an object of each, and its writer stores each object once): each is
    /// re-encoded as CF encodes it, a 4-byte real kept in four bytes.
    @Test func scalarsStoredApartStayApartAndAreEncodedAsCFWritesThem() throws {
        var file = magic
        var offsets: [UInt8] = []
        func add(_ object: [UInt8]) { offsets.append(UInt8(file.count)); file += object }
        add([0xA7, 1, 2, 3, 4, 5, 6, 7])           // 0: array of objects 1–7
        add([0x53] + Array("abc".utf8))             // 1: "abc", ASCII
        add([0x63, 0, 0x61, 0, 0x62, 0, 0x63])      // 2: "abc" again, as UTF-16
        add([0x61, 0x00, 0xE9])                     // 3: "é" as UTF-16
        add([0x61, 0x00, 0xE9])                     // 4: "é" again, as UTF-16
        add([0x13, 0, 0, 0, 0, 0, 0, 0, 5])         // 5: 5 in eight bytes
        add([0x10, 5])                              // 6: 5 in one byte
        add([0x22, 0x3F, 0xC0, 0, 0])               // 7: 1.5 as a four-byte real
        file += offsets
        file += trailer(count: 8, tableOffset: UInt64(file.count - offsets.count))
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(taken.xmlTranscoded && taken.binaryTranscoded)
        let rewritten = try BinaryPropertyListConverter().binary(Data(file))
        var expected = magic
        var expectedOffsets: [UInt8] = []
        for object: [UInt8] in [[0xA7, 1, 2, 3, 4, 5, 6, 7], [0x53, 0x61, 0x62, 0x63], [0x53, 0x61, 0x62, 0x63], [0x61, 0x00, 0xE9],
                                [0x61, 0x00, 0xE9], [0x10, 5], [0x10, 5], [0x22, 0x3F, 0xC0, 0, 0]] {
            expectedOffsets.append(UInt8(expected.count))
            expected += object
        }
        let table = UInt64(expected.count)
        expected += expectedOffsets
        expected += trailer(count: 8, tableOffset: table)
        #expect(rewritten == Data(expected))
        #expect(try BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0).binary(Data(file)) == rewritten)
    }

    /// A boolean is written again at each place that holds it, referred to by its first copy
    /// (CF's booleans are two objects, which `_flattenPlist` adds at every place): one `true`
    /// held 255 times becomes 256 objects, whose references take two bytes (CF's width for the
    /// count, 256), where the input's two objects took one; the walk that chose one byte writes
    /// the file again with two.
    @Test func aBooleanHeldInManyPlacesIsWrittenAtEachAndWidensTheReferences() throws {
        var file = magic
        file += [0xAF, 0x10, 0xFF] + Array(repeating: 1, count: 255)   // 0 at 8: an array of 255 references to 1
        let trueAt = UInt16(file.count)
        file += [0x09]                                                  // 1: true, at 266
        let table = UInt64(file.count)
        file += [0, 8, UInt8(trueAt >> 8), UInt8(trueAt & 0xFF)]
        file += trailer(offsetSize: 2, count: 2, tableOffset: table)
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(taken.binaryTranscoded)
        let rewritten = try BinaryPropertyListConverter().binary(Data(file))
        let trailerBytes = Array(rewritten.suffix(32))
        #expect(trailerBytes[7] == 2, "two-byte references")
        #expect(trailerBytes[8..<16].reduce(0) { $0 << 8 | Int($1) } == 256, "the array and 255 copies of true")
        // Every reference names the first copy, object 1.
        let references = Array(rewritten[11..<(11 + 255 * 2)])
        #expect(stride(from: 0, to: references.count, by: 2).allSatisfy { references[$0] == 0 && references[$0 + 1] == 1 })
        // Handed on as it was laid out, the first file is dropped and the second written whole.
        let output = RecordingPositionedOutput()
        #expect(BinaryPropertyListConverter().transcodeBinary(Data(file), into: output, handingOnEvery: 1))
        #expect(output.discards == 1)
        #expect(Data(output.bytes) == rewritten)
    }

    /// A file whose references are wider than CF would make them (two bytes for three objects)
    /// is written with CF's width: the walk that chose the input's width writes it again.
    @Test func anInputWithWiderReferencesThanCFsIsWrittenWithCFsWidth() throws {
        var file = magic
        file += [0xA2, 0, 1, 0, 2]                  // 0 at 8: array of 1 and 2, two-byte references
        file += [0x51, 0x61]                        // 1 at 13: "a"
        file += [0x51, 0x62]                        // 2 at 15: "b"
        let table = UInt64(file.count)
        file += [8, 13, 15]
        file += trailer(refSize: 2, count: 3, tableOffset: table)
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(taken.binaryTranscoded)
        let rewritten = try BinaryPropertyListConverter().binary(Data(file))
        #expect(Array(rewritten.suffix(32))[7] == 1, "one-byte references")
        #expect(try BinaryPropertyListReader().read(rewritten) == ["a", "b"])
    }

    /// Records handed on to a file every 256 bytes by the walk that writes from the start (as
    /// it does from wherever a file leaves CF's layout): the top array's references, set as each
    /// record is written, land in pages already handed on and are written again; the file ends
    /// as the one written whole in memory. The walk that compares with the input first hands
    /// on the same bytes, each once.
    @Test func aFileHandedOnAsItIsLaidOutHasItsLaterReferencesWrittenAgain() throws {
        let data = XMLInPiecesTests.records(3_000, underKeys: false)
        let whole = try #require(BinaryPropertyListConverter(workers: 1).transcodedBinary(data))
        for workers in [1, 2] {
            let converter = BinaryPropertyListConverter(workers: workers, minimumBytesForWorkers: 0)
            let output = RecordingPositionedOutput()
            #expect(converter.walkBinary(data, progressive: output, handOnEvery: 256, mirrorsInput: false) { _ in })
            #expect(Data(output.bytes) == whole)
            #expect(output.discards == 0, "our writer's file passes the check: written once")
            #expect(output.writes.count > whole.count / 256 / 2, "handed on as it grew: \(output.writes.count) writes")
            #expect(output.rewroteAPlace)
            let mirrored = RecordingPositionedOutput()
            #expect(converter.transcodeBinary(data, into: mirrored, handingOnEvery: 256))
            #expect(Data(mirrored.bytes) == whole)
            #expect(mirrored.writes.count > whole.count / 256 / 2, "handed on as it grew: \(mirrored.writes.count) writes")
            #expect(!mirrored.rewroteAPlace)
        }
    }

    /// An object no reference reaches is not written (CF's reader never makes it), even when a
    /// reached one is equal to it.
    @Test func anUnreachedCopyOfAScalarIsLeftOut() throws {
        var file = magic
        var offsets: [UInt8] = []
        func add(_ object: [UInt8]) { offsets.append(UInt8(file.count)); file += object }
        add([0xA1, 1])                              // 0: ["abc"]
        add([0x53] + Array("abc".utf8))             // 1: "abc"
        add([0x53] + Array("abc".utf8))             // 2: "abc" again, referenced by nothing
        let table = UInt64(file.count)
        file += offsets
        file += trailer(count: 3, tableOffset: table)
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(taken.binaryTranscoded)
        let rewritten = try BinaryPropertyListConverter().binary(Data(file))
        #expect(Array(rewritten.suffix(24).prefix(8)).reduce(0) { $0 << 8 | Int($1) } == 2, "the array and one string")
    }

    /// A UID object held under two keys of one dictionary, one of them a UTF-16 string kept with
    /// its lone surrogate: one object of the file, written at each place and referred to its
    /// first copy by the walk and by the layout writer alike, which found such a key's entry in
    /// the original by nothing and wrote a second UID of its own (FuzzBinaryPropertyList; the
    /// input is kept in Tests/FuzzRegressions).
    @Test func aUIDUnderALoneSurrogateKeyAndAnotherIsOneObjectOfTheFileInEveryWriter() throws {
        let data = smallBinaryFile([
            [0xD2, 1, 2, 3, 3],     // 0: {"a": 3, "\u{D800}": 3}
            [0x51, 0x61],           // 1: "a"
            [0x61, 0xD8, 0x00],     // 2: a lone high surrogate
            [0x80, 5],              // 3: UID 5
        ])
        let taken = expectConverterAgreesWithTheTree(data)
        #expect(taken.binaryTranscoded)
        let written = try BinaryPropertyListConverter().binary(data)
        let top = try BinaryPropertyListReader().read(written)
        guard case .dictionary(let d) = top else { Issue.record("not a dictionary"); return }
        #expect(d.values == [.uid(5), .uid(5)])
        // Both values refer to the first copy: object 3 of the output, as of the input.
        #expect(Array(written[11..<13]) == [3, 3])
        let found = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/FuzzBinaryPropertyList/difference-uid-under-a-lone-surrogate-key")
        #expect(expectConverterAgreesWithTheTree(try Data(contentsOf: found)).binaryTranscoded)
    }

    @Test func whatXMLCannotHoldIsLeftToTheWriterWhichSaysWhy() {
        // [null]: the binary form reads, the XML writer refuses.
        let file = magic + [0xA1, 1, 0x00] + [8, 10] + trailer(count: 2, tableOffset: 11)
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(!taken.xmlTranscoded && taken.binaryTranscoded)
        #expect(throws: PropertyListError.self) { try BinaryPropertyListConverter().xml(Data(file)) }
    }

    @Test func sharedArraysAreLeftToTheTreeWhichReadsEachOnce() {
        // Ten levels of arrays each holding the next twice: 1,024 copies of one string.
        var file = magic
        var offsets: [UInt8] = []
        for level in 0..<10 {
            offsets.append(UInt8(file.count))
            file += [0xA2, UInt8(level + 1), UInt8(level + 1)]
        }
        offsets.append(UInt8(file.count))
        file += [0x55] + Array("leafy".utf8)
        let table = UInt64(file.count)
        file += offsets
        file += trailer(count: 11, tableOffset: table)
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(!taken.xmlTranscoded && !taken.binaryTranscoded)
        // Under a limit that the expansion passes, both ways refuse it alike.
        var strict = PropertyListReadOptions()
        strict.expansionLimit = PropertyListExpansionLimit(baseValues: 100, valuesPerInputByte: 0, baseContentBytes: 1 << 20, contentBytesPerInputByte: 0)
        expectConverterAgreesWithTheTree(Data(file), strict)
    }

    @Test func aSmallStringSharedByManyPlacesIsWrittenAtEachOfThem() {
        // An array of 300 references to one string, as CF writes a repeated value.
        var file = magic
        file += [0xAF, 0x11, 0x01, 0x2C] + [UInt8](repeating: 1, count: 300)  // 0 at 8: array of 300 refs to object 1
        file += [0x55] + Array("leafy".utf8)                                 // 1 at 312: "leafy"
        file += [0x00, 0x08, 0x01, 0x38]                                      // offset table at 318: 8, 312
        file += trailer(offsetSize: 2, count: 2, tableOffset: 318)
        let taken = expectConverterAgreesWithTheTree(Data(file))
        #expect(taken.xmlTranscoded && taken.binaryTranscoded)
    }
}

/// XML written by several threads, each writing pieces of the top collection's entries.
@Suite struct XMLInPiecesTests {
    /// `records` dictionaries of one shape (as CF and plistlib write them, keys stored once),
    /// with strings, numbers, dates, data and a nested array each, under an array or a dictionary.
    static func records(_ count: Int, underKeys: Bool, last: PropertyListValue? = nil) -> Data {
        var entries: [PropertyListValue] = (0..<count).map { n in
            var d = PropertyListDictionary()
            d.append(key: "name", value: .string("item-\(n)"))
            d.append(key: "title", value: .string(n % 5 == 0 ? "naïve <\(n)> & 日本" : "plain \(n)"))
            d.append(key: "count", value: .integer(PropertyListInteger(Int64(n) * 7919 - 1_000_000)))
            d.append(key: "score", value: .real(Double(n) / 3))
            d.append(key: "modified", value: .date(Date(timeIntervalSinceReferenceDate: Double(n) * 3_600)))
            d.append(key: "digest", value: .data(Data((0..<(n % 40)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n) })))
            d.append(key: "tags", value: .array([.string("golf"), .bool(n % 2 == 0), .integer(PropertyListInteger(n % 3))]))
            return .dictionary(d)
        }
        if let last { entries.append(last) }
        guard underKeys else { return BinaryPropertyListWriter().write(.array(entries)) }
        var top = PropertyListDictionary()
        // Keys whose sorted order is not the order they are stored in.
        for (n, entry) in entries.enumerated() { top.append(key: .string("k\((n * 7_919) % 100_003)"), value: entry) }
        return BinaryPropertyListWriter().write(.dictionary(top))
    }

    @Test func anArrayOfRecordsWrittenByThreadsIsTheXMLOneWalkWrites() throws {
        let data = Self.records(3_000, underKeys: false)
        let oneWalk = try #require(BinaryPropertyListConverter(workers: 1).transcodedXML(data))
        let threads = BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0)
        #expect(threads.transcodedXML(data) == oneWalk)
        var streamed = Data()
        #expect(threads.transcodeXML(data, chunkSize: 1_024) { streamed.append(contentsOf: $0) })
        #expect(streamed == oneWalk)
        #expect(oneWalk == (try XMLPropertyListWriter().write(BinaryPropertyListReader().read(data))))
    }

    @Test func aDictionaryOfRecordsIsWrittenInPiecesInItsKeysSortedOrder() throws {
        let data = Self.records(2_000, underKeys: true)
        let taken = expectConverterAgreesWithTheTree(data)
        #expect(taken.xmlTranscoded)
        let xml = try #require(BinaryPropertyListConverter(workers: 4, minimumBytesForWorkers: 0).transcodedXML(data))
        #expect(xml == (try XMLPropertyListWriter().write(BinaryPropertyListReader().read(data))))
    }

    @Test func aNullInTheLastPieceIsLeftToTheWriterWhichSaysWhy() {
        let data = Self.records(1_500, underKeys: false, last: .array([.null]))
        let threads = BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0)
        #expect(threads.transcodedXML(data) == nil)
        var handedOn = 0
        #expect(!threads.transcodeXML(data) { handedOn += $0.count })
        let tree = Conversion { () throws(PropertyListError) in try XMLPropertyListWriter().write(BinaryPropertyListReader().read(data)) }
        guard case .failed = tree else { Issue.record("the tree path wrote a null as XML"); return }
        #expect(Conversion { () throws(PropertyListError) in try threads.xml(data) } == tree)
    }

    @Test func aTopArrayThatHoldsItselfIsACycleInEveryPiece() {
        // [ "leafy" × 40, itself ]: the cycle is met in the last piece.
        var file = magic
        file += [0xAF, 0x10, 41] + [UInt8](repeating: 1, count: 40) + [0]   // 0 at 8: array of 41 refs
        file += [0x55] + Array("leafy".utf8)                                // 1 at 52: "leafy"
        file += [8, 52]                                                      // offset table at 58
        file += trailer(count: 2, tableOffset: 58)
        let data = Data(file)
        let threads = BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0)
        #expect(threads.transcodedXML(data) == nil)
        let tree = Conversion { () throws(PropertyListError) in try XMLPropertyListWriter().write(BinaryPropertyListReader().read(data)) }
        guard case .failed(let error) = tree else { Issue.record("the tree path read a cycle"); return }
        #expect(error.code == .cycle)
        #expect(Conversion { () throws(PropertyListError) in try threads.xml(data) } == tree)
    }

    @Test func anExpansionPastTheLimitIsRefusedAsOneWalkRefusesItWhetherOneThreadOrOnlyTheirSumPassesIt() {
        // An array of 300 references to one small string: 301 values in all.
        var file = magic
        file += [0xAF, 0x11, 0x01, 0x2C] + [UInt8](repeating: 1, count: 300)
        file += [0x55] + Array("leafy".utf8)
        file += [0x00, 0x08, 0x01, 0x38]
        file += trailer(offsetSize: 2, count: 2, tableOffset: 318)
        let data = Data(file)
        var strict = PropertyListReadOptions()
        // No piece reaches 250 values; all of them together pass it, whichever thread writes which.
        strict.expansionLimit = PropertyListExpansionLimit(baseValues: 250, valuesPerInputByte: 0, baseContentBytes: 1 << 20, contentBytesPerInputByte: 0)
        let threads = BinaryPropertyListConverter(options: strict, workers: 4, minimumBytesForWorkers: 0)
        #expect(threads.transcodedXML(data) == nil)
        let tree = Conversion { () throws(PropertyListError) in try XMLPropertyListWriter().write(BinaryPropertyListReader(options: strict).read(data)) }
        guard case .failed(let error) = tree else { Issue.record("the tree path read past the limit"); return }
        #expect(error.code == .limitExceeded)
        #expect(Conversion { () throws(PropertyListError) in try threads.xml(data) } == tree)
        // Under the default limits the same file is written in pieces.
        #expect(BinaryPropertyListConverter(workers: 4, minimumBytesForWorkers: 0).transcodedXML(data) != nil)
    }

    @Test func aDepthLimitAboveTheDefaultWithoutAStackSizeIsWrittenByOneThread() {
        var deep = PropertyListReadOptions()
        deep.maximumDepth = 100_000
        #expect(!BinaryPropertyListConverter(options: deep, workers: 4).writesInPieces)
        #expect(BinaryPropertyListConverter(options: deep, workers: 4, workerStackSize: 1 << 30).writesInPieces)
        #expect(BinaryPropertyListConverter(workers: 4).writesInPieces)
        #expect(!BinaryPropertyListConverter(workers: 1).writesInPieces)
    }
}

@Suite(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
struct BinaryPropertyListConverterCorpusTests {
    @Test func everyBinaryFileOfTheCorpusConvertsToWhatItsTreeWrites() throws {
        let files = SharedCorpus.entries { $0.format.hasPrefix("bplist") }
        #expect(files.count > 250)
        let (transcoded, valid): (Int, Int) = onDeepStack {
            var transcoded = 0, valid = 0
            for entry in files {
                guard let data = try? Data(contentsOf: entry.url) else { continue }
                let taken = expectConverterAgreesWithTheTree(data, CorpusTests.deepOptions)
                if entry.isValid {
                    valid += 1
                    if taken.binaryTranscoded { transcoded += 1 }
                }
            }
            return (transcoded, valid)
        }
        // Every valid file but those that share a collection or a large scalar, left to the tree.
        #expect(transcoded >= valid * 9 / 10, "\(transcoded) of \(valid) valid files transcoded to binary")
    }
}
