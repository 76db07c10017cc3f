import Foundation
import PropertyList
import Testing

/// The drop-in plutil: macOS plutil's syntax, outputs, messages and exit codes, as its manual
/// and help text document them, run through a link named `plutil` and as `archivist plutil`.
@Suite struct PlutilCLITests {
    /// A folder with `plutil` linked to the built archivist, and a fresh Info.plist in XML.
    struct Workspace {
        let directory: URL
        var plutil: String { directory.appendingPathComponent("plutil").path }
        var info: String { directory.appendingPathComponent("Info.plist").path }

        init() throws {
            directory = URL(fileURLWithPath: ArchivistProcess.temporaryFile("plutil"))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("plutil").path,
                                                       withDestinationPath: ArchivistProcess.executable.path)
            try XMLPropertyListWriter().write(PlutilCLITests.info).write(to: URL(fileURLWithPath: info))
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// Runs the link, as a script on a Mac runs plutil.
        func run(_ arguments: [String], stdin: Data? = nil) throws -> ArchivistProcess.Result {
            try ArchivistProcess.run(URL(fileURLWithPath: plutil), arguments, stdin: stdin, directory: directory)
        }

        func read(_ name: String) throws -> PropertyListValue {
            try PropertyListReader().read(try Data(contentsOf: URL(fileURLWithPath: path(name)))).value
        }
    }

    static let info: PropertyListValue = [
        "CFBundleIdentifier": "com.example.app",
        "CFBundleVersion": "41",
        "CFBundleURLTypes": [["CFBundleURLSchemes": ["example"]]],
        "UIDeviceFamily": [1, 2],
        "Ratio": 0.5,
        "com.apple.security.app-sandbox": true,
    ]

    @Test func helpGoesToStandardOutputAndExits0() throws {
        let w = try Workspace()
        let r = try w.run(["-help"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("plutil: [command_option] [other_options] file..."))
        for flag in ["-lint", "-convert", "-insert", "-replace", "-remove", "-extract", "-type", "-create", "-p", "-s", "-o", "-e", "-r", "-n", "--"] {
            #expect(r.out.contains(" \(flag) "), "\(flag)")
        }
    }

    @Test func lintIsTheDefaultAndReportsEachFile() throws {
        let w = try Workspace()
        let broken = w.path("broken.plist")
        try Data("<plist><dict><key>a</key></plist>".utf8).write(to: URL(fileURLWithPath: broken))
        let ok = try w.run([w.info])
        #expect(ok.status == 0)
        #expect(ok.out == "\(w.info): OK\n")
        let both = try w.run(["-lint", w.info, broken])
        #expect(both.status == 1)
        #expect(both.out == "\(w.info): OK\n")
        #expect(both.err.hasPrefix("\(broken): ("))
        #expect(try w.run(["-lint", "-s", w.info]).out.isEmpty)
        let stdin = try w.run(["-lint", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: w.info)))
        #expect(stdin.out == "<stdin>: OK\n")
        let missing = try w.run(["-lint", w.path("nope.plist")])
        #expect(missing.status == 1)
        #expect(missing.err.contains("nope.plist"))
        #expect(try w.run(["-lint", "-o", "x", w.info]).err == "-o is not used with -lint.\n")
    }

    @Test func printShowsTheTreeAsPlutilDoes() throws {
        let w = try Workspace()
        let r = try w.run(["-p", w.info])
        #expect(r.status == 0)
        #expect(r.out == """
            {
              "CFBundleIdentifier" => "com.example.app"
              "CFBundleURLTypes" => [
                0 => {
                  "CFBundleURLSchemes" => [
                    0 => "example"
                  ]
                }
              ]
              "CFBundleVersion" => "41"
              "com.apple.security.app-sandbox" => true
              "Ratio" => 0.5
              "UIDeviceFamily" => [
                0 => 1
                1 => 2
              ]
            }

            """)
    }

    @Test func convertRewritesTheFileInPlaceOrWhereOAndESay() throws {
        let w = try Workspace()
        #expect(try w.run(["-convert", "binary1", w.info]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: w.info)).starts(with: "bplist00".utf8))
        #expect(try w.read("Info.plist") == Self.info)
        #expect(try w.run(["-convert", "xml1", "-e", "xml", w.info]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: w.path("Info.xml"))) == (try XMLPropertyListWriter().write(Self.info)))
        let json = try w.run(["-convert", "json", "-o", "-", w.info])
        #expect(json.out.hasPrefix("{\"") && !json.out.contains("\n"))
        let readable = try w.run(["-convert", "json", "-r", "-o", "-", w.info])
        #expect(readable.out.hasPrefix("{\n  \"CFBundleIdentifier\" : \"com.example.app\",\n"))
        #expect(try w.run(["-convert", "xml1", "-o", w.path("out.plist"), w.info]).status == 0)
        #expect(try w.read("out.plist") == Self.info)
    }

    @Test func convertRefusesWhatJSONCannotHold() throws {
        let w = try Workspace()
        #expect(try w.run(["-insert", "When", "-date", "2024-01-01T00:00:00Z", w.info]).status == 0)
        let r = try w.run(["-convert", "json", "-o", "-", w.info])
        #expect(r.status == 1)
        #expect(r.err == "\(w.info): Invalid object in plist for JSON format\n")
    }

    @Test func convertWritesSwiftAndObjectiveCLiteralsBesideTheFile() throws {
        let w = try Workspace()
        #expect(try w.run(["-convert", "swift", w.info]).status == 0)
        let swift = try String(contentsOfFile: w.path("Info.swift"), encoding: .utf8)
        #expect(swift.hasPrefix("/// Generated from Info.plist\nlet Info : [String : Any] = [\n"))
        #expect(try w.run(["-convert", "objc", "-header", w.info]).status == 0)
        let objc = try String(contentsOfFile: w.path("Info.m"), encoding: .utf8)
        #expect(objc.hasPrefix("#import \"Info.h\"\n\n/// Generated from Info.plist\n__attribute__((visibility(\"hidden\")))\nNSDictionary * const Info = @{\n"))
        let header = try String(contentsOfFile: w.path("Info.h"), encoding: .utf8)
        #expect(header.contains("extern NSDictionary * const Info;"))
        #expect(try w.read("Info.plist") == Self.info, "the input is left alone")
        #expect(try w.run(["-convert", "xml1", "-header", w.info]).err == "-header is only valid for objc literal conversions.\n")
    }

    @Test func insertReplaceAndRemoveEditTheFileInItsFormat() throws {
        let w = try Workspace()
        var expected = Self.info
        let steps: [([String], (inout PropertyListValue) throws -> Void)] = [
            (["-insert", "CFBundleName", "-string", "Example"], { try $0.edit("Example", at: PropertyListKeyPath("CFBundleName"), mode: .insert) }),
            (["-insert", "UIDeviceFamily.0", "-integer", "7"], { try $0.edit(7, at: PropertyListKeyPath("UIDeviceFamily.0"), mode: .insert) }),
            (["-insert", "CFBundleURLTypes.0.CFBundleURLSchemes", "-string", "beta", "-append"], {
                try $0.edit("beta", at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes"), mode: .append) }),
            (["-replace", "CFBundleVersion", "-string", "42"], { try $0.edit("42", at: PropertyListKeyPath("CFBundleVersion"), mode: .set) }),
            (["-replace", "New", "-bool", "YES"], { try $0.edit(true, at: PropertyListKeyPath("New"), mode: .set) }),
            (["-replace", "UIDeviceFamily.1", "-integer", "9"], { try $0.edit(9, at: PropertyListKeyPath("UIDeviceFamily.1"), mode: .set) }),
            (["-replace", "com\\.apple\\.security\\.app-sandbox", "-bool", "NO"], {
                try $0.edit(false, at: PropertyListKeyPath("com\\.apple\\.security\\.app-sandbox"), mode: .set) }),
            (["-insert", "Extra", "-json", "{\"a\":[1,\"b\"]}"], { try $0.edit(["a": [1, "b"]], at: PropertyListKeyPath("Extra"), mode: .insert) }),
            (["-insert", "Info", "-xml", "<plist><dict><key>k</key><real>1.5</real></dict></plist>"], {
                try $0.edit(["k": 1.5], at: PropertyListKeyPath("Info"), mode: .insert) }),
            (["-insert", "Blob", "-data", "AQID"], { try $0.edit(.data(Data([1, 2, 3])), at: PropertyListKeyPath("Blob"), mode: .insert) }),
            (["-insert", "Empty", "-array"], { try $0.edit([], at: PropertyListKeyPath("Empty"), mode: .insert) }),
            (["-insert", "Count", "-integer", "12abc"], { try $0.edit(12, at: PropertyListKeyPath("Count"), mode: .insert) }),
            (["-remove", "Ratio"], { _ = try $0.remove(at: PropertyListKeyPath("Ratio")) }),
        ]
        for (arguments, apply) in steps {
            let r = try w.run(arguments + [w.info])
            #expect(r.status == 0, "\(arguments): \(r.err)")
            try apply(&expected)
            #expect(try w.read("Info.plist") == expected, "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: w.info)) == (try XMLPropertyListWriter().write(expected)), "XML stays XML, Apple's layout")
    }

    @Test func failedEditsSayWhatPlutilSaysAndLeaveTheFile() throws {
        let w = try Workspace()
        let before = try Data(contentsOf: URL(fileURLWithPath: w.info))
        let cases: [([String], String)] = [
            (["-insert", "CFBundleVersion", "-string", "x"], "Value already exists at key path CFBundleVersion"),
            (["-insert", "Missing.key", "-string", "x"], "Key path not found Missing.key"),
            (["-insert", "UIDeviceFamily.9", "-integer", "1"], "Index 9 out of bounds in array at key path UIDeviceFamily.9"),
            (["-insert", "UIDeviceFamily.x", "-integer", "1"], "Unable to index into array with key path UIDeviceFamily.x"),
            (["-insert", "CFBundleVersion", "-string", "x", "-append"], "Appending to a non-array at key path CFBundleVersion"),
            (["-remove", "Nope"], "No value to remove at key path Nope"),
        ]
        for (arguments, message) in cases {
            let r = try w.run(arguments + [w.info])
            #expect(r.status == 1, "\(arguments)")
            #expect(r.err == "\(w.info): \(message)\n", "\(arguments)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: w.info)) == before)
        }
        #expect(try w.run(["-insert", "k", "-float"]).err == "'Insert' and 'Replace' require a key path, a type, and a value2.\n")
        #expect(try w.run(["-insert", "k", "-number", "1", w.info]).err == "Unknown insert or replace type -number\n")
        #expect(try w.run(["-insert", "k", "-data", "!!!", w.info]).err == "Invalid base64 data in argument\n")
    }

    @Test func extractWritesRawValuesToStandardOutputAndDocumentsToTheFile() throws {
        let w = try Workspace()
        #expect(try w.run(["-extract", "CFBundleIdentifier", "raw", w.info]).out == "com.example.app\n")
        #expect(try w.run(["-extract", "CFBundleIdentifier", "raw", "-n", w.info]).out == "com.example.app")
        #expect(try w.run(["-extract", "UIDeviceFamily", "raw", w.info]).out == "2\n")
        #expect(try w.run(["-extract", "Ratio", "raw", w.info]).out == "0.500000\n")
        #expect(try w.run(["-extract", "CFBundleURLTypes.0", "raw", w.info]).out == "CFBundleURLSchemes\n")
        #expect(try w.run(["-extract", "com\\.apple\\.security\\.app-sandbox", "raw", "-expect", "bool", w.info]).out == "true\n")
        let json = try w.run(["-extract", "CFBundleURLTypes", "json", "-o", "-", w.info])
        #expect(json.out == #"[{"CFBundleURLSchemes":["example"]}]"#)
        let mismatch = try w.run(["-extract", "Ratio", "raw", "-expect", "integer", w.info])
        #expect(mismatch.status == 1)
        #expect(mismatch.err == "\(w.info): Value at [Ratio] expected to be integer but is float\n")
        let missing = try w.run(["-extract", "Nope", "raw", w.info])
        #expect(missing.status == 1)
        #expect(missing.err == "\(w.info): Could not extract value, error: No value at that key path or invalid key path: Nope\n")
        #expect(try w.run(["-extract", "Nope", "raw", "-expect", "number", w.info]).err == "-expect type [number] not valid.\n")
        // As on macOS, a document format without -o replaces the file with the value.
        #expect(try w.run(["-extract", "UIDeviceFamily", "xml1", w.info]).status == 0)
        #expect(try w.read("Info.plist") == [1, 2])
    }

    @Test func extractFromABinaryFileAndFromStandardInput() throws {
        let w = try Workspace()
        let binary = w.path("Info.bplist")
        try BinaryPropertyListWriter().write(Self.info).write(to: URL(fileURLWithPath: binary))
        #expect(try w.run(["-extract", "CFBundleURLTypes.0.CFBundleURLSchemes.0", "raw", binary]).out == "example\n")
        let piped = try w.run(["-extract", "CFBundleVersion", "raw", "-"], stdin: BinaryPropertyListWriter().write(Self.info))
        #expect(piped.out == "41\n")
    }

    @Test func typeNamesTheValue() throws {
        let w = try Workspace()
        #expect(try w.run(["-type", "UIDeviceFamily", w.info]).out == "array\n")
        #expect(try w.run(["-type", "Ratio", "-n", w.info]).out == "float")
        #expect(try w.run(["-type", "Ratio", "-expect", "float", w.info]).status == 0)
        #expect(try w.run(["-type", "Ratio", "-expect", "string", w.info]).status == 1)
    }

    @Test func createWritesAnEmptyDictionary() throws {
        let w = try Workspace()
        #expect(try w.run(["-create", "binary1", w.path("new.plist")]).status == 0)
        #expect(try w.read("new.plist") == .dictionary(PropertyListDictionary()))
        #expect(try w.run(["-create", "json", "-"]).out == "{}")
        #expect(try w.run(["-create", "xml1", "-"]).stdout == (try XMLPropertyListWriter().write(.dictionary(PropertyListDictionary()))))
    }

    @Test func severalFilesAreEachHandledAndOneFailureMakesTheStatus1() throws {
        let w = try Workspace()
        let second = w.path("Second.plist")
        try BinaryPropertyListWriter().write(["a": 1]).write(to: URL(fileURLWithPath: second))
        let r = try w.run(["-insert", "New", "-string", "x", w.info, w.path("missing.plist"), second])
        #expect(r.status == 1)
        #expect(try w.read("Info.plist")["New"] == "x")
        #expect(try w.read("Second.plist")["New"] == "x")
        #expect(r.err.contains("missing.plist: "))
    }

    @Test func argumentsAfterDoubleDashAreFilesEvenWithADash() throws {
        let w = try Workspace()
        let dashed = w.path("-dashed.plist")
        try FileManager.default.copyItem(atPath: w.info, toPath: dashed)
        #expect(try w.run(["-lint", "-dashed.plist"]).err == "unrecognized option: -dashed.plist\n")
        let r = try w.run(["-lint", "--", "-dashed.plist"])
        #expect(r.status == 0)
        #expect(r.out == "-dashed.plist: OK\n")
    }

    @Test func usageErrorsExit1WithPlutilsMessage() throws {
        let w = try Workspace()
        for (arguments, message) in [([String](), "No files specified."), (["-lint"], "No files specified."),
                                     (["-convert"], "Missing format specifier for command."),
                                     (["-convert", "xml2", w.info], "Unknown format specifier: xml2"),
                                     (["-extract", "a"], "'Extract' requires a key path and a plist format."),
                                     (["-remove"], "'Remove' requires a key path."),
                                     (["-p", "-o", "x", w.info], "-o is not used with -p.")] {
            let r = try w.run(arguments)
            #expect(r.status == 1, "\(arguments)")
            #expect(r.err == message + "\n", "\(arguments)")
        }
    }

    @Test func archivistPlutilIsTheSameCommand() throws {
        let w = try Workspace()
        let r = try ArchivistProcess.run(["plutil", "-extract", "CFBundleVersion", "raw", w.info])
        #expect(r.status == 0)
        #expect(r.out == "41\n")
        #expect(try ArchivistProcess.run(["plutil", "-help"]).out.hasPrefix("archivist plutil: "))
        #expect(try ArchivistProcess.run(["plutil", "-lint", w.path("nope")]).status == 1)
    }
}
