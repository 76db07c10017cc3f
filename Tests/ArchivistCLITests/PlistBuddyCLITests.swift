import Foundation
import PropertyList
import Testing

/// The drop-in PlistBuddy, run as a script on a Mac runs it: through a link named `PlistBuddy`
/// and as `archivist plistbuddy`, with dates in the zone `TZ` names.
///
/// What the outputs should be comes from the PlistBuddy manual (commands, entries, types, the
/// `Add :CFBundleDocumentTypes:0 dict` examples), the runs recorded from macOS's PlistBuddy in
/// github.com/Remorix/PlistBuddy (formats and messages; replayed in PlistBuddyRecordedRunTests)
/// and docs/plistbuddy.md, which lists each fact with its source.
@Suite struct PlistBuddyCLITests {
    /// A folder with `PlistBuddy` linked to the built archivist, an Info.plist and the files
    /// the script merges and imports (all written here).
    struct Workspace {
        let directory: URL
        var plistBuddy: String { directory.appendingPathComponent("PlistBuddy").path }

        init() throws {
            directory = URL(fileURLWithPath: ArchivistProcess.temporaryFile("plistbuddy"))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: plistBuddy, withDestinationPath: ArchivistProcess.executable.path)
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        func write(_ name: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path(name))) }

        func read(_ name: String) throws -> (value: PropertyListValue, format: PropertyListFormat) {
            try PropertyListReader().read(try Data(contentsOf: URL(fileURLWithPath: path(name))))
        }

        /// Runs the link in the folder, in UTC unless `zone` says otherwise.
        func run(_ arguments: [String], stdin: Data? = nil, zone: String = "UTC") throws -> ArchivistProcess.Result {
            try ArchivistProcess.run(URL(fileURLWithPath: plistBuddy), arguments, stdin: stdin, environment: ["TZ": zone], directory: directory)
        }
    }

    static let info: PropertyListValue = [
        "CFBundleIdentifier": "com.example.app",
        "CFBundleVersion": "41",
        "CFBundleShortVersionString": "1.0",
        "Notes": "old notes",
        "Obsolete": true,
        "UIDeviceFamily": [1, 2],
    ]

    static let icon = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01, 0x02])

    /// 41 commands: every command (and `Help`, `Save`, `Revert`, `Exit`, `CD`), every type, and
    /// an entry that does not exist.
    static let script = [
        "Print :CFBundleIdentifier",
        "Set :CFBundleVersion 42",
        "Set :CFBundleShortVersionString \"1.2 beta\"",
        "Add :CFBundleGetInfoString string \"App version 1.0.1\"",
        "Add :LSRequiresIPhoneOS bool YES",
        "Add :Ratio real 0.75",
        "Add :BuildNumber integer 1234",
        "Add :BuildDate date \"Tue Jan 02 03:04:05 UTC 2024\"",
        "Add :Token data s3cr3t",
        "Add :CFBundleDocumentTypes array",
        "Add :CFBundleDocumentTypes: dict",
        "Add :CFBundleDocumentTypes:0:CFBundleTypeName string Document",
        "Add :CFBundleDocumentTypes:0:CFBundleTypeExtensions array",
        "Add :CFBundleDocumentTypes:0:CFBundleTypeExtensions: string txt",
        "Add :CFBundleDocumentTypes:0 dict",
        "Add :CFBundleDocumentTypes:0:CFBundleTypeName string First",
        "Print :CFBundleDocumentTypes",
        "Copy :CFBundleDocumentTypes:1 :Backup:Type",
        "Delete :CFBundleDocumentTypes:0",
        "Set :Backup:Type:CFBundleTypeName Copied",
        "Merge extra.plist",
        "Merge -r extra-deep.plist :Backup",
        "Import :Icon icon.png",
        "Import :Notes notes.txt",
        "Print :Icon",
        "Print :Ratio",
        "Print :BuildDate",
        "Print :LSRequiresIPhoneOS",
        "Print :Missing",
        "Set :UIDeviceFamily:1 3",
        "Delete :Obsolete",
        "CD :Backup",
        "Print Type:CFBundleTypeName",
        "Save",
        "Clear array",
        "Add :0 string scratch",
        "Print",
        "Revert",
        "Help",
        "Exit",
        "Set :CFBundleVersion 43",
    ]

    static func scriptWorkspace() throws -> Workspace {
        let w = try Workspace()
        try w.write("Info.plist", XMLPropertyListWriter().write(info))
        try w.write("extra.plist", XMLPropertyListWriter().write(["CFBundleVersion": "99", "NSHumanReadableCopyright": "© Example"]))
        try w.write("extra-deep.plist", BinaryPropertyListWriter().write(["Type": ["CFBundleTypeRole": "Viewer", "CFBundleTypeName": "ignored"]]))
        try w.write("icon.png", icon)
        try w.write("notes.txt", Data("new notes".utf8))
        return w
    }

    static let expectedOutput: Data = {
        var out = Data("""
            com.example.app
            Array {
                Dict {
                    CFBundleTypeName = First
                }
                Dict {
                    CFBundleTypeName = Document
                    CFBundleTypeExtensions = Array {
                        txt
                    }
                }
            }
            Duplicate Entry Was Skipped: CFBundleVersion
            Duplicate Entry Was Skipped: CFBundleTypeName

            """.utf8)
        out.append(icon)
        out.append(Data("""

            0.750000
            Tue Jan 02 03:04:05 UTC 2024
            true
            Copied
            Saving...
            Initializing Plist...
            Array {
                scratch
            }
            Reverting to last saved state...

            """.utf8))
        return out
    }()

    static let expectedFile: PropertyListValue = [
        "CFBundleIdentifier": "com.example.app",
        "CFBundleVersion": "43",
        "CFBundleShortVersionString": "1.2 beta",
        "CFBundleGetInfoString": "App version 1.0.1",
        "LSRequiresIPhoneOS": true,
        "Ratio": 0.75,
        "BuildNumber": 1234,
        "BuildDate": .date(Date(timeIntervalSince1970: 1704164645)),
        "Token": .data(Data("s3cr3t".utf8)),
        "CFBundleDocumentTypes": [["CFBundleTypeName": "Document", "CFBundleTypeExtensions": ["txt"]]],
        "Backup": ["Type": ["CFBundleTypeName": "Copied", "CFBundleTypeExtensions": ["txt"], "CFBundleTypeRole": "Viewer"]],
        "NSHumanReadableCopyright": "© Example",
        "Icon": .data(icon),
        "Notes": "new notes",
        "UIDeviceFamily": [1, 3],
    ]

    @Test func aScriptOf41CommandsGivesTheOutputAndTheFileTheManualAndTheMacsRunsSay() throws {
        #expect(Self.script.count >= 30)
        let w = try Self.scriptWorkspace()
        let r = try w.run(Self.script.flatMap { ["-c", $0] } + ["Info.plist"])
        // Help's guide is in our words: it sits between Revert's line and the end.
        let help = r.stdout.range(of: Data("Command Format:\n".utf8))
        let helpStart = try #require(help?.lowerBound)
        #expect(r.stdout[..<helpStart] == Self.expectedOutput)
        #expect(String(decoding: r.stdout[helpStart...], as: UTF8.self).contains("Merge <file.plist> [<Entry>]"))
        #expect(r.err == "Print: Entry, \":Missing\", Does Not Exist\n")
        #expect(r.status == 1)
        let saved = try w.read("Info.plist")
        #expect(saved.format == .xml)
        #expect(saved.value == Self.expectedFile)
        // Written as CoreFoundation lays out XML: keys sorted, tabs.
        #expect(try String(contentsOfFile: w.path("Info.plist"), encoding: .utf8) == String(decoding: try XMLPropertyListWriter().write(Self.expectedFile), as: UTF8.self))
    }

    @Test func theVerbAndTheLinkAreTheSameProgram() throws {
        let w = try Self.scriptWorkspace()
        let verb = try ArchivistProcess.run(["plistbuddy", "-c", "Print :CFBundleVersion", w.path("Info.plist")])
        #expect(verb.out == "41\n")
        #expect(verb.status == 0)
        let usage = try ArchivistProcess.run(["plistbuddy"])
        #expect(usage.out.hasPrefix("Usage: archivist plistbuddy [-cxlh] <file.plist>\n"))
        #expect(usage.status == 1)
        let linked = try w.run([])
        #expect(linked.out.hasPrefix("Usage: PlistBuddy [-cxlh] <file.plist>\n"))
        #expect(try ArchivistProcess.run(["--help"]).out.contains("plistbuddy"))
    }

    @Test func aBinaryPreferencesFileIsSavedAsXMLAsTheMacSavesItAndDashIsAFileName() throws {
        let w = try Workspace()
        try w.write("prefs.plist", BinaryPropertyListWriter().write(Self.info))
        #expect(try w.run(["-c", "Set :CFBundleVersion 50", "prefs.plist"]).status == 0)
        let saved = try w.read("prefs.plist")
        #expect(saved.format == .xml)
        #expect(saved.value["CFBundleVersion"] == "50")
        let dash = try w.run(["-c", "Add :a integer 1", "-"])
        #expect(dash.out == "File Doesn't Exist, Will Create: -\n")
        #expect(try w.read("-").value == ["a": 1])
    }

    @Test func datesAreShownInTheLocalZoneByItsStandardName() throws {
        let w = try Workspace()
        try w.write("d.plist", XMLPropertyListWriter().write(["d": .date(Date(timeIntervalSince1970: 1720108800))]))
        // Noon on 4 July in New York is daylight saving time; PlistBuddy still says EST.
        #expect(try w.run(["-c", "Print :d", "d.plist"], zone: "America/New_York").out == "Thu Jul 04 12:00:00 EST 2024\n")
        #expect(try w.run(["-c", "Print :d", "d.plist"], zone: "UTC").out == "Thu Jul 04 16:00:00 UTC 2024\n")
        // A date typed in is local time.
        #expect(try w.run(["-c", "Set :d \"Thu Jul 04 08:00:00 2024\"", "d.plist"], zone: "America/New_York").status == 0)
        #expect(try w.read("d.plist").value == ["d": .date(Date(timeIntervalSince1970: 1720094400))])
    }

    @Test func interactiveModePromptsOnATerminalAndReadsCommandsUntilExit() throws {
        let w = try Self.scriptWorkspace()
        let piped = try w.run(["Info.plist"], stdin: Data("Print :CFBundleVersion\nSet :CFBundleVersion 7\nExit\n".utf8))
        #expect(piped.out == "Command: 41\nCommand: Command: ")
        #expect(piped.status == 0)
        // Not saved: only Save writes in interactive mode.
        #expect(try w.read("Info.plist").value["CFBundleVersion"] == "41")
        guard ArchivistProcess.hasTerminal else { return }
        // On a terminal (script(1) gives it one for both streams): the prompt, the echo of each
        // line typed, and the output.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qc", "'\(w.plistBuddy)' '\(w.path("Info.plist"))'", "/dev/null"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("Print :CFBundleIdentifier\nQuit\n".utf8))
        let shown = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(shown.contains("Command: "))
        #expect(shown.contains("com.example.app\r\n"))
        #expect(process.terminationStatus == 0)
    }
}
