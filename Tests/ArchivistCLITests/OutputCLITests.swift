import Foundation
import Testing

/// Every byte a verb writes goes through one path: a failed write is one line and status 1,
/// a closed pipe ends quietly, and a file is replaced whole or not at all.
@Suite struct OutputCLITests {
    static let color = PayloadCLITests.archive("uicolor-tint.bplist")
    static let plist = ArchivistProcess.fixture("rust-plist-xml.plist")
    /// A folder for `sweep`: the hand-built archives.
    static let archives = ArchivistProcess.repository.appendingPathComponent("Fixtures/archives").path

    /// A JSON payload for `archive`, written once.
    static let payload: String = {
        let path = ArchivistProcess.temporaryFile("color.json")
        try? Data(#"{"red":1,"green":0.5,"blue":0,"alpha":1}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }()

    /// Every verb that writes, in each of its output forms.
    static func writingVerbs(store: String) -> [[String]] {
        [
            ["print", plist],
            ["lint", plist], ["lint", "--format", "json", plist],
            ["convert", plist, "--to", "xml"], ["convert", plist, "--to", "binary"], ["convert", plist, "--to", "json"],
            ["inspect", color], ["inspect", color, "--format", "json"], ["inspect", color, "--format", "dot"],
            ["check", color, "--allow", "UIColor"], ["check", color, "--allow", "UIColor", "--format", "json"],
            ["unarchive", color, "--allow", "UIColor", "--to", "json"], ["unarchive", color, "--allow", "UIColor", "--to", "xml"],
            ["archive", payload, "--class", ".=UIColor", "--to", "xml"],
            ["rewrite", color, "--rename-class", "UIColor=NSColor", "--to", "xml"],
            ["scan", store], ["scan", store, "--format", "json"],
            ["migrate", store, "--attribute", "BowTie.tintColor", "--to", "json", "--allow", "UIColor", "--dry-run"],
            ["migrate", store, "--attribute", "BowTie.tintColor", "--to", "json", "--allow", "UIColor", "--dry-run", "--format", "json"],
            ["model", ArchivistProcess.repository.appendingPathComponent("Fixtures/models/Palette.momd").path],
            ["model", ArchivistProcess.repository.appendingPathComponent("Fixtures/models/Palette.momd").path, "--audit"],
            ["model", ArchivistProcess.repository.appendingPathComponent("Fixtures/models/Palette.momd").path, "--format", "json"],
            ["codegen", color], ["codegen", store, "--attribute", "BowTie.tintColor"],
            ["rewrite", color, "--to", "binary", "-o", "-"],
            ["get", plist, "Author"], ["get", plist, "Author", "--to", "json"], ["type", plist, "Author"],
            ["set", plist, "Author", "--string", "A", "-o", "-"], ["insert", plist, "New", "--integer", "1", "-o", "-"],
            ["replace", plist, "Author", "--string", "A", "-o", "-"], ["remove", plist, "Author", "-o", "-"],
            ["convert", plist, "--to", "swift"], ["convert", payload, "--to", "objc"],
            ["plutil", "-p", plist], ["plutil", "-lint", plist], ["plutil", "-convert", "xml1", "-o", "-", plist],
            ["plutil", "-extract", "Author", "raw", plist], ["plutil", "-help"],
            ["--help"], ["lint", "--help"], ["--version"],
            ["inspect", color, "--format", "html"],
            ["sweep", archives], ["sweep", archives, "--format", "json"], ["sweep", archives, "--format", "html"],
            ["sweep", archives, "--format", "text"], ["sweep", store],
        ]
    }

    @Test func everyVerbThatWritesFailsWithOneLineOnAFullDevice() throws {
        let store = try StoreCLITests.makeStore(rows: 20)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for arguments in Self.writingVerbs(store: store.path) {
            let r = try ArchivistProcess.run(arguments, standardOutput: full)
            #expect(r.status == 1, "\(arguments): \(r.err)")
            #expect(r.err == "archivist: cannot write standard output: no space left on device\n", "\(arguments): \(r.err)")
        }
    }

    @Test func diffOnAFullDeviceSaysSoWithItsTroubleStatus() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try ArchivistProcess.run(["diff", Self.plist, ArchivistProcess.fixture("rust-plist-binary.plist")], standardOutput: full)
        #expect(r.status == 2, "diff(1)'s trouble status")
        #expect(r.err == "archivist: cannot write standard output: no space left on device\n", "\(r.err)")
    }

    @Test func aMigrationWhoseSummaryCannotBeWrittenStillConvertsAndExits1() throws {
        let store = try StoreCLITests.makeStore(rows: 20)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--allow", "UIColor", "--no-backup"],
                                         standardOutput: full)
        #expect(r.status == 1)
        #expect(r.err == "archivist: cannot write standard output: no space left on device\n")
        #expect(try StoreCLITests.tintColors(store.path).compactMap(\.value).allSatisfy { $0.first == UInt8(ascii: "{") })
    }

    @Test func everyVerbThatWritesAFileFailsWithOneLineOnAFullDevice() throws {
        for arguments in [["convert", Self.plist, "--to", "xml"], ["unarchive", Self.color, "--allow", "UIColor", "--to", "json"],
                          ["archive", Self.payload, "--class", ".=UIColor"], ["rewrite", Self.color, "--rename-class", "UIColor=NSColor"],
                          ["get", Self.plist, "Author", "--to", "xml"], ["set", Self.plist, "Author", "--string", "A"],
                          ["remove", Self.plist, "Author"], ["convert", Self.plist, "--to", "swift"],
                          ["plutil", "-convert", "binary1", Self.plist], ["inspect", Self.color, "--format", "html"],
                          ["sweep", Self.archives], ["sweep", Self.archives, "--format", "html"]] {
            let r = try ArchivistProcess.run(arguments + ["-o", "/dev/full"])
            #expect(r.status == 1, "\(arguments)")
            #expect(r.err == "archivist: cannot write /dev/full: no space left on device\n", "\(arguments): \(r.err)")
            #expect(r.out.isEmpty)
        }
    }

    @Test func aReaderThatClosesThePipeEndsTheOutputQuietly() throws {
        let store = try StoreCLITests.makeStore(rows: 20)
        // A big print and a big JSON export into a pipe whose reader is already gone.
        let big = ArchivistProcess.temporaryFile("big.json")
        try Data(("[" + (0..<200_000).map { "\"value \($0)\"" }.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: big))
        for arguments in [["print", big], ["convert", big, "--to", "xml"], ["inspect", Self.color, "--format", "json"],
                          ["convert", big, "--to", "swift"], ["set", big, "0", "--string", "x", "-o", "-"], ["plutil", "-p", big],
                          ["rewrite", Self.color, "--to", "xml"], ["codegen", Self.color], ["scan", store.path],
                          ["model", ArchivistProcess.repository.appendingPathComponent("Fixtures/models/Palette.momd").path], ["codegen", store.path, "--attribute", "BowTie.tintColor"],
                          ["inspect", Self.color, "--format", "html"], ["sweep", Self.archives], ["sweep", Self.archives, "--format", "html"]] {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            let r = try ArchivistProcess.run(arguments, standardOutput: pipe.fileHandleForWriting)
            #expect(r.status == 0, "\(arguments)")
            #expect(r.err.isEmpty, "\(arguments): \(r.err)")
        }
        // The status of a failed check is kept.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let refused = try ArchivistProcess.run(["check", Self.color], standardOutput: pipe.fileHandleForWriting)
        #expect(refused.status == 1)
        #expect(refused.err.isEmpty)
        // And diff's: the documents differ.
        let diffPipe = Pipe()
        try diffPipe.fileHandleForReading.close()
        let differ = try ArchivistProcess.run(["diff", Self.plist, big], standardOutput: diffPipe.fileHandleForWriting)
        #expect(differ.status == 1)
        #expect(differ.err.isEmpty, "\(differ.err)")
    }

    @Test func aReplacedFileKeepsItsModeAndNoTemporaryFileIsLeft() throws {
        let folder = try ArchivistProcess.temporaryFolder("replace")
        let target = folder + "/out.plist"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o640)
        let r = try ArchivistProcess.run(["convert", Self.plist, "--to", "xml", "-o", target])
        #expect(r.status == 0, "\(r.err)")
        var info = stat()
        stat(target, &info)
        #expect(info.st_mode & 0o777 == 0o640)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<?xml"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.plist"])
    }

    @Test func aNewFileGetsTheUsualModeNotTheTemporaryFilesOwn() throws {
        let target = ArchivistProcess.temporaryFile("new.plist")
        let r = try ArchivistProcess.run(["convert", Self.plist, "--to", "binary", "-o", target])
        #expect(r.status == 0)
        var info = stat()
        stat(target, &info)
        let mask = umask(0)
        umask(mask)
        #expect(info.st_mode & 0o777 == 0o666 & ~mask)
    }

    @Test func writingThroughASymbolicLinkReplacesItsTarget() throws {
        let folder = try ArchivistProcess.temporaryFolder("link")
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/real.plist"))
        symlink("real.plist", folder + "/link.plist")
        let r = try ArchivistProcess.run(["convert", Self.plist, "--to", "xml", "-o", folder + "/link.plist"])
        #expect(r.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.plist") == "real.plist")
        #expect(try String(contentsOfFile: folder + "/real.plist", encoding: .utf8).hasPrefix("<?xml"))
    }

    @Test func aDeviceNamedWithDashOIsWrittenNotReplaced() throws {
        // A null device of our own (as root), so that no other process on the machine that
        // replaces /dev/null meanwhile can fail this test; /dev/null itself otherwise.
        var device = try ArchivistProcess.temporaryFolder("device") + "/null"
        // Device 1:3 (makedev is a C macro: major << 8 | minor for small numbers).
        if mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) != 0 { device = "/dev/null" }
        let r = try ArchivistProcess.run(["convert", Self.plist, "--to", "xml", "-o", device])
        #expect(r.status == 0)
        var info = stat()
        stat(device, &info)
        #expect(info.st_mode & S_IFMT == S_IFCHR, "\(device) is still a device")
    }

    @Test func anOutputThatCannotBeMadeIsSaidInOurWords() throws {
        let missing = try ArchivistProcess.run(["convert", Self.plist, "--to", "xml", "-o", "/nonexistent/folder/out.plist"])
        #expect(missing.status == 1)
        #expect(missing.err == "archivist: cannot write /nonexistent/folder/out.plist: the folder /nonexistent/folder does not exist\n")
        let folder = try ArchivistProcess.temporaryFolder("a-folder")
        let isFolder = try ArchivistProcess.run(["convert", Self.plist, "--to", "xml", "-o", folder])
        #expect(isFolder.status == 1)
        #expect(isFolder.err == "archivist: cannot write \(folder): it is a folder\n")
        let missingFolder = folder + "/missing/"
        let trailingSlash = try ArchivistProcess.run(["convert", Self.plist, "--to", "xml", "-o", missingFolder])
        #expect(trailingSlash.status == 1)
        #expect(trailingSlash.err == "archivist: cannot write \(missingFolder): the folder \(missingFolder) does not exist (give a file name to write)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing was left beside it")
        for r in [missing, isFolder, trailingSlash] {
            #expect(!r.err.contains("NSCocoaErrorDomain") && !r.err.contains("The file"))
        }
    }

    @Test(.enabled(if: ArchivistProcess.hasTerminal, "needs script(1) to give a terminal"))
    func binaryOutputIsRefusedOnATerminalUnlessDashOIsGiven() throws {
        for arguments in [["convert", Self.plist, "--to", "binary"], ["unarchive", Self.color, "--allow", "UIColor", "--to", "binary"],
                          ["archive", Self.payload, "--class", ".=UIColor"], ["rewrite", Self.color, "--rename-class", "UIColor=NSColor"],
                          ["get", Self.plist, "Author", "--to", "binary"]] {
            let shown = try ArchivistProcess.runOnTerminal(arguments)
            #expect(shown.contains("refusing to write a binary"), "\(arguments): \(shown.debugDescription)")
            #expect(!shown.contains("bplist00"))
            let forced = try ArchivistProcess.runOnTerminal(arguments + ["-o", "-"])
            #expect(forced.contains("bplist00"), "\(arguments)")
        }
        // An edit of standard input goes back to standard output: binary only with -o -.
        let binary = ArchivistProcess.fixture("rust-plist-binary.plist")
        let edited = try ArchivistProcess.runOnTerminal(["set", "-", "Author", "--string", "A"], shellSuffix: "< '\(binary)'")
        #expect(edited.contains("refusing to write a binary"), "\(edited.debugDescription)")
        #expect(try ArchivistProcess.runOnTerminal(["set", "-", "Author", "--string", "A", "-o", "-"], shellSuffix: "< '\(binary)'").contains("bplist00"))
        // Text formats still show.
        #expect(try ArchivistProcess.runOnTerminal(["convert", Self.plist, "--to", "xml"]).contains("<plist"))
    }
}
