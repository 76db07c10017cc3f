import Foundation
import PlistBuddy
import PropertyList
import Testing

/// The commands that change the document: `Set`, `Add`, `Copy`, `Delete`, `Clear`, `Merge`
/// and `Import`, each checked on the saved file.
///
/// Sources: the PlistBuddy manual (`Add :CFBundleDocumentTypes: dict` appends,
/// `Add :CFBundleDocumentTypes:0 dict` inserts first); the recorded macOS runs of
/// github.com/Remorix/PlistBuddy; its reconstruction of the Mac's code (Entries.c, Commands.c)
/// for the rules no run recorded (reals stored as float, values read with sscanf, an index past
/// the end appending, `Set` keeping the type); viraptor/re-plistbuddy's tests of the Mac's
/// output (`Unrecognized Integer Format` on standard output with status 0).
@Suite struct PlistBuddyEditTests {
    static func workspace(_ value: PropertyListValue = PlistBuddyEditTests.sample) throws -> PlistBuddyWorkspace {
        let w = try PlistBuddyWorkspace()
        try w.write("s.plist", XMLPropertyListWriter().write(value))
        return w
    }

    static let sample: PropertyListValue = [
        "Name": "Test App",
        "Version": 42,
        "Enabled": true,
        "Rating": 3.25,
        "Icon": .data(Data([1, 2, 3, 4])),
        "When": .date(Date(timeIntervalSince1970: 1704067200)),
        "Tags": ["alpha", "beta"],
        "Nested": ["Inner": "value"],
    ]

    static func value(_ w: PlistBuddyWorkspace, _ keyPath: String) throws -> PropertyListValue? {
        try w.read("s.plist").value.value(at: PropertyListKeyPath(keyPath))
    }

    // MARK: Set

    @Test func setKeepsTheTypeAlreadyThere() throws {
        let w = try Self.workspace()
        let r = w.run("s.plist", ["Set :Name 42", "Set :Version 7", "Set :Enabled NO", "Set :Rating 0.1", "Set :Icon AQID",
                                  "Set :When 01/31/24", "Set :Tags:1 gamma", "Set :Nested:Inner hello world"])
        #expect(r.status == 0)
        #expect(r.out.isEmpty && r.error.isEmpty)
        #expect(try Self.value(w, "Name") == "42")
        #expect(try Self.value(w, "Version") == 7)
        #expect(try Self.value(w, "Enabled") == false)
        // %f stores a float: 0.1 is kept as the float nearest it.
        #expect(try Self.value(w, "Rating") == .real(Double(Float(0.1))))
        // Data is the text's bytes, not base64.
        #expect(try Self.value(w, "Icon") == .data(Data("AQID".utf8)))
        #expect(try Self.value(w, "When") == .date(Date(timeIntervalSince1970: 1706659200)))
        #expect(try Self.value(w, "Tags") == ["alpha", "gamma"])
        #expect(try Self.value(w, "Nested.Inner") == "hello world")
    }

    @Test func setReadsBoolsIntegersAndRealsAsCDoes() throws {
        let w = try Self.workspace()
        for (text, expected) in [("YES", true), ("true", true), ("1", true), ("yes", true), ("no", false), ("2", false), ("", false)] {
            _ = w.run("s.plist", ["Set :Enabled \(text)"])
            #expect(try Self.value(w, "Enabled") == .bool(expected), "\(text)")
        }
        for (text, expected) in [("12abc", 12), ("  -5", -5), ("+8", 8), ("99999999999999999999", Int64.max), ("", 0)] {
            _ = w.run("s.plist", ["Set :Version \"\(text)\""])
            #expect(try Self.value(w, "Version") == .integer(PropertyListInteger(expected)), "\(text)")
        }
        for (text, expected) in [("1e3", 1000.0), ("0x1p3", 8.0), ("2.5xyz", 2.5), ("-inf", -Double.infinity), (".5", 0.5)] {
            _ = w.run("s.plist", ["Set :Rating \(text)"])
            #expect(try Self.value(w, "Rating") == .real(expected), "\(text)")
        }
    }

    @Test func setWithTextThatIsNoValueSaysSoOnStandardOutputAndChangesNothing() throws {
        let w = try Self.workspace()
        for (command, message) in [("Set :Version abc", "Unrecognized Integer Format"), ("Set :Rating abc", "Unrecognized Real Format"),
                                   ("Set :When tomorrow", "Unrecognized Date Format")] {
            let r = w.run("s.plist", [command])
            #expect(r.out == message + "\n")
            #expect(r.error.isEmpty)
            #expect(r.status == 0)
        }
        #expect(try Self.value(w, "Version") == 42)
        #expect(try Self.value(w, "Rating") == 3.25)
    }

    @Test func setRefusesContainersAndMissingEntries() throws {
        let w = try Self.workspace()
        #expect(w.run("s.plist", ["Set :Tags foo"]).error == "Set: Cannot Perform Set On Containers\n")
        #expect(w.run("s.plist", ["Set :Nested foo"]).status == 1)
        #expect(w.run("s.plist", ["Set"]).error == "Set: Cannot Perform Set On Containers\n")
        let missing = w.run("s.plist", ["Set :Nope:x foo"])
        #expect(missing.error == "Set: Entry, \":Nope:x\", Does Not Exist\n")
        #expect(missing.status == 1)
        let selfSet = w.run("s.plist", ["Set :Name: x"])
        #expect(selfSet.error == "Set: Internal Error Occurred\n")
        #expect(try Self.value(w, "Name") == "Test App")
    }

    @Test func setOnAScalarRootReplacesIt() throws {
        let w = try Self.workspace("just a string")
        #expect(w.run("s.plist", ["Set : newvalue", "Print"]).out == "newvalue\n")
        let number = try Self.workspace(42)
        _ = number.run("s.plist", ["Set : 99"])
        #expect(try number.read("s.plist").value == 99)
    }

    // MARK: Add

    @Test func addMakesEachTypeFromItsText() throws {
        let w = try Self.workspace([:])
        let r = w.run("s.plist", ["Add :s string hello world", "Add :a array", "Add :d dict", "Add :b bool YES", "Add :r real 3.14",
                                  "Add :i integer -7", "Add :t date \"Tue Feb 29 12:30:00 2028\"", "Add :x data raw bytes",
                                  "Add :e string", "Add :z integer"])
        #expect(r.status == 0 && r.out.isEmpty && r.error.isEmpty)
        let expected: PropertyListValue = [
            "s": "hello world", "a": [], "d": [:], "b": true, "r": .real(Double(Float(3.14))), "i": -7,
            "t": .date(Date(timeIntervalSince1970: 1835440200)), "x": .data(Data("raw bytes".utf8)), "e": "", "z": 0,
        ]
        #expect(try w.read("s.plist").value == expected)
        // The float precision shows in the file, as it does when a Mac's PlistBuddy writes it.
        #expect(try w.text("s.plist").contains("<real>3.1400001049041748</real>"))
    }

    @Test func addCreatesTheDictionariesOnTheWay() throws {
        let w = try Self.workspace([:])
        _ = w.run("s.plist", ["Add 'Palo Alto Networks':GlobalProtect:PanSetup:Portal string vpn.example.com"])
        #expect(try w.read("s.plist").value == ["Palo Alto Networks": ["GlobalProtect": ["PanSetup": ["Portal": "vpn.example.com"]]]])
    }

    @Test func addInsertsInArraysAppendingForAnEmptyNameOrAnIndexPastTheEnd() throws {
        let w = try Self.workspace()
        let r = w.run("s.plist", ["Add :Tags: string last", "Add :Tags:0 string first", "Add :Tags:99 string end", "Add :Tags:0x1 string second"])
        #expect(r.status == 0)
        #expect(try Self.value(w, "Tags") == ["first", "second", "alpha", "beta", "last", "end"])
        let array = try Self.workspace(["a"])
        _ = array.run("s.plist", ["Add : string appended", "Add :0 dict"])
        #expect(try array.read("s.plist").value == [[:], "a", "appended"])
    }

    @Test func addRefusesAnExistingEntryAndAParentThatHoldsNothing() throws {
        let w = try Self.workspace()
        let exists = w.run("s.plist", ["Add :Name string foo"])
        #expect(exists.error == "Add: \":Name\" Entry Already Exists\n")
        #expect(exists.status == 1)
        let scalar = w.run("s.plist", ["Add :Name:sub string val"])
        #expect(scalar.error == "Add: Can't Add Entry, \":Name:sub\", to Parent\n")
        #expect(scalar.status == 1)
        // A dictionary cannot be made inside a string on the way: said, and status 0 as on a Mac.
        let deeper = w.run("s.plist", ["Add :Name:x:y string val"])
        #expect(deeper.error == "Add: Entry, \":Name:x:y\", Incorrectly Specified\n")
        #expect(deeper.status == 0)
        let negative = w.run("s.plist", ["Add :Tags:-1 string x"])
        #expect(negative.error == "Add: Can't Add Entry, \":Tags:-1\", to Parent\n")
        #expect(try Self.value(w, "Tags") == ["alpha", "beta"])
    }

    @Test func addWithoutAValueItsTypeCanTakeAddsNothingAndSaysWhy() throws {
        let w = try Self.workspace()
        let date = w.run("s.plist", ["Add :D date"])
        #expect(date.out == "Unrecognized Date Format\n")
        #expect(date.status == 0)
        let quote = w.run("s.plist", ["Add :Q string \"open"])
        #expect(quote.out == "Parse Error: Unclosed Quotes\n")
        #expect(try Self.value(w, "D") == nil)
        #expect(try Self.value(w, "Q") == nil)
        // The first instant of 2001 is PlistBuddy's own failure value: nothing, silently.
        let epoch = w.run("s.plist", ["Add :E date \"Mon Jan 01 00:00:00 UTC 2001\""])
        #expect(epoch.out.isEmpty && epoch.error.isEmpty)
        #expect(try Self.value(w, "E") == nil)
    }

    // MARK: Copy

    @Test func copyMakesAnIndependentCopyAndCreatesItsWay() throws {
        let w = try Self.workspace()
        let r = w.run("s.plist", ["Copy :Nested :New:Deep:Path", "Set :New:Deep:Path:Inner changed", "Copy :Name :Tags:"])
        #expect(r.status == 0)
        #expect(try Self.value(w, "Nested.Inner") == "value")
        #expect(try Self.value(w, "New.Deep.Path.Inner") == "changed")
        #expect(try Self.value(w, "Tags") == ["alpha", "beta", "Test App"])
    }

    // MARK: Delete

    @Test func deleteRemovesKeysElementsAndWholeSubtrees() throws {
        let w = try Self.workspace()
        let r = w.run("s.plist", ["Delete :Tags:0", "Delete :Nested", "Delete Name"])
        #expect(r.status == 0)
        #expect(try Self.value(w, "Tags") == ["beta"])
        #expect(try Self.value(w, "Nested") == nil)
        #expect(try Self.value(w, "Name") == nil)
    }

    @Test func deleteWithAnEmptyNameTakesAnArraysFirstElement() throws {
        let w = try Self.workspace()
        _ = w.run("s.plist", ["Delete :Tags:"])
        #expect(try Self.value(w, "Tags") == ["beta"])
        // The root is the working container: PlistBuddy says it is reset, and removes nothing.
        let root = w.run("s.plist", ["Delete :"])
        #expect(root.out == "Working Container has become Invalid.  Setting to :\n")
        #expect(try Self.value(w, "Version") == 42)
    }

    // MARK: Clear

    @Test func clearMakesAnEmptyRootOfEachType() throws {
        let expected: [(String, PropertyListValue, String)] = [
            ("dict", [:], "Dict {\n}\n"), ("array", [], "Array {\n}\n"), ("string", "", "\n"), ("integer", 0, "0\n"),
            ("real", 0.0, "0.000000\n"), ("bool", false, "false\n"), ("data", .data(Data()), "\n"),
            ("date", .date(Date(timeIntervalSinceReferenceDate: 0)), "Mon Jan 01 00:00:00 UTC 2001\n"), ("nonsense", [:], "Dict {\n}\n"),
        ]
        for (type, value, printed) in expected {
            let w = try Self.workspace()
            let r = w.run("s.plist", ["Clear \(type)", "Print"])
            let said = type == "nonsense" ? "Unrecognized Type: nonsense\n" : ""
            #expect(r.out == said + "Initializing Plist...\n" + printed, "\(type)")
            #expect(try w.read("s.plist").value == value, "\(type)")
        }
    }

    // MARK: Merge

    @Test func mergeChecksItsEntryAndAddsAScalarFileAsAnElementOrTheEmptyKey() throws {
        let w = try Self.workspace()
        try w.write("one.plist", XMLPropertyListWriter().write("single"))
        try w.write("more.plist", BinaryPropertyListWriter().write(["Extra": 1, "Name": "other"]))
        try w.write("broken.plist", "<plist><dict><key>a</key></plist>")
        #expect(w.run("s.plist", ["Merge more.plist :Nope"]).error == "Merge: \":Nope\" Entry Does Not Exist\n")
        #expect(w.run("s.plist", ["Merge more.plist :Name"]).error == "Merge: Specified Entry Must Be a Container\n")
        let broken = w.run("s.plist", ["Merge broken.plist"])
        #expect(broken.error.hasSuffix("Merge: Error Reading File: broken.plist\n"))
        #expect(broken.error.split(separator: "\n").count == 2)
        let r = w.run("s.plist", ["Merge one.plist :Tags", "Merge one.plist", "Merge more.plist"])
        #expect(r.out == "Duplicate Entry Was Skipped: Name\n")
        #expect(r.status == 0)
        #expect(try Self.value(w, "Tags") == ["alpha", "beta", "single"])
        #expect(try w.read("s.plist").value[""] == "single")
        #expect(try Self.value(w, "Extra") == 1)
        #expect(try Self.value(w, "Name") == "Test App")
    }

    // MARK: Import

    @Test func importKeepsTheTypeOfAnExistingEntryAndAddsDataOtherwise() throws {
        let w = try Self.workspace()
        try w.write("text.txt", "new data")
        try w.write("number.txt", "1234\n")
        let r = w.run("s.plist", ["Import :Name text.txt", "Import :Version number.txt", "Import :Deep:Blob text.txt"])
        #expect(r.status == 0)
        #expect(try Self.value(w, "Name") == "new data")
        #expect(try Self.value(w, "Version") == 1234)
        #expect(try Self.value(w, "Deep.Blob") == .data(Data("new data".utf8)))
        #expect(w.run("s.plist", ["Import :Tags text.txt"]).error == "Import: Specified Entry Must Not Be a Container\n")
    }
}
