import Foundation
import PlistBuddy
import PropertyList
import Testing

/// `Print` and `-x`: the format of each type, and how entries find values.
///
/// Formats: the recorded macOS runs (github.com/Remorix/PlistBuddy tests/reference: `Dict {`,
/// four spaces a level, `3.500000`, data raw, `Mon Jan 01 00:00:00 UTC 2024`), the PlistBuddy
/// guide (github.com/captam3rica/plistbuddy-guide), and viraptor/re-plistbuddy's tests of the
/// Mac's output (reals narrowed to float: 999999999.999999 prints as 1000000000.000000).
@Suite struct PlistBuddyPrintTests {
    static let everyType: PropertyListValue = [
        "name": "Test App\nsecond line",
        "version": 42,
        "negative": -42,
        "largest": .integer(PropertyListInteger(Int64.max)),
        "smallest": .integer(PropertyListInteger(Int64.min)),
        "rating": 3.14,
        "huge": 1e300,
        "edge": 999999999.999999,
        "enabled": true,
        "off": false,
        "icon": .data(Data([0x01, 0x02, 0x03, 0x04])),
        "when": .date(Date(timeIntervalSince1970: 1704067200)),
        "tags": ["alpha", ["nested"], ["k": "v"]],
        "empty": [:],
    ]

    static func workspace() throws -> PlistBuddyWorkspace {
        let w = try PlistBuddyWorkspace()
        try w.write("t.plist", BinaryPropertyListWriter().write(everyType))
        return w
    }

    static func printed(_ entry: String, in w: PlistBuddyWorkspace) -> PlistBuddyWorkspace.Run {
        w.run("t.plist", ["Print \(entry)"])
    }

    @Test func eachScalarPrintsAsTheMacPrintsIt() throws {
        let w = try Self.workspace()
        let expected: [(String, String)] = [
            (":name", "Test App\nsecond line\n"),
            (":version", "42\n"),
            (":negative", "-42\n"),
            (":largest", "9223372036854775807\n"),
            (":smallest", "-9223372036854775808\n"),
            (":rating", "3.140000\n"),
            (":huge", "inf\n"),
            (":edge", "1000000000.000000\n"),
            (":enabled", "true\n"),
            (":off", "false\n"),
            (":when", "Mon Jan 01 00:00:00 UTC 2024\n"),
        ]
        for (entry, text) in expected {
            let r = Self.printed(entry, in: w)
            #expect(r.out == text, "\(entry)")
            #expect(r.status == 0)
        }
        #expect(Self.printed(":icon", in: w).output == Data([0x01, 0x02, 0x03, 0x04, 0x0A]))
    }

    @Test func containersIndentByFourSpacesAndCloseAtTheirOwnLevel() throws {
        let w = try Self.workspace()
        #expect(Self.printed(":tags", in: w).out == "Array {\n    alpha\n    Array {\n        nested\n    }\n    Dict {\n        k = v\n    }\n}\n")
        #expect(Self.printed(":empty", in: w).out == "Dict {\n}\n")
        let whole = Self.printed("", in: w).out
        #expect(whole.hasPrefix("Dict {\n    name = Test App\nsecond line\n    version = 42\n"))
        #expect(whole.contains("    icon = \u{1}\u{2}\u{3}\u{4}\n"))
        #expect(whole.contains("    tags = Array {\n        alpha\n        Array {\n            nested\n        }\n"))
        #expect(whole.hasSuffix("    empty = Dict {\n    }\n}\n"))
    }

    @Test func entriesWithoutALeadingColonAndTheBareColonAndEmptyNames() throws {
        let w = try Self.workspace()
        #expect(Self.printed("version", in: w).out == "42\n")
        #expect(Self.printed(":", in: w).out == Self.printed("", in: w).out)
        #expect(Self.printed("::version", in: w).out == "42\n")
        // An empty last name is the container itself.
        #expect(Self.printed(":tags:", in: w).out.hasPrefix("Array {\n"))
        #expect(Self.printed(":tags:2:k", in: w).out == "v\n")
    }

    @Test func arrayIndexesReadAsCReadsThem() throws {
        let w = try Self.workspace()
        #expect(Self.printed(":tags:0x1:0", in: w).out == "nested\n")
        #expect(Self.printed(":tags:02:k", in: w).out == "v\n")
        // Not a number: sscanf leaves PlistBuddy's 0, the first element.
        #expect(Self.printed(":tags:abc", in: w).out == "alpha\n")
        // %i skips leading white space; unquoted, the space would end the entry.
        #expect(Self.printed("\":tags: 1:0\"", in: w).out == "nested\n")
    }

    @Test func aMissingEntryIsSaidAsWrittenOnStandardErrorWithStatus1() throws {
        let w = try Self.workspace()
        let cases = [(":Nonexistent", ":Nonexistent"), ("Nonexistent", "Nonexistent"), (":tags:99", ":tags:99"),
                     (":version:x", ":version:x"), (#":a\:b"#, #":a\:b"#)]
        for (entry, said) in cases {
            let r = Self.printed(entry, in: w)
            #expect(r.out.isEmpty)
            #expect(r.error == "Print: Entry, \"\(said)\", Does Not Exist\n", "\(entry)")
            #expect(r.status == 1)
        }
    }

    @Test func xmlOutputIsTheValueAsAPropertyListOfItsOwn() throws {
        let w = try Self.workspace()
        let string = w.run(["-x", "-c", "Print :version", "t.plist"])
        #expect(string.out == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<integer>42</integer>\n</plist>\n")
        let data = w.run(["-c", "Print :icon", "-x", "t.plist"])
        #expect(data.out.contains("<data>\nAQIDBA==\n</data>"))
        let whole = w.run(["-x", "-c", "Print", "t.plist"])
        #expect(try PropertyListReader().read(whole.output).value == Self.everyType)
    }

    @Test func valuesAMacHasNoPrintingForAreUnprintableData() throws {
        let w = try PlistBuddyWorkspace()
        let archive: PropertyListValue = ["$top": ["root": .uid(1)], "set": .set(["a"])]
        try w.write("a.plist", BinaryPropertyListWriter().write(archive))
        #expect(w.run("a.plist", ["Print :$top:root"]).out == "Unprintable Data\n")
        #expect(w.run("a.plist", ["Print :set"]).out == "Unprintable Data\n")
    }

    @Test func datesPrintInTheZoneGivenWithItsStandardName() throws {
        var options = PlistBuddyWorkspace.utc
        options.dates = PlistBuddyDateFormat(timeZone: TimeZone(identifier: "America/New_York"), zoneName: "EST")
        let w = try PlistBuddyWorkspace()
        // 2024-07-04 16:00 UTC is noon in New York, in daylight saving time: still EST.
        try w.write("d.plist", XMLPropertyListWriter().write(["d": .date(Date(timeIntervalSince1970: 1720108800))]))
        #expect(w.run("d.plist", ["Print :d"], options: options).out == "Thu Jul 04 12:00:00 EST 2024\n")
    }
}
