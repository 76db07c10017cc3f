import Foundation
import Testing

@Suite struct CLITests {
    @Test func helpListsEveryVerb() throws {
        let r = try ArchivistProcess.run(["--help"])
        #expect(r.status == 0)
        for verb in ["print", "lint", "convert"] { #expect(r.out.contains(verb)) }
    }

    @Test func noVerbIsAUsageErrorThatPrintsTheVerbsToStandardError() throws {
        let r = try ArchivistProcess.run([])
        #expect(r.status == 64)
        #expect(r.out.isEmpty)
        for verb in ["print", "inspect", "migrate"] { #expect(r.err.contains(verb)) }
    }

    @Test func anUnknownOptionIsAUsageErrorWithStatus64() throws {
        let r = try ArchivistProcess.run(["lint", "--no-such-option", "x"])
        #expect(r.status == 64)
    }

    @Test func lintAcceptsEveryFormatAndNamesIt() throws {
        let r = try ArchivistProcess.run(["lint",
                                          ArchivistProcess.fixture("rust-plist-binary.plist"),
                                          ArchivistProcess.fixture("rust-plist-xml.plist"),
                                          ArchivistProcess.fixture("rust-plist-ascii-sample.plist")])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("rust-plist-binary.plist: OK (binary property list)"))
        #expect(r.out.contains("rust-plist-xml.plist: OK (XML property list)"))
        #expect(r.out.contains("rust-plist-ascii-sample.plist: OK (OpenStep property list)"))
    }

    @Test func lintReportsACorruptBinaryFileWithItsByteOffsetAndExits1() throws {
        let path = ArchivistProcess.temporaryFile("bad.bplist")
        var bytes = Array("bplist00".utf8)
        bytes += [0xA1, 0x05]                                   // array of one ref to object 5, which does not exist
        bytes += [0x08]                                         // offset table: object 0 at 8
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]                       // trailer: offset size 1, ref size 1
        bytes += [0, 0, 0, 0, 0, 0, 0, 1]                       // one object
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]                       // top object 0
        bytes += [0, 0, 0, 0, 0, 0, 0, 10]                      // offset table at 10
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let good = ArchivistProcess.fixture("rust-plist-binary.plist")
        let r = try ArchivistProcess.run(["lint", good, path])
        #expect(r.status == 1)
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("archivist: \(path): ") == true)
        #expect(r.err.contains("byte offset 9"))
        #expect(r.out.contains("OK"))
    }

    @Test func aSmallFileThatExpandsToMillionsOfValuesIsRefusedUnlessTheExpansionLimitIsLifted() throws {
        // 21 arrays, each holding the next twice, around "x": 2^21 leaves from 106 bytes, which
        // `print` would turn into over a gigabyte of text.
        let path = ArchivistProcess.temporaryFile("doubling.bplist")
        let levels = 21
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for i in 0..<levels {
            offsets.append(UInt8(bytes.count))
            bytes += [0xA2, UInt8(i + 1), UInt8(i + 1)]         // [next, next]
        }
        offsets.append(UInt8(bytes.count))
        bytes += [0x51, 0x78]                                   // "x"
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]                       // trailer: offset size 1, ref size 1
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(levels + 1)]
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for verb in [["print"], ["convert", "--to", "json"], ["lint"]] {
            let refused = try ArchivistProcess.run(verb + [path])
            #expect(refused.status == 1, "\(verb)")
            #expect(refused.err.contains("the most a \(bytes.count)-byte file may stand for"), "\(verb): \(refused.err)")
            #expect(refused.err.contains("(the expansion limit; --no-expansion-limit lifts it)"), "our flag, not a Swift option: \(refused.err)")
            #expect(refused.out.isEmpty, "\(verb) wrote to standard output")
        }
        // A sweep records the refusal and goes on; the record names the flag too.
        let folder = ArchivistProcess.temporaryFile("doubling-sweep")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/doubling.bplist"))
        let swept = try ArchivistProcess.run(["sweep", "--format", "jsonl", folder])
        #expect(swept.out.contains("(the expansion limit; --no-expansion-limit lifts it)"), "\(swept.out)")
        // The plutil drop-in has no such flag, and names none.
        let plutil = try ArchivistProcess.run(["plutil", "-lint", path])
        #expect(plutil.status == 1)
        #expect((plutil.out + plutil.err).contains("(the expansion limit)"), "\(plutil.out)\(plutil.err)")
        #expect(!(plutil.out + plutil.err).contains("--no-expansion-limit") && !(plutil.out + plutil.err).contains("PropertyListReadOptions"))
        // Lifted, only --max-objects applies: lint reads it (sharing keeps that cheap).
        let read = try ArchivistProcess.run(["lint", "--no-expansion-limit", path])
        #expect(read.status == 0, "\(read.err)")
    }

    @Test func lintReportsABrokenXMLFileWithLineAndColumn() throws {
        let path = ArchivistProcess.temporaryFile("bad.plist")
        try Data("<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<integer>x1</integer>\n</dict>\n</plist>\n".utf8).write(to: URL(fileURLWithPath: path))
        let r = try ArchivistProcess.run(["lint", path])
        #expect(r.status == 1)
        #expect(r.err.contains("line 4"), "\(r.err)")
    }

    @Test func lintSpeaksJSONForMachines() throws {
        let r = try ArchivistProcess.run(["lint", "--format", "json", ArchivistProcess.fixture("rust-plist-xml.plist")])
        #expect(r.status == 0)
        let records = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]
        #expect(records?.first?["valid"] as? Bool == true)
        #expect(records?.first?["format"] as? String == "xml")
    }

    @Test func anEmptyFileIsInvalidInput() throws {
        let path = ArchivistProcess.temporaryFile("empty")
        try Data().write(to: URL(fileURLWithPath: path))
        let r = try ArchivistProcess.run(["lint", path])
        #expect(r.status == 1)
        #expect(r.err.contains("empty input"))
    }

    @Test func aMissingFileIsReportedNotCrashedOn() throws {
        let r = try ArchivistProcess.run(["print", "/nonexistent/file.plist"])
        #expect(r.status == 1)
        #expect(r.err == "archivist: /nonexistent/file.plist: no such file\n")
    }

    @Test func convertWritesBinaryThatReadsBackAndLeavesTheInputAlone() throws {
        let input = ArchivistProcess.fixture("rust-plist-xml.plist")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let out = ArchivistProcess.temporaryFile("out.bplist")
        let r = try ArchivistProcess.run(["convert", input, "--to", "binary", "-o", out])
        #expect(r.status == 0, "\(r.err)")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(written.starts(with: Array("bplist00".utf8)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        let lint = try ArchivistProcess.run(["lint", out])
        #expect(lint.status == 0)
    }

    @Test func convertReadsStandardInputAndWritesStandardOutput() throws {
        let xml = try Data(contentsOf: URL(fileURLWithPath: ArchivistProcess.fixture("rust-plist-xml.plist")))
        let r = try ArchivistProcess.run(["convert", "-", "--to", "xml"], stdin: xml)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist"))
    }

    @Test func convertToJSONGivesJSONThatFoundationParses() throws {
        let r = try ArchivistProcess.run(["convert", ArchivistProcess.fixture("rust-plist-binary.plist"), "--to", "json"])
        #expect(r.status == 0, "\(r.err)")
        #expect((try? JSONSerialization.jsonObject(with: r.stdout)) != nil)
    }

    @Test func aFailedConversionWritesNoOutputFile() throws {
        // JSON has no NaN: the conversion fails and must leave no file behind.
        let out = ArchivistProcess.temporaryFile("never.json")
        let bplist = ArchivistProcess.temporaryFile("nan.bplist")
        var bytes = Array("bplist00".utf8)
        bytes += [0x23, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]          // real NaN
        bytes += [0x08]                                         // offset table
        bytes += [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 17]
        try Data(bytes).write(to: URL(fileURLWithPath: bplist))
        let r = try ArchivistProcess.run(["convert", bplist, "--to", "json", "-o", out])
        #expect(r.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(r.err.hasPrefix("archivist: \(bplist): "))
    }

    @Test func printShowsATreeWithoutColorsWhenNotOnATerminal() throws {
        let r = try ArchivistProcess.run(["print", ArchivistProcess.fixture("rust-plist-xml.plist")])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("{\n"))
        #expect(r.out.contains(" => "))
        #expect(!r.out.contains("\u{1B}["))
    }

    @Test func deepNestingIsReadOnTheDeepStackAndRefusedPastTheLimit() throws {
        // 100,000 nested arrays: valid, far deeper than CF's 512.
        var bytes = Array("bplist00".utf8)
        let depth = 100_000
        var offsets: [Int] = []
        for i in 0..<depth {
            offsets.append(bytes.count)
            let next = i + 1
            bytes += [0xA1, UInt8(next >> 16), UInt8(next >> 8 & 0xFF), UInt8(next & 0xFF)]
        }
        offsets.append(bytes.count)
        bytes += [0xA0]
        let table = bytes.count
        for o in offsets { bytes += [UInt8(o >> 16), UInt8(o >> 8 & 0xFF), UInt8(o & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 3, 3]
        for v in [UInt64(depth + 1), 0, UInt64(table)] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (UInt64($0) * 8)) } }
        let path = ArchivistProcess.temporaryFile("deep.bplist")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let ok = try ArchivistProcess.run(["convert", path, "--to", "xml", "-o", ArchivistProcess.temporaryFile("deep.xml")])
        #expect(ok.status == 0, "\(ok.err)")
        let refused = try ArchivistProcess.run(["lint", "--max-depth", "512", path])
        #expect(refused.status == 1)
        #expect(refused.err.contains("nesting deeper than 512"))
    }
}
