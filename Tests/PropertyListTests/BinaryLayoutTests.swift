import Foundation
import Testing
@testable import PropertyList

/// Binary files laid out as CF's writer lays them out (CFBinaryPList.c, `__CFBinaryPlistWrite`
/// and `_flattenPlist`): objects in the order they are flattened, strings, numbers, dates and data
/// stored once per object, booleans and UIDs written again at each place and referred to by their
/// first copy, references as wide as the object count needs and offsets as wide as the offset
/// table's position needs. A file CF wrote, read and written back, is the same bytes.
@Suite struct BinaryLayoutTests {
    /// Apple-written files the corpus holds that CF's `__CFBinaryPlistWrite` did not lay out:
    /// `nsmutabledata_archive.plist` puts each key beside its value and uses two-byte references
    /// for 24 objects; `airplay.bplist` (an Apple TV's reply) gives each boolean a copy of its
    /// own that its place refers to. Neither layout comes from CF's writer, so no writer that
    /// follows CF's gives them back (docs/parity.md).
    static let notLaidOutByCF: Set<String> = ["bpylist2/nsmutabledata_archive.plist", "node-bplist-parser/airplay.bplist"]

    @Test func everyAppleWrittenBinaryFileOfTheCorpusComesBackByteForByte() throws {
        let files = SharedCorpus.entries { $0.producer == "Apple" && $0.format == "bplist00" }
        guard SharedCorpus.isAvailable else { return }
        #expect(!files.isEmpty, "INDEX.tsv lists no Apple-written binary file")
        var differing: [String] = []
        var identical = 0
        for entry in files {
            let data = try Data(contentsOf: entry.url)
            let converted = try BinaryPropertyListConverter().binary(data)
            let value = try BinaryPropertyListReader().read(data)
            let laidOut = BinaryPropertyListLayoutWriter(original: data).write(value)
            // The converter and the tree written over the original agree everywhere.
            #expect(converted == laidOut, "\(entry.path)")
            if converted == data { identical += 1 } else { differing.append(entry.path) }
        }
        #expect(Set(differing) == Self.notLaidOutByCF.intersection(files.map(\.path)), "\(differing)")
        #expect(identical == files.count - differing.count)
    }

    /// Fixtures/apple-written: binary files that Apple's tools wrote (Xcode's `Info.plist` and
    /// `.strings` output, `ibtool`'s nibs, a SpriteKit scene), gathered from public repositories
    /// with their provenance in that folder's README. Files whose layout is not CF's would be
    /// listed here with the reason; every one gathered so far is CF's.
    static let appleWrittenFixturesNotLaidOutByCF: [String: String] = [:]

    static let appleWrittenFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/apple-written")

    @Test func everyGatheredAppleWrittenBinaryFileComesBackByteForByte() throws {
        let folder = Self.appleWrittenFixtures
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        let files = enumerator.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && $0.lastPathComponent != "README.md" }
            .sorted { $0.path < $1.path }
        #expect(!files.isEmpty, "no file in \(folder.path)")
        var differing: [String] = []
        for url in files {
            let name = String(url.path.dropFirst(folder.path.count + 1))
            let data = try Data(contentsOf: url)
            #expect(data.prefix(8) == Data("bplist00".utf8), "\(name) is not a binary property list")
            let converted = try BinaryPropertyListConverter().binary(data)
            let laidOut = BinaryPropertyListLayoutWriter(original: data).write(try BinaryPropertyListReader().read(data))
            #expect(converted == laidOut, "\(name)")
            if converted != data { differing.append(name) }
        }
        #expect(Set(differing) == Set(Self.appleWrittenFixturesNotLaidOutByCF.keys), "\(differing)")
    }

    /// A tree has no objects to keep apart, so the tree writer stores equal strings, numbers,
    /// dates and data once; booleans and UIDs it writes at each place, referring to the first.
    @Test func theTreeWriterWritesBooleansAndUIDsAtEachPlaceReferringToTheFirst() throws {
        let written = BinaryPropertyListWriter().write(["a", "a", true, true, .uid(7), .uid(7), false])
        var expected = magic
        var offsets: [UInt8] = []
        for object: [UInt8] in [[0xA7, 1, 1, 2, 2, 4, 4, 6], [0x51, 0x61], [0x09], [0x09], [0x80, 7], [0x80, 7], [0x08]] {
            offsets.append(UInt8(expected.count))
            expected += object
        }
        let table = UInt64(expected.count)
        expected += offsets
        expected += trailer(count: 7, tableOffset: table)
        #expect(written == Data(expected))
    }

    /// CF sizes references by the object count itself (`_byteCount(cnt)`): 256 objects take
    /// two-byte references, though the last index, 255, fits in one.
    @Test func referencesAreAsWideAsTheObjectCountNeeds() throws {
        let strings = (0..<255).map { PropertyListValue.string("s\($0)") }
        let written = BinaryPropertyListWriter().write(.array(strings))
        let tail = Array(written.suffix(32))
        #expect(tail[8..<16].reduce(0) { $0 << 8 | Int($1) } == 256)
        #expect(tail[7] == 2)
        let fewer = BinaryPropertyListWriter().write(.array(Array(strings.dropLast())))
        #expect(Array(fewer.suffix(32))[7] == 1, "255 objects take one byte")
    }

    // MARK: Edits

    /// The first Apple-written binary file of the corpus whose top dictionary holds a string.
    static func appleFileWithAString() throws -> (data: Data, key: String, text: String)? {
        for entry in SharedCorpus.entries(where: { $0.producer == "Apple" && $0.format == "bplist00" && !notLaidOutByCF.contains($0.path) }) {
            let data = try Data(contentsOf: entry.url)
            guard case .dictionary(let top) = try BinaryPropertyListReader().read(data) else { continue }
            for (key, value) in top {
                if case .string(let k) = key, case .string(let s) = value, !s.isEmpty, s.allSatisfy(\.isASCII),
                   top.values.filter({ $0 == value }).count == 1 {
                    return (data, k, s)
                }
            }
        }
        return nil
    }

    /// Setting a string to another of the same length changes only that string's bytes: every
    /// other object keeps its place and its form.
    @Test func anEditChangesOnlyWhatItMust() throws {
        guard let (data, key, text) = try Self.appleFileWithAString() else { return }
        guard case .dictionary(var top) = try BinaryPropertyListReader().read(data) else { return }
        let replacement = String(repeating: "Z", count: text.count)
        top[key] = .string(replacement)
        let written = BinaryPropertyListLayoutWriter(original: data).write(.dictionary(top))
        #expect(written.count == data.count)
        let changed = zip(written, data).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed.count == text.utf8.filter { $0 != UInt8(ascii: "Z") }.count)
        // The changed bytes are the string's, found where it was.
        let at = try #require(data.range(of: Data(text.utf8)))
        #expect(changed.allSatisfy { at.contains($0) })
    }

    /// Writing back what was read changes nothing; a value set to what it was changes nothing.
    @Test func anEditThatChangesNoValueChangesNoByte() throws {
        guard let (data, key, text) = try Self.appleFileWithAString() else { return }
        guard case .dictionary(var top) = try BinaryPropertyListReader().read(data) else { return }
        top[key] = .string(text)
        #expect(BinaryPropertyListLayoutWriter(original: data).write(.dictionary(top)) == data)
    }

    /// Removing an entry takes its objects along (an object no longer held is not written); the
    /// rest keep CF's order and its sharing.
    @Test func aRemovedEntryTakesItsObjectsAlongAndLeavesTheRestInCFsOrder() throws {
        // ["keep": "x", "drop": "y", "also": "x"], written by CF's rules: "x" once.
        var d = PropertyListDictionary()
        d.append(key: "keep", value: "x")
        d.append(key: "drop", value: "y")
        d.append(key: "also", value: "x")
        let original = BinaryPropertyListWriter().write(.dictionary(d))
        _ = d.removeAll(key: "drop")
        let written = BinaryPropertyListLayoutWriter(original: original).write(.dictionary(d))
        #expect(written == BinaryPropertyListWriter().write(.dictionary(d)))
        #expect(try BinaryPropertyListReader().read(written) == .dictionary(d))
    }
}
