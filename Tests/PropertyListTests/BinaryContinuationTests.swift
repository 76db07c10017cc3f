import Foundation
import Testing
@_spi(Writers) @testable import PropertyList

/// What the binary walk of a file made, with the second half of its top collection laid out
/// on speculation by a second thread.
struct WalkInTwoHalves {
    /// The file the walk lays out (`transcodedBinary` of a converter with two workers); nil
    /// when it does not take the file.
    var bytes: Data?
    /// Whether the walk took the second thread's half.
    var joined = false
}

/// The binary walk of `data` with the second half of its top collection laid out on
/// speculation by a second thread.
func binaryWalkInTwoHalves(_ data: Data, _ options: PropertyListReadOptions = .default) -> WalkInTwoHalves {
    let converter = BinaryPropertyListConverter(options: options, workers: 2, minimumBytesForWorkers: 0)
    let joined = data.withUnsafeBytes { raw -> Bool in
        guard var parser = try? BinaryPropertyListParser(raw, options: options, sharing: .refused) else { return false }
        var t = BinaryPropertyListParser.BinaryTranscoding(parser.trailer, refSize: BinaryPropertyListObjectTable.width(for: parser.trailer.objectCount),
                                                           source: raw)
        _ = try? converter.transcodeBinaryTop(&parser, source: raw, split: true, into: &t)
        return t.joinedSecondHalf
    }
    return WalkInTwoHalves(bytes: converter.transcodedBinary(data), joined: joined)
}

/// A guess of the second thread broken: the halves are not joined, the first thread walks the
/// rest, and the file is what one walk writes (and the tree), not the input's bytes.
func expectWrittenByOneWalk(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
    let split = binaryWalkInTwoHalves(data)
    #expect(!split.joined, sourceLocation: sourceLocation)
    #expect(split.bytes == BinaryPropertyListConverter(workers: 1).transcodedBinary(data), sourceLocation: sourceLocation)
    #expect(split.bytes != data, sourceLocation: sourceLocation)
    expectConverterAgreesWithTheTree(data, sourceLocation: sourceLocation)
}

/// Each guess the second thread makes about the first half, held and broken: where it holds, the
/// halves are joined and the file is its own bytes; where it does not, the first thread walks
/// the rest itself, and the file is what one walk and the tree write.
@Suite struct BinaryContinuationTests {
    @Test func aFileCFWroteIsLaidOutInTwoHalvesAndComesBackAsItsOwnBytes() throws {
        for data in [XMLInPiecesTests.records(2_000, underKeys: false), XMLInPiecesTests.records(2_000, underKeys: true)] {
            let split = binaryWalkInTwoHalves(data)
            #expect(split.joined)
            #expect(split.bytes == data)
            #expect(BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0).transcodedBinary(data) == data)
        }
        // A dictionary whose last values, small collections, are past the middle.
        let everyKind = BinaryPropertyListWriter().write(BinaryPropertyListConverterTests.everyKind)
        #expect(binaryWalkInTwoHalves(everyKind).bytes == everyKind)
    }

    @Test func recordsWithBooleansUIDsAndSharedStringsInBothHalvesAreJoined() throws {
        var records: [PropertyListValue] = []
        for n in 0..<600 {
            var d = PropertyListDictionary()
            d.append(key: "on", value: .bool(n % 3 == 0))
            d.append(key: "off", value: .bool(n % 5 == 0))
            d.append(key: "ref", value: .uid(UInt64(n % 7)))
            d.append(key: "kind", value: .string(n % 2 == 0 ? "even" : "odd"))
            d.append(key: "n", value: .integer(PropertyListInteger(Int64(n))))
            records.append(.dictionary(d))
        }
        let data = BinaryPropertyListWriter().write(.array(records))
        let split = binaryWalkInTwoHalves(data)
        #expect(split.joined)
        #expect(split.bytes == data)
        expectConverterAgreesWithTheTree(data)
    }

    /// The second half holds a UID object of the first half's bytes that the first half never
    /// refers to (an unreached copy): the second thread takes it to be numbered at its own
    /// index, which the first half did not do; one walk writes a new copy there.
    @Test func aUIDTheFirstHalfNeverNumberedBreaksTheGuessAndIsWrittenAsOneWalkWritesIt() throws {
        let data = smallBinaryFile([
            [0xA2, 1, 4],   // 0: [1, 4]
            [0xA2, 2, 2],   // 1: [UID 7, UID 7]: the first copy, and CF's second copy (3)
            [0x80, 7],      // 2
            [0x80, 7],      // 3: written again, and referred to by nothing but 4
            [0xA1, 3],      // 4: [the copy 3], the second half
            [0x80, 7],      // 5: the copy one walk writes for it
        ])
        expectWrittenByOneWalk(data)
    }

    /// The second half's first `true` is an object of the first half, but not the first
    /// half's first `true`: one walk refers every `true` to the first.
    @Test func aTrueThatIsNotTheFirstHalfsFirstBreaksTheGuess() throws {
        let data = smallBinaryFile([
            [0xA2, 1, 4],   // 0: [1, 4]
            [0xA2, 2, 2],   // 1: [true, true]: the first copy (2) and the second (3)
            [0x09], [0x09],
            [0xA1, 3],      // 4: [the second copy]
            [0x09],         // 5
        ])
        expectWrittenByOneWalk(data)
    }

    /// The second half numbers a `true` of its own while the first half already had one.
    @Test func aTrueOfTheSecondHalfsOwnAfterOneInTheFirstBreaksTheGuess() throws {
        let data = smallBinaryFile([
            [0xA2, 1, 3],   // 0: [1, 3]
            [0xA1, 2],      // 1: [true]
            [0x09],
            [0xA1, 4],      // 3: [its own true]
            [0x09],
        ])
        expectWrittenByOneWalk(data)
        // With a `false` in the first half instead, the second half's own `true` is the first.
        var falseFirst = [UInt8](data)
        falseFirst[8 + 3 + 2] = 0x08
        let joined = binaryWalkInTwoHalves(Data(falseFirst))
        #expect(joined.joined)
        #expect(joined.bytes == Data(falseFirst))
    }

    /// A string of more than 64 bytes held by both halves is a shared object, which the walk
    /// leaves to the tree: the halves may not be joined, whatever each found alone.
    @Test func aLargeStringHeldByBothHalvesIsLeftToTheTree() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 80)
        let data = smallBinaryFile([
            [0xA2, 1, 3],               // 0: [1, 3]
            [0xA1, 2],                  // 1: [the long string]
            [0x5F, 0x10, 80] + long,    // 2
            [0xA1, 2],                  // 3: [the same string]
        ])
        let split = binaryWalkInTwoHalves(data)
        #expect(!split.joined)
        #expect(split.bytes == nil)
        #expect(BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0).transcodedBinary(data) == nil)
        expectConverterAgreesWithTheTree(data)
    }

    /// Each half within the expansion limit, both together past it: refused as one walk refuses it.
    @Test func halvesWithinTheExpansionLimitAloneButNotTogetherAreRefusedAsOneWalkRefusesThem() throws {
        var records: [PropertyListValue] = []
        for n in 0..<200 { records.append(.array([.string("r\(n)"), .integer(PropertyListInteger(Int64(n)))])) }
        let data = BinaryPropertyListWriter().write(.array(records))
        var strict = PropertyListReadOptions()
        // 601 values in all (the top, 200 arrays of two): each half has about 300.
        strict.expansionLimit = PropertyListExpansionLimit(baseValues: 450, valuesPerInputByte: 0, baseContentBytes: 1 << 20, contentBytesPerInputByte: 0)
        let split = binaryWalkInTwoHalves(data, strict)
        #expect(split.bytes == nil)
        #expect(BinaryPropertyListConverter(options: strict, workers: 2, minimumBytesForWorkers: 0).transcodedBinary(data) == nil)
        expectConverterAgreesWithTheTree(data, strict)
        #expect(binaryWalkInTwoHalves(data).joined, "within the default limits")
    }

    /// An error in either half is the error one walk meets: the file goes to the tree.
    @Test func aCycleInEitherHalfIsLeftToTheTreeWhichSaysWhy() throws {
        for cyclic in [1, 3] {
            var objects: [[UInt8]] = [[0xA2, 1, 3], [0xA1, 2], [0x10, 1], [0xA1, 4], [0x10, 2]]
            objects[cyclic] = [0xA1, 0]   // holds the top
            let data = smallBinaryFile(objects)
            let split = binaryWalkInTwoHalves(data)
            #expect(split.bytes == nil)
            let tree = Conversion { () throws(PropertyListError) in BinaryPropertyListLayoutWriter(original: data).write(try BinaryPropertyListReader().read(data)) }
            guard case .failed(let error) = tree else { Issue.record("the tree read a cycle"); continue }
            #expect(error.code == .cycle)
            #expect(Conversion { () throws(PropertyListError) in try BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0).binary(data) } == tree)
        }
    }

    /// A file that leaves CF's layout in its first half: the second thread is stopped, and the
    /// file is written as one walk writes it.
    @Test func aFirstHalfOutOfCFsLayoutIsWrittenByOneWalk() throws {
        let data = smallBinaryFile([
            [0xA2, 1, 3],       // 0: [1, 3]
            [0xA1, 2],          // 1: [5 in two bytes, which CF writes in one]
            [0x11, 0, 5],
            [0xA1, 4],          // 3
            [0x10, 6],
        ])
        expectWrittenByOneWalk(data)
    }
}
