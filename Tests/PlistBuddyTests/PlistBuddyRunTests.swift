import Foundation
import PlistBuddy
import PropertyList
import Testing

/// The run as a whole: arguments, when the file is read and written and in what format,
/// `Save`, `Revert`, `Exit`, interactive mode, and the exit status.
///
/// Sources: the recorded macOS runs and the reconstruction of PlistBuddy's main loop in
/// github.com/Remorix/PlistBuddy (main.c, State.c: commands parsed as the arguments are read,
/// the file saved once at the end when a command changed it, `Exit` doing nothing under -c);
/// viraptor/re-plistbuddy's tests (Print never writes a read-only file; `Exit` does not stop the
/// save under -c); the manual (`-c` runs the command and exits, otherwise interactive mode).
@Suite struct PlistBuddyRunTests {
    static let info: PropertyListValue = ["CFBundleVersion": "41", "CFBundleIdentifier": "com.example.app", "UIDeviceFamily": [1, 2]]

    @Test func theOriginalSaveFormatKeepsABinaryFileBinaryAndAnXMLFileXML() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("b.plist", BinaryPropertyListWriter().write(Self.info))
        try w.write("x.plist", XMLPropertyListWriter().write(Self.info))
        var options = PlistBuddyWorkspace.utc
        options.saveFormat = .original
        for name in ["b.plist", "x.plist"] {
            #expect(w.run(name, ["Set :CFBundleVersion 42"], options: options).status == 0)
        }
        let binary = try w.read("b.plist")
        #expect(binary.format == .binary)
        #expect(binary.value["CFBundleVersion"] == "42")
        let xml = try w.read("x.plist")
        #expect(xml.format == .xml)
        #expect(xml.value["CFBundleVersion"] == "42")
    }

    @Test func byDefaultEveryFileIsSavedAsXMLAsTheMacSavesIt() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("b.plist", BinaryPropertyListWriter().write(Self.info))
        #expect(w.run("b.plist", ["Add :New bool true"]).status == 0)
        #expect(try w.read("b.plist").format == .xml)
    }

    @Test func anOpenStepFileIsReadAndSavedAsXMLAndAJSONFileIsRefused() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("o.strings", "{ greeting = \"hello\"; }")
        #expect(w.run("o.strings", ["Print :greeting", "Set :greeting bye"]).out == "hello\n")
        #expect(try w.read("o.strings").format == .xml)
        #expect(try w.read("o.strings").value == ["greeting": "bye"])
        try w.write("j.json", "{\"a\": 1}")
        let json = w.run("j.json", ["Print"])
        #expect(json.status == 1)
        #expect(json.out == "Error Reading File: j.json\n")
        #expect(json.error.hasPrefix("j.json: "))
    }

    @Test func anUnreadableFileIsSaidOnBothStreamsWithStatus1() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("bad.plist", Data("not a plist\u{0}\u{1}".utf8))
        let r = w.run("bad.plist", ["Print"])
        #expect(r.out == "Error Reading File: bad.plist\n")
        #expect(r.error.hasPrefix("bad.plist: "))
        #expect(r.status == 1)
        try w.write("empty.plist", Data())
        #expect(w.run("empty.plist", ["Print"]).status == 1)
    }

    @Test func aCommandThatDoesNotParseStopsTheRunBeforeAnyCommandRuns() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("x.plist", XMLPropertyListWriter().write(Self.info))
        let before = try w.bytes("x.plist")
        let r = w.run(["x.plist", "-c", "Set :CFBundleVersion 1", "-c", "Frobnicate", "-c", "Print"])
        #expect(r.out == "Unrecognized Command\n")
        #expect(r.status == 1)
        #expect(try w.bytes("x.plist") == before)
    }

    @Test func everyCommandRunsAndTheRunFailsWhenOneDid() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("x.plist", XMLPropertyListWriter().write(Self.info))
        let r = w.run("x.plist", ["Print :CFBundleIdentifier", "Print :Nonexistent", "Print :CFBundleVersion"])
        #expect(r.out == "com.example.app\n41\n")
        #expect(r.error == "Print: Entry, \":Nonexistent\", Does Not Exist\n")
        #expect(r.status == 1)
    }

    @Test func theFileIsWrittenOnceAtTheEndAndOnlyWhenACommandCouldChangeIt() throws {
        let w = try PlistBuddyWorkspace()
        // Laid out as no writer here lays it out: any save would change its bytes.
        let handWritten = "<plist version=\"1.0\">\n  <dict>\n    <key>CFBundleVersion</key> <string>41</string>\n  </dict>\n</plist>\n"
        try w.write("x.plist", handWritten)
        #expect(w.run("x.plist", ["Print :CFBundleVersion", "Help", "CD :", "Save"]).status == 0)
        #expect(try w.text("x.plist") != handWritten)
        try w.write("x.plist", handWritten)
        #expect(w.run("x.plist", ["Print :CFBundleVersion", "Help", "CD :"]).status == 0)
        #expect(try w.text("x.plist") == handWritten)
        // A command that changes nothing still marks the document changed, as on a Mac: the
        // file is written again, in CF's layout (keys sorted, tabs).
        try w.write("x.plist", "<plist><dict><key>b</key><string>1</string><key>a</key><string>2</string></dict></plist>")
        #expect(w.run("x.plist", ["Delete :Nope"]).status == 1)
        #expect(try w.text("x.plist") == String(decoding: try XMLPropertyListWriter().write(["a": "2", "b": "1"]), as: UTF8.self))
        // Exit under -c does nothing: the commands after it run and the change is saved.
        #expect(w.run("x.plist", ["Set :a 3", "Exit", "Set :b 4"]).status == 0)
        #expect(try w.read("x.plist").value == ["a": "3", "b": "4"])
    }

    @Test func saveWritesNowAndRevertReadsTheFileAgain() throws {
        let w = try PlistBuddyWorkspace()
        let r = w.run(["new.plist"], input: ["Add :a string x", "Save", "Set :a y", "Revert", "Print :a", "Set :a z", "Exit"])
        #expect(r.out == "File Doesn't Exist, Will Create: new.plist\nCommand: Command: Saving...\nCommand: Command: Reverting to last saved state...\nCommand: x\nCommand: Command: ")
        #expect(r.status == 0)
        // Interactive mode saves only on Save: the last Set is lost, as Exit's help says.
        #expect(try w.read("new.plist").value == ["a": "x"])
        // Revert of a file never saved starts again from nothing, as opening it did.
        let fresh = w.run(["other.plist"], input: ["Add :a string x", "Revert", "Print"])
        #expect(fresh.out.hasSuffix("Reverting to last saved state...\nFile Doesn't Exist, Will Create: other.plist\nCommand: Dict {\n}\nCommand: "))
        #expect(!w.exists("other.plist"))
    }

    @Test func interactiveModeGoesOnAfterErrorsSkipsEmptyLinesAndEndsWithTheirStatus() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("x.plist", XMLPropertyListWriter().write(Self.info))
        let r = w.run(["x.plist"], input: ["Bogus", "", "Print :Nope", "Print :CFBundleVersion"])
        #expect(r.out == "Command: Unrecognized Command\nCommand: Command: Command: 41\nCommand: ")
        #expect(r.error == "Print: Entry, \":Nope\", Does Not Exist\n")
        #expect(r.status == 1)
    }

    @Test func xmlOutputMayBeAskedForAnywhereInTheArguments() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("x.plist", XMLPropertyListWriter().write(Self.info))
        #expect(w.run(["-c", "Print :CFBundleVersion", "x.plist", "-x"]).out.contains("<string>41</string>"))
    }

    @Test func dashLRefusesASymbolicLinkThatIsOtherwiseFollowed() throws {
        let w = try PlistBuddyWorkspace()
        try w.write("x.plist", XMLPropertyListWriter().write(Self.info))
        try FileManager.default.createSymbolicLink(atPath: w.path("link.plist"), withDestinationPath: w.path("x.plist"))
        #expect(w.run("link.plist", ["Print :CFBundleVersion"]).out == "41\n")
        let refused = w.run(["-l", "-c", "Print :CFBundleVersion", "link.plist"])
        #expect(refused.error == "Error Opening File: link.plist [Too many levels of symbolic links]\n")
        #expect(refused.out == "Error Reading File: link.plist\n")
        #expect(refused.status == 1)
    }

    @Test func aSaveThatFailsIsSaidAndFailsTheRun() throws {
        let w = try PlistBuddyWorkspace()
        // A path under a regular file: no file there (so a new document), and none can be made.
        try w.write("plain", "not a folder")
        let r = w.run("plain/x.plist", ["Add :a string x"])
        #expect(r.out == "File Doesn't Exist, Will Create: plain/x.plist\n")
        #expect(r.error.hasPrefix("Error Writing File: plain/x.plist ("))
        #expect(r.status == 1)
    }

    @Test func aLibraryCallerCanRunASessionCommandByCommand() throws {
        let w = try PlistBuddyWorkspace()
        let console = PlistBuddyTranscript()
        var session = try #require(PlistBuddySession(path: w.path("lib.plist"), options: PlistBuddyWorkspace.utc, console: console))
        for line in ["Add :Items array", "Add :Items: integer 1", "Add :Items: integer 2", "CD :Items", "Print 1"] {
            let command = try #require(PlistBuddyCommandParser.parse(line).command)
            session.run(command)
        }
        #expect(session.workingContainer.components == ["Items"])
        #expect(session.document == ["Items": [1, 2]])
        #expect(session.hasUnsavedChanges)
        session.save()
        #expect(!session.hasFailed)
        #expect(try w.read("lib.plist").value == ["Items": [1, 2]])
        #expect(console.outputText == "File Doesn't Exist, Will Create: \(w.path("lib.plist"))\n2\n")
    }
}
