import Foundation
import PlistBuddy
import Testing

/// Runs recorded from macOS 13's /usr/libexec/PlistBuddy, replayed: the same arguments on the
/// same files give the same standard output, standard error, exit status and file.
///
/// Source: github.com/Remorix/PlistBuddy, tests/regression.sh and tests/reference/ (each case's
/// run.stdout, run.stderr, run.exit and saved plist, written by tests/update-reference.sh from
/// the Mac's PlistBuddy with TZ=UTC). Where Archivist departs on purpose, the case says how:
/// the help text is in our words (docs/plistbuddy.md).
@Suite struct PlistBuddyRecordedRunTests {
    /// What a recorded case starts from: no file, or the template copied to `case.plist`.
    enum Start: Sendable { case missing, dictionary, array }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var start: Start
        var arguments: [String]
        var input: [String]? = nil
        var stdout: String
        var stderr = ""
        var status: Int32 = 0
        /// The file saved, as the Mac wrote it; nil when the case recorded none.
        var file: (name: String, text: String)? = nil
        var testDescription: String { name }
    }

    /// An XML property list as CoreFoundation lays it out, around `body` (tab-indented lines).
    static func xml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }

    static let created = "File Doesn't Exist, Will Create: missing.plist\n"
    static let rootPrinted = "Dict {\n    root = Dict {\n        a = one\n        arr = Array {\n            x\n        }\n    }\n}\n"
    static let rootWithoutPlain = xml("<dict>\n\t<key>root</key>\n\t<dict>\n\t\t<key>a</key>\n\t\t<string>one</string>\n\t\t<key>arr</key>\n\t\t<array>\n\t\t\t<string>x</string>\n\t\t</array>\n\t</dict>\n</dict>")
    static let blob = xml("<dict>\n\t<key>blob</key>\n\t<data>\n\tQUJDAERFRg==\n\t</data>\n\t<key>plain</key>\n\t<string>text</string>\n\t<key>root</key>\n\t<dict>\n\t\t<key>a</key>\n\t\t<string>one</string>\n\t\t<key>arr</key>\n\t\t<array>\n\t\t\t<string>x</string>\n\t\t</array>\n\t</dict>\n</dict>")

    static let cases: [Case] = [
        Case(name: "no-args", start: .missing, arguments: [], stdout: PlistBuddyHelp.usage("PlistBuddy"), status: 1),
        Case(name: "missing-c-arg", start: .missing, arguments: ["-c"], stdout: PlistBuddyHelp.usage("PlistBuddy"), status: 1),
        Case(name: "help-short", start: .missing, arguments: ["-h"], stdout: PlistBuddyHelp.guide, status: 1),
        Case(name: "help-long", start: .missing, arguments: ["--help"], stdout: PlistBuddyHelp.guide, status: 1),
        Case(name: "invalid-double-path", start: .missing, arguments: ["one.plist", "two.plist"],
             stdout: "File Doesn't Exist, Will Create: one.plist\nInvalid Arguments\n\n", status: 1),
        Case(name: "print-root-missing", start: .missing, arguments: ["missing.plist", "-c", "Print"], stdout: created + "Dict {\n}\n"),
        Case(name: "print-missing-key", start: .missing, arguments: ["missing.plist", "-c", "Print :missing"], stdout: created,
             stderr: "Print: Entry, \":missing\", Does Not Exist\n", status: 1),
        Case(name: "clear-default", start: .missing, arguments: ["missing.plist", "-c", "Clear", "-c", "Print"],
             stdout: created + "Unrecognized Type: \nInitializing Plist...\nDict {\n}\n", file: ("missing.plist", xml("<dict/>"))),
        Case(name: "clear-array", start: .missing, arguments: ["missing.plist", "-c", "Clear array", "-c", "Add :0 string x", "-c", "Print"],
             stdout: created + "Initializing Plist...\nArray {\n    x\n}\n", file: ("missing.plist", xml("<array>\n\t<string>x</string>\n</array>"))),
        Case(name: "add-string-spaces", start: .missing, arguments: ["missing.plist", "-c", "Add :msg string \"hello world\"", "-c", "Print :msg"],
             stdout: created + "hello world\n", file: ("missing.plist", xml("<dict>\n\t<key>msg</key>\n\t<string>hello world</string>\n</dict>"))),
        Case(name: "add-string-single-quotes", start: .missing, arguments: ["missing.plist", "-c", "Add :msg string 'hello world'", "-c", "Print :msg"],
             stdout: created + "hello world\n", file: ("missing.plist", xml("<dict>\n\t<key>msg</key>\n\t<string>hello world</string>\n</dict>"))),
        Case(name: "escaped-colon-key", start: .missing, arguments: ["missing.plist", "-c", #"Add :foo\:bar string baz"#, "-c", #"Print :foo\:bar"#],
             stdout: created + "baz\n", file: ("missing.plist", xml("<dict>\n\t<key>foo:bar</key>\n\t<string>baz</string>\n</dict>"))),
        Case(name: "bool-true", start: .missing, arguments: ["missing.plist", "-c", "Add :flag bool yes", "-c", "Print :flag"],
             stdout: created + "true\n", file: ("missing.plist", xml("<dict>\n\t<key>flag</key>\n\t<true/>\n</dict>"))),
        Case(name: "bool-false", start: .missing, arguments: ["missing.plist", "-c", "Add :flag bool no", "-c", "Print :flag"],
             stdout: created + "false\n", file: ("missing.plist", xml("<dict>\n\t<key>flag</key>\n\t<false/>\n</dict>"))),
        Case(name: "real-value", start: .missing, arguments: ["missing.plist", "-c", "Add :pi real 3.5", "-c", "Print :pi"],
             stdout: created + "3.500000\n", file: ("missing.plist", xml("<dict>\n\t<key>pi</key>\n\t<real>3.5</real>\n</dict>"))),
        Case(name: "integer-value", start: .missing, arguments: ["missing.plist", "-c", "Add :n integer 42", "-c", "Print :n"],
             stdout: created + "42\n", file: ("missing.plist", xml("<dict>\n\t<key>n</key>\n\t<integer>42</integer>\n</dict>"))),
        Case(name: "date-value", start: .missing, arguments: ["missing.plist", "-c", "Add :d date \"Mon Jan 01 00:00:00 UTC 2024\"", "-c", "Print :d"],
             stdout: created + "Mon Jan 01 00:00:00 UTC 2024\n", file: ("missing.plist", xml("<dict>\n\t<key>d</key>\n\t<date>2024-01-01T00:00:00Z</date>\n</dict>"))),
        Case(name: "add-duplicate", start: .missing, arguments: ["missing.plist", "-c", "Add :a string x", "-c", "Add :a string y"],
             stdout: created, stderr: "Add: \":a\" Entry Already Exists\n", status: 1),
        Case(name: "set-alias", start: .missing, arguments: ["missing.plist", "-c", "Add :a string x", "-c", "= :a y", "-c", "Print :a"],
             stdout: created + "y\n", file: ("missing.plist", xml("<dict>\n\t<key>a</key>\n\t<string>y</string>\n</dict>"))),
        Case(name: "set-missing", start: .missing, arguments: ["missing.plist", "-c", "Set :a x"], stdout: created,
             stderr: "Set: Entry, \":a\", Does Not Exist\n", status: 1),
        Case(name: "set-container", start: .missing, arguments: ["missing.plist", "-c", "Add :d dict", "-c", "Set :d x"], stdout: created,
             stderr: "Set: Cannot Perform Set On Containers\n", status: 1, file: ("missing.plist", xml("<dict>\n\t<key>d</key>\n\t<dict/>\n</dict>"))),
        Case(name: "add-alias", start: .missing, arguments: ["missing.plist", "-c", "+ :a string x", "-c", "Print :a"],
             stdout: created + "x\n", file: ("missing.plist", xml("<dict>\n\t<key>a</key>\n\t<string>x</string>\n</dict>"))),
        Case(name: "copy-alias", start: .dictionary, arguments: ["case.plist", "-c", "cp :plain :copy", "-c", "Print :copy"], stdout: "text\n",
             file: ("case.plist", xml("<dict>\n\t<key>copy</key>\n\t<string>text</string>\n\t<key>plain</key>\n\t<string>text</string>\n\t<key>root</key>\n\t<dict>\n\t\t<key>a</key>\n\t\t<string>one</string>\n\t\t<key>arr</key>\n\t\t<array>\n\t\t\t<string>x</string>\n\t\t</array>\n\t</dict>\n</dict>"))),
        Case(name: "copy-missing-src", start: .dictionary, arguments: ["case.plist", "-c", "Copy :nope :dst"], stdout: "",
             stderr: "Copy: Entry, \":nope\", Does Not Exist\n", status: 1),
        Case(name: "copy-existing-dst", start: .dictionary, arguments: ["case.plist", "-c", "Copy :plain :root"], stdout: "",
             stderr: "Copy: \":root\" Entry Already Exists\n", status: 1),
        Case(name: "delete-alias-rm", start: .dictionary, arguments: ["case.plist", "-c", "rm :plain", "-c", "Print"], stdout: rootPrinted,
             file: ("case.plist", rootWithoutPlain)),
        Case(name: "delete-alias-dash", start: .dictionary, arguments: ["case.plist", "-c", "- :plain", "-c", "Print"], stdout: rootPrinted,
             file: ("case.plist", rootWithoutPlain)),
        Case(name: "remove-alias-word", start: .dictionary, arguments: ["case.plist", "-c", "Remove :plain", "-c", "Print"], stdout: rootPrinted,
             file: ("case.plist", rootWithoutPlain)),
        Case(name: "delete-missing", start: .dictionary, arguments: ["case.plist", "-c", "Delete :nope"], stdout: "",
             stderr: "Delete: Entry, \":nope\", Does Not Exist\n", status: 1),
        Case(name: "delete-current-container", start: .dictionary, arguments: ["case.plist", "-c", "CD :root", "-c", "Delete :root", "-c", "Print"],
             stdout: "Working Container has become Invalid.  Setting to :\nDict {\n    plain = text\n}\n",
             file: ("case.plist", xml("<dict>\n\t<key>plain</key>\n\t<string>text</string>\n</dict>"))),
        Case(name: "cd-valid-relative", start: .dictionary, arguments: ["case.plist", "-c", "CD :root", "-c", "Print a"], stdout: "one\n"),
        Case(name: "cd-noncontainer", start: .dictionary, arguments: ["case.plist", "-c", "CD :plain"], stdout: "",
             stderr: "CD: Entry, \":plain\", Is Not A Container\n", status: 1),
        Case(name: "cd-missing", start: .dictionary, arguments: ["case.plist", "-c", "CD :nope"], stdout: "",
             stderr: "CD: Entry, \":nope\", Does Not Exist\n", status: 1),
        Case(name: "print-alias-ls", start: .dictionary, arguments: ["case.plist", "-c", "ls :root"],
             stdout: "Dict {\n    a = one\n    arr = Array {\n        x\n    }\n}\n"),
        Case(name: "merge-dict-into-dict", start: .dictionary, arguments: ["case.plist", "-c", "Merge merge-dict.plist :root", "-c", "Print :root"],
             stdout: "Duplicate Entry Was Skipped: arr\nDict {\n    a = one\n    arr = Array {\n        x\n    }\n    b = two\n}\n",
             file: ("case.plist", xml("<dict>\n\t<key>plain</key>\n\t<string>text</string>\n\t<key>root</key>\n\t<dict>\n\t\t<key>a</key>\n\t\t<string>one</string>\n\t\t<key>arr</key>\n\t\t<array>\n\t\t\t<string>x</string>\n\t\t</array>\n\t\t<key>b</key>\n\t\t<string>two</string>\n\t</dict>\n</dict>"))),
        Case(name: "merge-recursive", start: .dictionary, arguments: ["case.plist", "-c", "Merge -r merge-dict.plist :root", "-c", "Print :root"],
             stdout: "Dict {\n    a = one\n    arr = Array {\n        x\n        y\n    }\n    b = two\n}\n",
             file: ("case.plist", xml("<dict>\n\t<key>plain</key>\n\t<string>text</string>\n\t<key>root</key>\n\t<dict>\n\t\t<key>a</key>\n\t\t<string>one</string>\n\t\t<key>arr</key>\n\t\t<array>\n\t\t\t<string>x</string>\n\t\t\t<string>y</string>\n\t\t</array>\n\t\t<key>b</key>\n\t\t<string>two</string>\n\t</dict>\n</dict>"))),
        Case(name: "merge-array-into-array", start: .array, arguments: ["case.plist", "-c", "Merge merge-array.plist", "-c", "Print"],
             stdout: "Array {\n    a\n    b\n    m1\n    m2\n}\n",
             file: ("case.plist", xml("<array>\n\t<string>a</string>\n\t<string>b</string>\n\t<string>m1</string>\n\t<string>m2</string>\n</array>"))),
        Case(name: "merge-dict-into-array-error", start: .array, arguments: ["case.plist", "-c", "Merge merge-dict.plist"], stdout: "",
             stderr: "Merge: Can't Add dict Entries to array\n", status: 1),
        Case(name: "merge-array-into-dict-error", start: .dictionary, arguments: ["case.plist", "-c", "Merge merge-array.plist"], stdout: "",
             stderr: "Merge: Can't Add array Entries to dict\n", status: 1),
        Case(name: "merge-missing-file", start: .dictionary, arguments: ["case.plist", "-c", "Merge nope.plist"], stdout: "",
             stderr: "Merge: Error Reading File: nope.plist\n", status: 1),
        Case(name: "import-new", start: .dictionary, arguments: ["case.plist", "-c", "Import :blob blob.bin", "-c", "Print :blob"],
             stdout: "ABC\u{0}DEF\n", file: ("case.plist", blob)),
        Case(name: "import-existing", start: .dictionary, arguments: ["case.plist", "-c", "Add :blob data xyz", "-c", "Import :blob blob.bin", "-c", "Print :blob"],
             stdout: "ABC\u{0}DEF\n", file: ("case.plist", blob)),
        Case(name: "import-container-error", start: .dictionary, arguments: ["case.plist", "-c", "Import :root blob.bin"], stdout: "",
             stderr: "Import: Specified Entry Must Not Be a Container\n", status: 1),
        Case(name: "import-missing-file", start: .dictionary, arguments: ["case.plist", "-c", "Import :blob nope.bin"], stdout: "",
             stderr: "Import: Error Reading File: nope.bin\n", status: 1),
        Case(name: "save-then-revert", start: .missing,
             arguments: ["missing.plist", "-c", "Add :a string x", "-c", "Save", "-c", "Set :a y", "-c", "Revert", "-c", "Print :a"],
             stdout: created + "Saving...\nReverting to last saved state...\nx\n", file: ("missing.plist", xml("<dict>\n\t<key>a</key>\n\t<string>x</string>\n</dict>"))),
        Case(name: "quit-alias", start: .dictionary, arguments: ["case.plist"], input: ["Quit"], stdout: "Command: "),
        Case(name: "bye-alias", start: .dictionary, arguments: ["case.plist"], input: ["Bye"], stdout: "Command: "),
        Case(name: "question-help-interactive", start: .dictionary, arguments: ["case.plist"], input: ["?", "Exit"],
             stdout: "Command: " + PlistBuddyHelp.guide + "Command: "),
        Case(name: "interactive-print", start: .dictionary, arguments: ["case.plist"], input: ["Print :root", "Exit"],
             stdout: "Command: Dict {\n    a = one\n    arr = Array {\n        x\n    }\n}\nCommand: "),
        Case(name: "interactive-eof", start: .dictionary, arguments: ["case.plist"], input: [], stdout: "Command: "),
        Case(name: "xml-print", start: .dictionary, arguments: ["case.plist", "-x", "-c", "Print :root"],
             stdout: xml("<dict>\n\t<key>a</key>\n\t<string>one</string>\n\t<key>arr</key>\n\t<array>\n\t\t<string>x</string>\n\t</array>\n</dict>")),
        Case(name: "parse-error-quotes", start: .missing, arguments: ["missing.plist", "-c", "Add :a string \"unterminated"],
             stdout: created + "Parse Error: Unclosed Quotes\n"),
        Case(name: "type-error", start: .missing, arguments: ["missing.plist", "-c", "Add :a bogus x"], stdout: created + "Unrecognized Type: bogus\n", status: 1),
    ]

    static func workspace(_ start: Start) throws -> PlistBuddyWorkspace {
        let w = try PlistBuddyWorkspace()
        try w.write("merge-dict.plist", xml("<dict>\n    <key>b</key><string>two</string>\n    <key>arr</key>\n    <array>\n        <string>y</string>\n    </array>\n</dict>"))
        try w.write("merge-array.plist", xml("<array>\n    <string>m1</string>\n    <string>m2</string>\n</array>"))
        try w.write("blob.bin", Data("ABC\u{0}DEF".utf8))
        switch start {
        case .missing: break
        case .dictionary: try w.write("case.plist", PlistBuddyWorkspace.templateDictionary)
        case .array: try w.write("case.plist", PlistBuddyWorkspace.templateArray)
        }
        return w
    }

    @Test(arguments: cases)
    func aRecordedRunGivesTheSameOutputsStatusAndFile(_ c: Case) throws {
        let w = try Self.workspace(c.start)
        let before = w.exists("case.plist") ? try w.bytes("case.plist") : nil
        let r = w.run(c.arguments, input: c.input ?? [])
        #expect(r.out == c.stdout)
        #expect(r.error == c.stderr)
        #expect(r.status == c.status)
        if let file = c.file {
            #expect(try w.text(file.name) == file.text)
        }
        // Runs that parse no command, or change nothing, write nothing.
        if c.name == "type-error" || c.name == "invalid-double-path" || c.name == "print-root-missing" || c.name == "print-missing-key" {
            #expect(!w.exists("missing.plist") && !w.exists("one.plist"))
        }
        if ["cd-valid-relative", "cd-noncontainer", "cd-missing", "print-alias-ls", "xml-print", "quit-alias", "interactive-print"].contains(c.name) {
            #expect(try w.bytes("case.plist") == before)
        }
    }
}
