import Foundation
import Testing
@testable import ArchiveReports
@testable import KeyedArchive
import PropertyList

@Suite struct KeyedArchiveTreePrinterTests {
    func render(_ archive: KeyedArchive, expanding: Bool = false, colors: Bool = false) -> String {
        KeyedArchiveTreePrinter(usesColors: colors, nested: NestedPayloadOptions(expands: expanding)).render(archive)
    }

    func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    @Test func eachObjectIsPrintedAsItsUIDAndClassUnderTheRoot() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        let text = render(archive)
        #expect(text.hasPrefix("root = #1 NSDictionary 4 entries\n"))
        #expect(text.contains("\n  \"array\" => #6 NSArray 4 elements\n"))
        #expect(text.contains("\n    [0] = #7 NSNull\n"))
        #expect(text.contains("\n    [2] = #10 NSNumber 34545\n"))
        #expect(text.contains("\n      \"key\" => #13 NSString \"val\"\n"))
        #expect(text.contains("\n  \"uuid\" => #21 NSUUID 71DC068E-3420-45FF-919E-3A267D55EC22\n"))
    }

    @Test func aSharedObjectIsPrintedOnceAndThenShownAsAnArrow() throws {
        // "hello" (#9) is both the array's second element and the value of "string".
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        let text = render(archive)
        #expect(text.contains("[1] = #9 NSString \"hello\""))
        #expect(text.contains("\"string\" => → #9 NSString \"hello\""))
        #expect(text.components(separatedBy: "#9 NSString").count == 3)
    }

    @Test func aSharedObjectWithChildrenListsThemOnlyOnce() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(4, [("NS.objects", .array([.uid(2), .uid(2)]))]),   // #1 array of #2 twice
            TestArchive.object(5, [("title", .uid(3))]),                          // #2 Item
            "shared",                                                              // #3
            TestArchive.classDictionary("NSArray"),                               // #4
            TestArchive.classDictionary("Item"),                                  // #5
        ])
        let text = render(archive)
        #expect(text.contains("  [0] = #2 Item\n    title = #3 NSString \"shared\"\n  [1] = → #2 Item\n"))
        #expect(text.components(separatedBy: "title =").count == 2)
    }

    /// Printable ASCII keys are answered without looking at each scalar; keys with spaces,
    /// `=`, quotes, control characters or Unicode whitespace are still quoted, and other
    /// non-ASCII keys are still one word.
    @Test func fieldKeysAreQuotedOnlyWhenTheyWouldNotReadAsOneWord() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(2, [("plain", "a"), ("two words", "b"), ("a\u{A0}b", "c"), ("key=x", "d"),
                                   ("say\"", "e"), ("naïve", "f"), ("tab\t", "g"), ("del\u{7F}", "h")]),   // #1
            TestArchive.classDictionary("Thing"),                                                       // #2
        ])
        let text = render(archive)
        for line in ["  plain = \"a\"", "  \"two words\" = \"b\"", "  \"a\u{A0}b\" = \"c\"", "  \"key=x\" = \"d\"",
                     "  \"say\\\"\" = \"e\"", "  naïve = \"f\"", "  \"tab\\t\" = \"g\"", "  del\u{7F} = \"h\""] {
            #expect(lines(text).contains(line), "\(line) in \(text)")
        }
    }

    @Test func aSelfReferenceIsMarkedAsACycleAndNotFollowed() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(3, [("next", .uid(1)), ("title", .uid(2))]),
            "loop",
            TestArchive.classDictionary("Node"),
        ])
        let text = render(archive)
        #expect(text.hasPrefix("root = #1 Node\n  next = ↺ #1 Node (cycle)\n  title = #2 NSString \"loop\"\n"))
    }

    @Test func aReferenceToAnObjectSeenOnAnotherBranchIsSharedNotACycle() throws {
        // #1 holds a and b; b points back at a, which is not b's ancestor.
        let archive = try TestArchive.decode([
            TestArchive.object(4, [("a", .uid(2)), ("b", .uid(3))]),
            TestArchive.object(4, []),
            TestArchive.object(4, [("sibling", .uid(2)), ("parent", .uid(1))]),
            TestArchive.classDictionary("Node"),
        ])
        let text = render(archive)
        #expect(text.contains("    sibling = → #2 Node\n"))
        #expect(text.contains("    parent = ↺ #1 Node (cycle)\n"))
    }

    @Test func aURLIsShownResolvedAgainstItsBase() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-URLTest.plist"))
        let text = render(archive)
        #expect(text.hasPrefix("root = #1 NSURL https://www.example.com/foo.xml\n"))
        #expect(text.contains("  NS.base = #2 NSURL https://www.example.com\n"))
        #expect(text.contains("  NS.relative = #5 NSString \"foo.xml\"\n"))
    }

    @Test func aURLWhoseBaseChainLoopsStillPrints() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(3, [("NS.base", .uid(1)), ("NS.relative", .uid(2))]),
            "page.html",
            TestArchive.classDictionary("NSURL"),
        ])
        #expect(render(archive).hasPrefix("root = #1 NSURL page.html\n"))
    }

    @Test func dataIsLabelledWithTheFormatOfItsBytes() throws {
        let bplist = BinaryPropertyListWriter().write(TestArchive.plainPlist)
        let json = Data("{\"id\": 7, \"name\": \"box\"}".utf8)
        let archive = try TestArchive.decode([
            TestArchive.object(5, [("image", .uid(2)), ("settings", .uid(3)), ("payload", .uid(4))]),
            .data(TestArchive.pngHeader),
            .data(bplist),
            .data(json),
            TestArchive.classDictionary("Box"),
        ])
        let text = render(archive)
        #expect(text.contains("image = #2 NSData 33 bytes, PNG image 64×48\n"))
        #expect(text.contains("settings = #3 NSData \(bplist.count) bytes, binary property list\n"))
        #expect(text.contains("payload = #4 NSData \(json.count) bytes, JSON\n"))
        #expect(!text.contains("\"answer\""), "not expanded unless asked")
    }

    @Test func expandingPrintsNestedPlistsAndJSONIndentedUnderTheirData() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(4, [("settings", .uid(2)), ("payload", .uid(3))]),
            .data(BinaryPropertyListWriter().write(TestArchive.plainPlist)),
            .data(Data("{\"id\": 7}".utf8)),
            TestArchive.classDictionary("Box"),
        ])
        let text = render(archive, expanding: true)
        #expect(text.contains("binary property list\n    {\n      \"answer\" => 42\n      \"name\" => \"nested\"\n    }\n"))
        #expect(text.contains("JSON\n    {\n      \"id\" => 7\n    }\n"))
    }

    @Test func expandingPrintsANestedArchiveAsItsOwnTree() throws {
        let inner = TestArchive.binary([TestArchive.object(3, [("name", .uid(2))]), "inside", TestArchive.classDictionary("Inner")])
        let archive = try TestArchive.decode([
            TestArchive.object(2, [("NS.data", .data(inner))]),
            TestArchive.classDictionary("NSMutableData", ["NSMutableData", "NSData", "NSObject"]),
        ])
        let text = render(archive, expanding: true)
        #expect(text.contains("keyed archive (binary property list)\n  root = #1 Inner\n    name = #2 NSString \"inside\"\n"))
    }

    @Test func archivesNestedInArchivesExpandOnlyToTheNestingLimit() throws {
        var bytes = TestArchive.binary(["core"])
        for _ in 0..<6 { bytes = TestArchive.dataArchive(bytes) }
        let archive = try KeyedArchive(data: bytes)
        let text = KeyedArchiveTreePrinter(nested: NestedPayloadOptions(expands: true, maximumNesting: 3)).render(archive)
        // The file's archive plus three expanded levels: four root lines, and "core" unseen.
        #expect(text.components(separatedBy: "root = #1").count - 1 == 4)
        #expect(!text.contains("\"core\""))
        let all = KeyedArchiveTreePrinter(nested: NestedPayloadOptions(expands: true, maximumNesting: 10)).render(archive)
        #expect(all.contains("root = #1 NSString \"core\""))
    }

    @Test func aMangledSwiftClassIsShownDemangledWithItsWrittenName() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(2, [("UIRed", .real(1))]),
            TestArchive.classDictionary("_TtC8Eventail17SerializableColor"),
        ])
        let text = render(archive)
        #expect(text.hasPrefix("root = #1 Eventail.SerializableColor (_TtC8Eventail17SerializableColor)\n  UIRed = 1\n"))
        #expect(text.contains("  Eventail.SerializableColor (_TtC8Eventail17SerializableColor)  1\n"))
    }

    @Test func knownContentIsSummarizedOnOneLine() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(8, [("color", .uid(2)), ("when", .uid(3)), ("rect", .uid(4)), ("indexes", .uid(6)), ("zone", .uid(7))]),
            TestArchive.object(9, [("UIRed", .real(0.17599999904632568)), ("UIGreen", .real(0.165)), ("UIBlue", .real(0.51)), ("UIAlpha", .real(1))]),
            .date(Date(timeIntervalSinceReferenceDate: 0.5)),
            TestArchive.object(10, [("NS.special", 3), ("NS.rectval", .uid(5))]),
            "{{0, 0}, {100, 50}}",
            TestArchive.object(11, [("NSRangeCount", 1), ("NSLocation", 3), ("NSLength", 2)]),
            TestArchive.object(12, [("NS.name", "Europe/Paris")]),
            TestArchive.classDictionary("Holder"),
            TestArchive.classDictionary("UIColor", hints: ["NSColor"]),
            TestArchive.classDictionary("NSValue"),
            TestArchive.classDictionary("NSIndexSet"),
            TestArchive.classDictionary("NSTimeZone"),
        ])
        let text = render(archive)
        #expect(text.contains("color = #2 UIColor rgba(0.176, 0.165, 0.51, 1) sRGB\n"))
        #expect(text.contains("when = #3 NSDate 2001-01-01T00:00:00.5Z\n"))
        #expect(text.contains("rect = #4 NSValue rect {{0, 0}, {100, 50}}\n"))
        #expect(text.contains("indexes = #6 NSIndexSet 2 indexes: 3..<5\n"))
        #expect(text.contains("zone = #7 NSTimeZone time zone Europe/Paris\n"))
        #expect(!text.contains("UIRed"), "a color's summary replaces its fields")
    }

    @Test func nullAndInlineValuesReadLikePlistValues() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(2, [("missing", .uid(0)), ("count", 3), ("ratio", 0.25), ("flag", true), ("list", [1, 2])]),
            TestArchive.classDictionary("Thing"),
        ])
        #expect(render(archive).hasPrefix("""
            root = #1 Thing
              missing = nil
              count = 3
              ratio = 0.25
              flag = true
              list = [
                0 => 1
                1 => 2
              ]

            """))
    }

    @Test func theClassSummaryCountsEveryDecodedObject() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        let text = render(archive)
        #expect(text.hasSuffix("""

            17 objects, 7 classes
              NSString      9
              NSDictionary  2
              NSURL         2
              NSArray       1
              NSNull        1
              NSNumber      1
              NSUUID        1

            """))
    }

    @Test func otherTopEntriesFollowTheRoot() throws {
        let archive = try TestArchive.decode(["first", "second"], top: [("extra", 2), ("root", 1)])
        let text = render(archive)
        #expect(text.hasPrefix("root = #1 NSString \"first\"\nextra = #2 NSString \"second\"\n"))
    }

    @Test func colorsAreUsedOnlyWhenAskedFor() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        #expect(!render(archive).contains("\u{1B}["))
        let colored = render(archive, colors: true)
        #expect(colored.contains("\u{1B}[32m\"hello\"\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[35m#1\u{1B}[0m"))
    }

    @Test func aChainTenThousandObjectsDeepPrintsWithLinearOutput() throws {
        let count = 10_000
        var objects: [PropertyListValue] = []
        for i in 1...count {
            objects.append(TestArchive.object(UInt64(count + 1), [("next", .uid(i == count ? 1 : UInt64(i + 1)))]))
        }
        objects.append(TestArchive.classDictionary("Node"))
        var options = KeyedArchiveReadOptions()
        options.maximumDepth = 20_000
        let archive = try KeyedArchive(plist: TestArchive.plist(objects), options: options)
        let text = render(archive)
        #expect(text.contains("next = ↺ #1 Node (cycle)"))
        #expect(text.utf8.count < count * 200, "indentation is capped")
        #expect(text.contains("[10000] next = ↺ #1 Node (cycle)"))
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveTreePrinterCorpusTests {
    @Test func bpylistsCircularArchiveMarksItsCycle() throws {
        let archive = try KeyedArchive(data: try ArchiveCorpus.data("bpylist2/circular_archive.plist"))
        let text = KeyedArchiveTreePrinter().render(archive)
        #expect(text.hasPrefix("root = #1 crap.Foo\n  recursive = ↺ #1 crap.Foo (cycle)\n  title = #2 NSString \"hello\"\n"))
    }

    @Test func bpylistsRecursiveArchiveIsAChainEndingInNil() throws {
        let archive = try KeyedArchive(data: try ArchiveCorpus.data("bpylist2/recursive_archive.plist"))
        let text = KeyedArchiveTreePrinter().render(archive)
        #expect(text.hasPrefix("root = #1 crap.Foo\n  title = #2 NSString \"hello\"\n  recursive = #3 crap.Foo\n    title = #4 NSString \"yo\"\n    recursive = nil\n"))
        #expect(!text.contains("cycle"))
    }

    @Test func everyCorpusArchivePrintsTheSameTextWhenStreamedInPieces() throws {
        for row in ArchiveCorpus.rows where row.archive {
            guard let archive = try? KeyedArchive(data: try ArchiveCorpus.data(row.path)) else { continue }
            for nested in [NestedPayloadOptions(), NestedPayloadOptions(expands: true)] {
                let printer = KeyedArchiveTreePrinter(nested: nested)
                for size in [1, 200] {
                    var bytes: [UInt8] = []
                    printer.write(archive, chunkSize: size) { bytes += $0 }
                    #expect(String(decoding: bytes, as: UTF8.self) == printer.render(archive), "\(row.path), pieces of \(size)")
                }
            }
        }
    }

    @Test func everyValidArchiveInTheCorpusPrintsWithNestedPayloadsExpanded() throws {
        let rows = ArchiveCorpus.rows.filter { $0.archive && $0.invalid == "no" }
        for row in rows {
            guard let archive = try? KeyedArchive(data: try ArchiveCorpus.data(row.path)) else { continue }
            let text = KeyedArchiveTreePrinter(nested: NestedPayloadOptions(expands: true)).render(archive)
            #expect(text.contains("\(archive.decodedObjects.count) object"), "\(row.path)")
        }
    }
}
