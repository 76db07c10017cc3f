import Foundation
import Testing
import PropertyList

/// `archive` as a user runs it: what `unarchive --to json` writes comes back, whatever the
/// root, and bad requests exit 1 with the path and write nothing.
@Suite struct ArchiveCLITests {
    /// JSON → archive → unarchive → archive: the second archive is the first, byte for byte,
    /// and `unarchive` gives the JSON back.
    @Test(arguments: [
        #""https:\/\/example.com\/a b""#,
        "42",
        "-1.5",
        "true",
        "null",
        #"[1,null,"x"]"#,
        #"{"nested":{"k":null}}"#,
        "{}",
    ])
    func whatUnarchiveWritesArchiveReadsBack(json: String) throws {
        let first = try ArchivistProcess.run(["archive", "-"], stdin: Data(json.utf8))
        #expect(first.status == 0, "\(first.err)")
        let payload = try ArchivistProcess.run(["unarchive", "--to", "json", "-"], stdin: first.stdout)
        #expect(payload.status == 0, "\(payload.err)")
        #expect(payload.out == json)
        let second = try ArchivistProcess.run(["archive", "-"], stdin: payload.stdout)
        #expect(second.status == 0, "\(second.err)")
        #expect(second.stdout == first.stdout)
    }

    @Test func aJSONFileWhoseRootIsAScalarArchivesThatScalar() throws {
        let path = ArchivistProcess.temporaryFile("t.json")
        try Data("true\n".utf8).write(to: URL(fileURLWithPath: path))
        let archived = try ArchivistProcess.run(["archive", path])
        #expect(archived.status == 0, "\(archived.err)")
        let shown = try ArchivistProcess.run(["inspect", "-"], stdin: archived.stdout)
        #expect(shown.out.hasPrefix("root = #1 NSNumber true"), "\(shown.out)")
    }

    @Test func fromOpenStepReadsALoneWordAsAString() throws {
        let asString = try ArchivistProcess.run(["archive", "--from", "openstep", "-"], stdin: Data("true".utf8))
        #expect(asString.status == 0, "\(asString.err)")
        let back = try ArchivistProcess.run(["unarchive", "--to", "json", "-"], stdin: asString.stdout)
        #expect(back.out == #""true""#)
        let refused = try ArchivistProcess.run(["archive", "--from", "json", "-"], stdin: Data("{ a = b; }".utf8))
        #expect(refused.status == 1)
        #expect(refused.err.hasPrefix("archivist: <stdin>: "), "\(refused.err)")
        #expect(try ArchivistProcess.run(["archive", "--from", "yaml", "-"], stdin: Data("1".utf8)).status == 64)
    }

    @Test func convertAndPrintDetectTheSameWay() throws {
        let converted = try ArchivistProcess.run(["convert", "-", "--to", "xml"], stdin: Data("42".utf8))
        #expect(converted.out.contains("<integer>42</integer>"), "\(converted.out)\(converted.err)")
        let lint = try ArchivistProcess.run(["lint", "-"], stdin: Data(#""a\/b""#.utf8))
        #expect(lint.out == "<stdin>: OK (JSON)\n", "\(lint.out)\(lint.err)")
    }

    /// Each bad request: exit 1, one line naming the problem and where, no output file.
    @Test(arguments: [
        (["--class", ".=3Color"], #"{"a":1}"#, "--class .=3Color: \"3Color\" has a part that starts with '3', not a letter or _"),
        (["--class", ".tint=UIColor"], #"{"color":{}}"#, "--class .tint=UIColor matches no value in the payload"),
        (["--max-depth", "3"], #"{"a":{"b":{"c":{"d":1}}}}"#, "nesting is deeper than the limit of 3 at line 1, column 16 (in root.a.b.c)"),
        (["--class", ".=UIColor"], #"[1]"#, "UIColor at . needs an object with red, green, blue and alpha, not an array"),
    ])
    func aBadRequestExitsOneWithThePathAndWritesNothing(options: [String], json: String, message: String) throws {
        let input = ArchivistProcess.temporaryFile("payload.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: input))
        let output = ArchivistProcess.temporaryFile("out.bplist")
        let r = try ArchivistProcess.run(["archive", input, "-o", output] + options)
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("archivist: \(input): "), "\(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
