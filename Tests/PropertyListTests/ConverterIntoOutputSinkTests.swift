import Foundation
import Testing
@testable import PropertyList
import SystemInterface

/// `convert` of a binary file to XML or binary hands the converter its output
/// (`BinaryPropertyListConverter.write(_:as:into:)`): a file written beside its destination as
/// the walk goes (XML on two threads, binary with its second half laid out beside the first),
/// or any other output once whole. What lands must be the bytes the converter gives in memory.
@Suite struct ConverterIntoOutputSinkTests {
    /// 3,000 records, 300 KB: more than a megabyte of XML; `minimumBytesForWorkers: 0` puts
    /// two threads on both formats.
    static let records = XMLInPiecesTests.records(3_000, underKeys: false)
    static let converter = BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0)

    /// Runs `body` with a new, empty temporary folder, removed afterwards.
    static func inNewFolder(_ body: (String) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "converter-sink-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func aFileWrittenAsTheWalkGoesHoldsTheBytesTheConverterGivesInMemory(format: PropertyListFormat) throws {
        try Self.inNewFolder { folder in
            let path = folder + "/out.plist"
            let sink = try OutputSink(path: path)
            #expect(Self.converter.write(Self.records, as: format, into: sink))
            try sink.commit()
            let expected = try format == .xml ? Self.converter.xml(Self.records) : Self.converter.binary(Self.records)
            #expect(FileManager.default.contents(atPath: path) == expected)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.plist"], "no file left beside it")
        }
    }

    @Test func anOutputThatIsNoFileTakesTheWholeDocument() throws {
        // A device cannot be written beside and renamed: the document goes there whole.
        let sink = try OutputSink(path: "/dev/null")
        #expect(!sink.isTemporaryFile)
        #expect(Self.converter.write(Self.records, as: .xml, into: sink))
        try sink.commit()
    }

    @Test(arguments: [PropertyListFormat.json, .openStep])
    func aFormatTheConverterDoesNotWriteIsLeftToTheCallerWithNothingWritten(format: PropertyListFormat) throws {
        try Self.expectLeftToTheCaller(Self.records, as: format)
    }

    /// `data` as `format` is not written by the converter: the caller abandons the output, and
    /// the destination is not made, nor anything left beside it.
    static func expectLeftToTheCaller(_ data: Data, as format: PropertyListFormat, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try inNewFolder { folder in
            let sink = try OutputSink(path: folder + "/out.plist")
            #expect(!converter.write(data, as: format, into: sink), sourceLocation: sourceLocation)
            sink.abandon()
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "the destination is not made and nothing is left beside it",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func aFileTheWalkDoesNotTakeIsLeftToTheCaller() throws {
        // A dictionary keyed by a number is the reader's to refuse, with its reason.
        var d = PropertyListDictionary()
        d.append(key: .integer(PropertyListInteger(1)), value: .string("one"))
        try Self.expectLeftToTheCaller(BinaryPropertyListWriter().write(.dictionary(d)), as: .xml)
    }
}

/// The progress line the long verbs draw on a terminal.
@Suite struct ProgressLineTextTests {
    @Test func halfTheWorkFillsHalfTheBarAndSaysFiftyPercent() {
        #expect(ProgressLineText.line(fraction: 0.5, detail: "12 rows") == String(repeating: "█", count: 15) + String(repeating: "░", count: 15) + "  50% 12 rows")
    }

    @Test func aFractionPastEitherEndDrawsAnEmptyOrAFullBar() {
        #expect(ProgressLineText.line(fraction: -0.2, detail: "").hasPrefix(String(repeating: "░", count: 30) + " "))
        #expect(ProgressLineText.line(fraction: 1, detail: "done") == String(repeating: "█", count: 30) + " 100% done")
    }
}
