import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// `SmallArchiveReader` reads small archives in place, one after another; where it reads one,
/// its archive and class index are the ones `KeyedArchive(data:)` and
/// `KeyedArchiveClassIndex(data:)` give, and where those fail it reads nothing.
enum SmallReading {
    /// What the reader says differently from the ordinary readers about `data`, or nil.
    static func difference(_ data: Data, options: KeyedArchiveReadOptions = .default, reader: SmallArchiveReader = SmallArchiveReader()) -> String? {
        let ordinary = try? KeyedArchive(data: data, options: options)
        if let small = reader.archive(data, options: options) {
            guard let ordinary else { return "the reader reads an archive KeyedArchive(data:) refuses" }
            if small.objects != ordinary.objects { return "objects differ" }
            if small.top != ordinary.top || small.root != ordinary.root || small.archiver != ordinary.archiver { return "top differs" }
            if small != ordinary || small.hashValue != ordinary.hashValue { return "archives differ" }
            if small.plist != ordinary.plist { return "plists differ" }
        }
        if let index = reader.classIndex(data, options: options) {
            guard let plain = KeyedArchiveClassIndex(data: data, options: options) else {
                return "the reader gives a class index KeyedArchiveClassIndex(data:) does not"
            }
            if index.classes != plain.classes || index.slots != plain.slots || index.objectCount != plain.objectCount {
                return "class indexes differ"
            }
        }
        return nil
    }

    /// A UIColor archive as iOS writes it.
    static func color(_ red: Double, _ green: Double, _ blue: Double, alpha: Double = 1) throws -> Data {
        var builder = KeyedArchiveBuilder()
        let root = builder.uiColor(red: red, green: green, blue: blue, alpha: alpha)
        return try KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)
    }

    /// An NSArray of strings.
    static func strings(_ words: [String]) throws -> Data {
        var builder = KeyedArchiveBuilder()
        let root = builder.array(words.map { builder.string($0) })
        return try KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)
    }

    static let archivesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/archives")
}

@Suite struct SmallArchiveReaderTests {
    @Test func aUIColorArchiveIsReadInPlaceAsTheOrdinaryReadersReadIt() throws {
        let data = try SmallReading.color(0.25, 0.5, 0.75, alpha: 0.5)
        let reader = SmallArchiveReader()
        let archive = try #require(reader.archive(data, options: .default))
        #expect(archive == (try KeyedArchive(data: data)))
        #expect(archive.rootObject?.archivedClass?.name == "UIColor")
        guard case .color(let color)? = archive.rootObject?.content else {
            Issue.record("the color is not decoded")
            return
        }
        #expect(color.red == Double(Float(0.25)) && color.alpha == 0.5)
        let index = try #require(reader.classIndex(data, options: .default))
        #expect(index.classes.map(\.name) == ["UIColor"])
        #expect(SmallReading.difference(data) == nil)
    }

    @Test func rowAfterRowTheReaderGivesEachArchiveItsOwnClassesAndObjects() throws {
        // Colors and string arrays in turn, through one reader: what it keeps between rows
        // (class descriptions, keys, the last index) never leaks into the next row.
        let reader = SmallArchiveReader()
        var previous: KeyedArchiveClassIndex?
        for i in 0..<200 {
            let data = i % 3 == 2 ? try SmallReading.strings(["tag \(i)", "café ☕︎ \(i)"])
                : try SmallReading.color(Double(i % 256) / 255, Double(i / 256) / 255, 0.5)
            #expect(SmallReading.difference(data, reader: reader) == nil, "row \(i)")
            let index = try #require(reader.classIndex(data, options: .default))
            #expect(index.classes.map(\.name) == (i % 3 == 2 ? ["NSArray"] : ["UIColor"]), "row \(i)")
            if i % 3 == 1, let previous {
                // Two colors in a row: the same classes and layout, so the same index, kept.
                #expect(index.classes.count == previous.classes.count && zip(index.classes, previous.classes).allSatisfy { $0 === $1 })
            }
            previous = index
        }
    }

    @Test func everyArchiveFixtureReadsTheSameEitherWay() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SmallReading.archivesFolder.path).sorted()
        #expect(!names.isEmpty)
        let reader = SmallArchiveReader()
        var read = 0
        for name in names {
            let data = try Data(contentsOf: SmallReading.archivesFolder.appendingPathComponent(name))
            #expect(SmallReading.difference(data, reader: reader) == nil, "\(name)")
            if reader.archive(data, options: .default) != nil { read += 1 }
        }
        // The UIColor tint and the string array are in the layout the reader takes.
        #expect(read >= 2)
    }

    @Test(arguments: KeyedArchiveFlatDecodingTests.fixtures)
    func testFixturesReadTheSameEitherWay(_ name: String) throws {
        #expect(SmallReading.difference(try TestArchive.fixture(name)) == nil)
    }

    @Test(arguments: KeyedArchiveFlatDecodingTests.optionSets.indices)
    func limitsAreEnforcedTheSameEitherWay(_ index: Int) throws {
        let (label, options) = KeyedArchiveFlatDecodingTests.optionSets[index]
        for data in [try SmallReading.color(0.1, 0.2, 0.3), try SmallReading.strings(["a", "b", "c"]), try FlatDecoding.records(3)] {
            #expect(SmallReading.difference(data, options: options) == nil, "\(label)")
        }
    }

    @Test func aSharedArrayIsLeftToTheOrdinaryReaders() throws {
        #expect(SmallArchiveReader().archive(FlatDecoding.sharedArray, options: .default) == nil)
        #expect(SmallArchiveReader().classIndex(FlatDecoding.sharedArray, options: .default) == nil)
    }

    @Test func largeArchivesAreLeftToTheOrdinaryReaders() throws {
        let data = try FlatDecoding.records(2_000)
        #expect(data.count > CompactKeyedArchive.maximumBytes)
        #expect(SmallArchiveReader().archive(data, options: .default) == nil)
    }

    @Test func everyTruncationOfAColorFailsOrReadsTheSameEitherWay() throws {
        let whole = [UInt8](try SmallReading.color(0.4, 0.5, 0.6))
        let reader = SmallArchiveReader()
        for length in 0..<whole.count {
            #expect(SmallReading.difference(Data(whole[..<length]), reader: reader) == nil, "first \(length) bytes")
        }
    }

    /// Damaged archives: random bytes changed in a color, a string array and records.
    @Test func damagedArchivesFailOrReadTheSameEitherWay() throws {
        let originals = [[UInt8](try SmallReading.color(0.4, 0.5, 0.6)), [UInt8](try SmallReading.strings(["x", "yz", "ü"])),
                         [UInt8](try FlatDecoding.records(2))]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            // xorshift64: the same mutations on every run.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        let reader = SmallArchiveReader()
        var failures: [String] = []
        var read = 0
        for round in 0..<3_000 {
            var bytes = originals[round % originals.count]
            for _ in 0...(round % 3) {
                let at = 8 + next() % (bytes.count - 8)
                bytes[at] = round % 4 == 0 ? bytes[at] ^ UInt8(1 << (next() % 8)) : UInt8(truncatingIfNeeded: next())
            }
            if let difference = SmallReading.difference(Data(bytes), reader: reader) { failures.append("round \(round): \(difference)") }
            if reader.archive(Data(bytes), options: .default) != nil { read += 1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // Changes that leave a readable archive (a component's bits) are read in place too.
        #expect(read > 0)
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct SmallArchiveReaderCorpusTests {
    @Test func everyCorpusFileReadsTheSameEitherWay() throws {
        let reader = SmallArchiveReader()
        var failures: [String] = []
        for row in ArchiveCorpus.rows {
            guard let data = try? ArchiveCorpus.data(row.path), data.starts(with: Array("bplist".utf8)) else { continue }
            if let difference = SmallReading.difference(data, reader: reader) { failures.append("\(row.path): \(difference)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
