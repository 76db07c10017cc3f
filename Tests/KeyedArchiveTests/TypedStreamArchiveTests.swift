import Foundation
import Testing
@testable import KeyedArchive
import PropertyList
import TypedStream
import TypedStreamFixtures

/// Typedstreams read as the keyed archive of the same objects: each known class with the keys its
/// keyed coder writes, everything else kept under `$0`, `$1`….
struct TypedStreamArchiveTests {
    typealias F = FoundationTypedStreamObjects

    static func archive(_ root: TypedStreamObjectSpec, order: TypedStreamWriter.Order = .little) throws -> KeyedArchive {
        var writer = TypedStreamWriter(byteOrder: order)
        writer.writeRoot(root)
        return try KeyedArchive(data: writer.data)
    }

    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func foundationValuesDecodeAsTheirKeyedFormsDo(order: TypedStreamWriter.Order) throws {
        let base = F.url("https://example.com/dir/")
        let a = try Self.archive(F.array([
            F.string("one"), F.number(2), F.double(3.5), F.bool(true), F.number(-9_000_000_000, encoding: "q"),
            F.data([1, 2, 3]), F.date(12345.5), F.url("file.txt", base: base), F.mutableString("mutable"),
            F.set([F.string("s")]), F.range(location: 3, length: 4), F.rect(x: 1, y: 2, width: 3.5, height: 4),
        ], mutable: true), order: order)
        #expect(a.isTypedStream)
        #expect(a.archiver == "NSArchiver")
        #expect(a.version == 1000)
        #expect(a.rootObject?.className == "NSMutableArray")
        guard case .array(let e)? = a.rootObject?.content, e.count == 12 else {
            Issue.record("root is \(String(describing: a.rootObject?.content))")
            return
        }
        let contents = e.map { a.object($0)?.content }
        #expect(contents[0] == .string("one"))
        #expect(contents[1] == .number(.integer(PropertyListInteger(2))))
        #expect(contents[2] == .number(.real(3.5)))
        #expect(contents[3] == .number(.bool(true)))
        #expect(contents[4] == .number(.integer(PropertyListInteger(-9_000_000_000))))
        #expect(contents[5] == .data(Data([1, 2, 3])))
        #expect(contents[6] == .date(Date(timeIntervalSinceReferenceDate: 12345.5)))
        guard case .url(let baseRef, let relative)? = contents[7] else { Issue.record("not a URL"); return }
        #expect(a.object(relative)?.content == .string("file.txt"))
        guard case .url(_, let baseRelative)? = a.object(baseRef)?.content else { Issue.record("no base"); return }
        #expect(a.object(baseRelative)?.content == .string("https://example.com/dir/"))
        #expect(contents[8] == .string("mutable"))
        #expect(a.object(e[8])?.className == "NSMutableString")
        guard case .set(let members)? = contents[9] else { Issue.record("not a set"); return }
        #expect(members.map { a.object($0)?.content } == [.string("s")])
        #expect(contents[10] == .geometry(.range(location: 3, length: 4)))
        #expect(contents[11] == .geometry(.rect(x: 1, y: 2, width: 3.5, height: 4)))
    }

    @Test func dictionariesKeepTheirKeysAndValuesInOrder() throws {
        let a = try Self.archive(F.dictionary([(F.string("b"), F.number(1)), (F.string("a"), nil)], mutable: true))
        guard case .dictionary(let keys, let values)? = a.rootObject?.content else { Issue.record("not a dictionary"); return }
        #expect(keys.map { a.object($0)?.content } == [.string("b"), .string("a")])
        #expect(values[0] != .null)
        #expect(values[1] == .null)
    }

    @Test func sharedObjectsStayOneObjectAndCyclesStayReferences() throws {
        let shared = F.string("shared")
        let array = F.array([shared, shared], mutable: true)
        array.groups[0] = ("i", [.integer(3)])
        array.groups.append(("@", [.object(array)]))
        let a = try Self.archive(array)
        guard case .array(let e)? = a.rootObject?.content else { Issue.record("not an array"); return }
        #expect(e[0] == e[1])
        #expect(e[2] == a.root)
    }

    @Test func colorsOfEveryKindGetNSColorsKeyedFields() throws {
        let a = try Self.archive(F.array([
            F.color(kind: 1, components: [0.2, 0.9960784316, 0.4, 1]),
            F.color(kind: 2, components: [1, 0, 0, 0.5]),
            F.color(kind: 3, components: [1, 0.8]),
            F.color(kind: 5, components: [0, 1, 0, 0, 1]),
            F.namedColor(catalog: "System", name: "textColor", color: F.color(kind: 4, components: [0, 1])),
        ]))
        guard case .array(let e)? = a.rootObject?.content else { Issue.record("not an array"); return }
        let first = try #require(a.object(e[0]))
        // As macOS writes a calibrated RGB color: ten significant digits, alpha 1 left out, a NUL.
        #expect(first[field: "NSRGB"] == .inline(.data(Data("0.200000003 0.9960784316 0.400000006\0".utf8))))
        #expect(first[field: "NSColorSpace"] == .inline(.integer(PropertyListInteger(1))))
        guard case .color(let c) = first.content else { Issue.record("not a color"); return }
        #expect(c.space == .calibratedRGB)
        #expect(abs(c.green - 0.9960784316) < 1e-9)
        #expect(a.object(e[1])?[field: "NSRGB"] == .inline(.data(Data("1 0 0 0.5\0".utf8))))
        #expect(a.object(e[2])?[field: "NSWhite"] == .inline(.data(Data("1 0.8000000119\0".utf8))))
        guard case .color(let cmyk)? = a.object(e[3])?.content else { Issue.record("not a color"); return }
        #expect(cmyk.space == .cmyk)
        guard case .color(let named)? = a.object(e[4])?.content else { Issue.record("not a color"); return }
        #expect(named.name == "System/textColor")
    }

    @Test func attributedStringsBecomeTheirStringAttributesAndRunTable() throws {
        let bold = F.dictionary([(F.string("__kIMTextBoldAttributeName"), F.number(1))])
        let plain = F.dictionary([(F.string("__kIMMessagePartAttributeName"), F.number(0))])
        // "Hi 👋 there": the emoji is two UTF-16 units, so the runs are counted in UTF-16.
        let text = "Hi 👋 there"
        let a = try Self.archive(F.attributedString(F.mutableString(text), runs: [(plain, 3), (bold, 2), (plain, 6)]))
        guard case .attributedString(let string, let attributes, let ranges)? = a.rootObject?.content else { Issue.record("not an attributed string"); return }
        #expect(a.object(string)?.content == .string(text))
        #expect(ranges == [0 ..< 3, 3 ..< 5, 5 ..< 11])
        // As Foundation's keyed layout decodes: one reference to the NSMutableArray of the two
        // distinct dictionaries, in the order their numbers were met.
        guard attributes.count == 1, case .array(let dictionaries)? = a.object(attributes[0])?.content else { Issue.record("no dictionaries"); return }
        #expect(dictionaries.count == 2)
        #expect(a.rootObject?.className == "NSMutableAttributedString")
        // The run table is what Foundation writes: (length, index) pairs as LEB128.
        guard case .object(let info)? = a.rootObject?[field: "NSAttributeInfo"] else { Issue.record("no run table"); return }
        #expect(a.object(.object(uid: info))?.content == .data(Data([3, 0, 2, 1, 6, 0])))

        let single = try Self.archive(F.attributedString(F.string("plain"), runs: [(plain, 5)], mutable: false))
        guard case .attributedString(_, let one, let whole)? = single.rootObject?.content else { Issue.record("not an attributed string"); return }
        #expect(one.count == 1)
        #expect(whole == [0 ..< 5])
        #expect(single.rootObject?[field: "NSAttributeInfo"] == nil)
    }

    @Test func unknownClassesKeepEveryValueInOrderUnderUnkeyedKeys() throws {
        let custom = TypedStreamObjectSpec([("MyWidget", 7), ("NSObject", 0)], groups: [
            ("ii", [.integer(1), .integer(2)]),
            ("@:", [.object(F.string("title")), .sharedString("doIt:")]),
            ("{_NSPoint=ff}", [.sequence([.float(1.5), .float(2)])]),
        ])
        let a = try Self.archive(custom)
        let root = try #require(a.rootObject)
        #expect(root.className == "MyWidget")
        #expect(root.fields.map(\.key) == ["$0", "$1", "$2", "$3", "$4"])
        #expect(root[field: "$0"] == .inline(.integer(PropertyListInteger(1))))
        #expect(root[field: "$3"] == .inline(.string("doIt:")))
        #expect(a.typedStream?.classes.first?.version == 7)
        #expect(a.typedStream?.objects[root.uid - 1].groups.map(\.encoding) == ["ii", "@:", "{_NSPoint=ff}"])
    }

    @Test func groupsAKnownClassDoesNotExpectStayAfterItsKeys() throws {
        // A subclass of NSArray that writes one more group of its own.
        let sub = TypedStreamObjectSpec([("MyList", 1), ("NSArray", 0), ("NSObject", 0)], groups: [
            ("i", [.integer(1)]), ("@", [.object(F.string("x"))]), ("i", [.integer(99)]),
        ])
        let a = try Self.archive(sub)
        let root = try #require(a.rootObject)
        #expect(root.fields.map(\.key) == ["NS.objects", "$0"])
        guard case .array(let e) = root.content else { Issue.record("not shown as an array"); return }
        #expect(e.count == 1)
        // A known class whose groups are not as it writes them keeps them all, unkeyed.
        let odd = TypedStreamObjectSpec([("NSDate", 0), ("NSObject", 0)], groups: [("i", [.integer(5)])])
        let b = try Self.archive(odd)
        #expect(b.rootObject?.fields.map(\.key) == ["$0"])
    }

    @Test func aColorListFileBecomesTheKeyedColorListLayout() throws {
        var writer = TypedStreamWriter()
        writer.writeGroup("i", [.integer(1)])
        writer.writeGroup("@i", [.object(nil), .integer(2)])
        writer.writeGroup("@@", [.object(F.color(kind: 1, components: [1, 0, 0, 1])), .object(F.string("Red"))])
        writer.writeGroup("@@", [.object(F.color(kind: 3, components: [0.5, 1])), .object(F.string("Gray"))])
        let a = try KeyedArchive(data: writer.data)
        #expect(a.top.map(\.key) == ["NSKeys", "NSColors"])
        #expect(a.root == nil)
    }

    @Test func aFontKeepsItsNameAndSizeFromItsSerializedName() throws {
        // NSFont v30: its name as a serialized property list (type 6, UTF-16 with a BOM, padded),
        // the size, then four flag bytes.
        let name = "Helvetica"
        var serialized: [UInt8] = [6, 0, 0, 0]
        let utf16 = [UInt8]([0xFF, 0xFE]) + name.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        serialized += [UInt8(utf16.count), 0, 0, 0] + utf16 + Array(repeating: 0, count: (4 - utf16.count % 4) % 4)
        let font = TypedStreamObjectSpec([("NSFont", 30), ("NSObject", 0)], groups: [
            ("i", [.integer(Int64(serialized.count))]), ("[\(serialized.count)c]", [.bytes(serialized)]),
            ("f", [.float(13)]), ("c", [.char(0)]), ("c", [.char(1)]), ("c", [.char(0)]), ("c", [.char(0)]),
        ])
        let a = try Self.archive(font)
        let root = try #require(a.rootObject)
        guard case .object(let nameUID)? = root[field: "NSName"] else { Issue.record("no NSName"); return }
        #expect(a.object(.object(uid: nameUID))?.content == .string(name))
        #expect(root[field: "NSSize"] == .inline(.real(13)))
        #expect(root.fields.map(\.key) == ["NSName", "NSSize", "$0", "$1", "$2", "$3"])
    }

    @Test func aDamagedStreamIsATypedStreamErrorThatSaysWhere() throws {
        var writer = TypedStreamWriter()
        writer.writeRoot(F.array([F.string("one")]))
        let cut = writer.data.dropLast(4)
        #expect { try KeyedArchive(data: Data(cut)) } throws: { error in
            guard let e = error as? KeyedArchiveError else { return false }
            return e.code == .typedStream && e.underlyingTypedStream?.code == .truncated && e.description.contains("at byte")
        }
    }

    @Test func theKeyedWriterLaysTheStreamOutAsFoundationWould() throws {
        let a = try Self.archive(F.array([F.string("a"), F.number(1)], mutable: true))
        let data = try KeyedArchiveWriter().write(a)
        let back = try KeyedArchive(data: data)
        #expect(!back.isTypedStream)
        #expect(back.archiver == "NSKeyedArchiver")
        #expect(a.isEquivalent(to: back))
    }
}

@Suite(.enabled(if: TypedStreamArchiveCorpus.root != nil, "../shared/corpus/typedstream is absent"))
struct TypedStreamArchiveCorpusTests {
    @Test func everyCorpusStreamReadsAsAnArchiveAndRewritesAsOneThatReadsBack() throws {
        let paths = TypedStreamArchiveCorpus.paths
        #expect(!paths.isEmpty)
        for path in paths {
            let data = try Data(contentsOf: TypedStreamArchiveCorpus.root!.appendingPathComponent(path))
            let archive = try KeyedArchive(data: data)
            #expect(archive.isTypedStream, "\(path)")
            #expect(archive.decodedObjects.count >= archive.typedStream!.objects.count / 2, "\(path)")
            let keyed = try KeyedArchiveWriter().write(archive)
            let back = try KeyedArchive(data: keyed)
            #expect(back.decodedObjects.count == archive.decodedObjects.count, "\(path)")
            #expect(archive.isEquivalent(to: back), "\(path)")
            #expect(back.classCounts.map(\.name).sorted() == archive.classCounts.map(\.name).sorted(), "\(path)")
        }
    }
}

enum TypedStreamArchiveCorpus {
    static let root: URL? = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus/typedstream")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.tsv").path) ? url : nil
    }()

    /// Every path INDEX.tsv lists.
    static let paths: [String] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
    }()
}

/// What `rewrite --to keyed` writes of a typedstream, Foundation's NSKeyedUnarchiver reads with
/// secure coding on, to the same values.
@Suite struct TypedStreamFoundationInteropTests {
    typealias F = FoundationTypedStreamObjects

    @Test func foundationReadsTheKeyedArchiveOfAStreamOfFoundationValues() throws {
        var writer = TypedStreamWriter(byteOrder: .big)
        writer.writeRoot(F.array([
            F.string("one"), F.number(2), F.double(3.5), F.bool(true), F.data([1, 2, 3]), F.date(12345.5),
            F.url("https://example.com/a?b=c"), F.dictionary([(F.string("k"), F.string("v"))], mutable: true),
            F.mutableString("mutable"), F.set([F.number(7)]), F.number(-9_000_000_000, encoding: "q"),
        ], mutable: true))
        let archive = try KeyedArchive(data: writer.data)
        let keyed = try KeyedArchiveWriter().write(archive)
        let allowed: [AnyClass] = [NSArray.self, NSMutableArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self,
                                   NSDate.self, NSData.self, NSURL.self]
        let read = try NSKeyedUnarchiver.unarchivedObject(ofClasses: allowed, from: keyed)
        let array = try #require(read as? NSArray)
        #expect(array.count == 11)
        #expect(array[0] as? String == "one")
        #expect((array[1] as? NSNumber)?.intValue == 2)
        #expect((array[2] as? NSNumber)?.doubleValue == 3.5)
        #expect((array[3] as? NSNumber)?.boolValue == true)
        #expect(array[4] as? Data == Data([1, 2, 3]))
        #expect(array[5] as? Date == Date(timeIntervalSinceReferenceDate: 12345.5))
        #expect((array[6] as? URL)?.absoluteString == "https://example.com/a?b=c")
        #expect((array[7] as? NSDictionary)?["k"] as? String == "v")
        #expect(array[8] as? String == "mutable")
        #expect((array[9] as? NSSet)?.count == 1)
        #expect((array[10] as? NSNumber)?.int64Value == -9_000_000_000)
    }
}
