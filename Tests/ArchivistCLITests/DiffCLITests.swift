import Foundation
import PropertyList
import Testing

/// `archivist diff`, whose exit status follows diff(1): 0 same, 1 different, 2 cannot read.
@Suite struct DiffCLITests {
    static func write(_ value: PropertyListValue, _ name: String, xml: Bool = false) throws -> String {
        let path = ArchivistProcess.temporaryFile(name)
        try (xml ? try XMLPropertyListWriter().write(value) : BinaryPropertyListWriter().write(value)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theSameDocumentInTwoFormatsIsEqualAndExits0() throws {
        let value: PropertyListValue = ["a": [1, 2.5, "x"], "d": .date(Date(timeIntervalSinceReferenceDate: 12))]
        let r = try ArchivistProcess.run(["diff", try Self.write(value, "a.plist", xml: true), try Self.write(value, "a.bplist")])
        #expect(r.status == 0)
        #expect(r.out.isEmpty)
    }

    @Test func differencesArePrintedOnePerLineAndExit1() throws {
        let old = try Self.write(["version": "1", "count": 1, "tags": ["a", "b"]], "old.plist")
        let new = try Self.write(["version": "2", "count": 1.0, "tags": ["b", "a"]], "new.plist")
        let r = try ArchivistProcess.run(["diff", old, new])
        #expect(r.status == 1)
        #expect(r.out == """
            ~ version: "1" → "2"
            ~ count: integer 1 → float 1.0 (type changed)
            ~ tags.0: "a" → "b"
            ~ tags.1: "b" → "a"

            """)
        let asSets = try ArchivistProcess.run(["diff", "--array-as-set", old, new])
        #expect(asSets.out.split(separator: "\n").count == 2)
        let json = try ArchivistProcess.run(["diff", old, new, "--format", "json"])
        #expect(json.status == 1)
        let report = try PropertyListReader().read(json.stdout).value
        #expect(report["kind"] == "propertyList")
        #expect(report.value(at: PropertyListKeyPath("differences.1.change")) == "typeChanged")
        #expect(report.value(at: PropertyListKeyPath("differences.1.new.type")) == "float")
    }

    @Test func anUnreadableDocumentExits2() throws {
        let good = try Self.write(["a": 1], "good.plist")
        let broken = ArchivistProcess.temporaryFile("broken.plist")
        try Data("bplist00 not really".utf8).write(to: URL(fileURLWithPath: broken))
        for arguments in [["diff", good, broken], ["diff", "/no/such/file", good]] {
            let r = try ArchivistProcess.run(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.err.hasPrefix("archivist: "))
        }
        let stdin = try ArchivistProcess.run(["diff", "-", good], stdin: BinaryPropertyListWriter().write(["a": 1]))
        #expect(stdin.status == 0)
    }

    @Test func archivesAreComparedAsGraphsUnlessAskedForPlists() throws {
        let fixtures = ArchivistProcess.repository.appendingPathComponent("Fixtures/archives")
        let color = fixtures.appendingPathComponent("uicolor-tint.bplist").path
        let custom = fixtures.appendingPathComponent("serializable-color-mangled.bplist").path
        #expect(try ArchivistProcess.run(["diff", color, color]).status == 0)
        let r = try ArchivistProcess.run(["diff", color, custom])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("~ root: UIColor "))
        #expect(r.out.contains("(type changed)"))
        let raw = try ArchivistProcess.run(["diff", "--plist", color, custom])
        #expect(raw.out.contains("$objects.1"))
    }

    @Test(.enabled(if: ArchivistProcess.hasTerminal, "script(1) is absent"))
    func colorsAppearOnATerminalOnly() throws {
        let old = try Self.write(["a": 1], "c1.plist")
        let new = try Self.write(["b": 1], "c2.plist")
        let shown = try ArchivistProcess.runOnTerminal(["diff", old, new], colors: true)
        #expect(shown.contains("\u{1B}[31m- a: 1"), "\(shown.debugDescription)")
        #expect(!(try ArchivistProcess.run(["diff", old, new]).out.contains("\u{1B}")))
        let withoutColor = try ArchivistProcess.run(["diff", old, new], environment: ["NO_COLOR": "1"])
        #expect(!withoutColor.out.contains("\u{1B}"))
    }
}
