import Foundation
import Testing
import PropertyList

/// `convert` of a binary property list to XML or binary writes it straight from its objects
/// (`BinaryPropertyListConverter`), into a file as it is produced (binary laid out a few
/// megabytes at a time, its references filled in afterwards), syncing it beside the writing
/// from 8 MB on; whatever the converter does not take goes through the tree as before. Either
/// way the bytes, the messages and the files left behind must be the tree path's.
@Suite struct ConvertCLITests {
    /// A binary property list of some megabytes: records of every common kind, so that a file
    /// output is handed on in several pieces and synced beside the writing (past 8 MB, in
    /// either format), and XML written by several threads.
    static let records: (path: String, value: PropertyListValue) = {
        var records: [PropertyListValue] = []
        for n in 0..<80_000 {
            var d = PropertyListDictionary()
            d.append(key: "name", value: .string(n % 4 == 0 ? "Zürich \(n)" : "item \(n)"))
            d.append(key: "count", value: .integer(PropertyListInteger(n * 31 - 9_000)))
            d.append(key: "score", value: .real(Double(n) / 7))
            d.append(key: "when", value: .date(Date(timeIntervalSinceReferenceDate: Double(n) * 3_600.5)))
            d.append(key: "blob", value: .data(Data((0..<(n % 40)).map { UInt8(truncatingIfNeeded: $0 * n) })))
            d.append(key: "tags", value: .array([.string("red"), .bool(n % 2 == 0)]))
            records.append(.dictionary(d))
        }
        let value = PropertyListValue.array(records)
        let path = ArchivistProcess.temporaryFile("records.bplist")
        FileManager.default.createFile(atPath: path, contents: BinaryPropertyListWriter().write(value))
        return (path, value)
    }()

    @Test(arguments: ["xml", "binary"])
    func aLargeBinaryFileConvertsToTheTreesBytesIntoAFileAndOntoStandardOutput(_ format: String) throws {
        let (path, value) = Self.records
        let expected = format == "xml" ? try XMLPropertyListWriter().write(value) : BinaryPropertyListWriter().write(value)
        // Past the 8 MB at which the file is first synced beside the writing.
        #expect(expected.count > 8 << 20)
        // Large enough for XML to be written by several threads where there are processors for them.
        let inputSize = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(inputSize >= BinaryPropertyListConverter().minimumBytesForWorkers)
        let out = ArchivistProcess.temporaryFile("records-out.\(format)")
        let toFile = try ArchivistProcess.run(["convert", path, "--to", format, "-o", out])
        #expect(toFile.status == 0, "\(toFile.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == expected)
        let toStandardOutput = try ArchivistProcess.run(["convert", path, "--to", format, "-o", "-"])
        #expect(toStandardOutput.status == 0, "\(toStandardOutput.err)")
        #expect(toStandardOutput.stdout == expected)
    }

    /// A file-size limit of 8,192 blocks (4 or 8 MB, as the shell counts them) stops the write
    /// part way (EFBIG): binary output in one of its positioned writes, XML in its stream, with
    /// syncs beside the writing begun or not. The failure is one line and status 1, the file
    /// the output would have replaced is as it was, and no temporary file is left.
    @Test(arguments: ["xml", "binary"])
    func aConversionTheDiskStopsPartWayLeavesTheDestinationAsItWas(_ format: String) throws {
        let (path, _) = Self.records
        let out = ArchivistProcess.temporaryFile("stopped.\(format)")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))
        let command = "ulimit -f 8192; trap '' XFSZ; exec '\(ArchivistProcess.executable.path)' convert '\(path)' --to \(format) -o '\(out)'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(message)")
        #expect(message.hasPrefix("archivist: cannot write \(out): "), "\(message)")
        #expect(message.filter { $0 == "\n" }.count == 1, "\(message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("keep me".utf8))
        let folder = (out as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("stopped.\(format).archivist-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func aBinaryFileHoldingWhatXMLCannotHoldFailsAsBeforeAndLeavesTheDestinationAlone() throws {
        // [null]: read by the binary reader, refused by the XML writer.
        let path = ArchivistProcess.temporaryFile("null.bplist")
        var bytes = Array("bplist00".utf8)
        bytes += [0xA1, 1, 0x00]                                // array of one ref; null
        bytes += [8, 10]                                        // offset table at 11
        bytes += [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let out = ArchivistProcess.temporaryFile("kept.xml")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))
        let r = try ArchivistProcess.run(["convert", path, "--to", "xml", "-o", out])
        #expect(r.status == 1)
        #expect(r.err == "archivist: \(path): cannot write xml: null cannot be written in XML (in root[0])\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("keep me".utf8))
        let folder = (out as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("kept.xml.archivist-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // Binary holds it: converted from its objects.
        let binary = try ArchivistProcess.run(["convert", path, "--to", "binary", "-o", "-"])
        #expect(binary.status == 0)
        #expect(binary.stdout == BinaryPropertyListWriter().write(.array([.null])))
    }

    @Test func aDamagedBinaryFileIsReportedByTheReaderWhicheverWayItIsConverted() throws {
        let (path, _) = Self.records
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] = 0xFF    // an unknown marker, or a broken count, somewhere in the middle
        let damaged = ArchivistProcess.temporaryFile("damaged.bplist")
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let lint = try ArchivistProcess.run(["lint", damaged])
        for format in ["xml", "binary"] {
            let out = ArchivistProcess.temporaryFile("damaged.\(format)")
            let r = try ArchivistProcess.run(["convert", damaged, "--to", format, "-o", out])
            #expect(r.status == lint.status)
            if lint.status != 0 {
                // lint words the error as `archivist: FILE: …`, as convert does, and nothing is
                // written: no output, no temporary file left beside it (XML of a file this size
                // is written by several threads, which may have handed on pieces before the damage).
                #expect(r.err == lint.err, "\(format)")
                #expect(!FileManager.default.fileExists(atPath: out), "\(format)")
                let folder = (out as NSString).deletingLastPathComponent
                let name = (out as NSString).lastPathComponent
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name + ".archivist-") }
                #expect(leftovers.isEmpty, "\(leftovers)")
            }
        }
    }
}
