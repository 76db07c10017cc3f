import Foundation
import PropertyList
import Testing

/// `get`, `type`, `set`, `insert`, `replace` and `remove`, run as a user runs them, with cases
/// from plutil's documented behaviour.
@Suite struct KeyPathCLITests {
    /// An Info.plist as Xcode writes them, with a key holding dots as entitlements have.
    static let info: PropertyListValue = [
        "CFBundleIdentifier": "com.example.app",
        "CFBundleURLTypes": [["CFBundleURLSchemes": ["example"]]],
        "com.apple.security.app-sandbox": true,
        "LSMinimumSystemVersion": "13.0",
        "UIDeviceFamily": [1, 2],
        "Launched": .date(Date(timeIntervalSinceReferenceDate: 700_000_000)),
        "Icon": .data(Data([0x89, 0x50, 0x4E, 0x47])),
        "Ratio": 0.5,
    ]

    enum Format: String, CaseIterable { case binary, xml, json }

    /// The document in `format`, in a new file of mode 0640.
    static func file(_ format: Format, _ value: PropertyListValue = info) throws -> String {
        let path = ArchivistProcess.temporaryFile("Info.\(format.rawValue)")
        let data: Data
        switch format {
        case .binary: data = BinaryPropertyListWriter().write(value)
        case .xml: data = try XMLPropertyListWriter().write(value)
        case .json:
            // JSON cannot hold the date and the data.
            var v = value
            try v.remove(at: PropertyListKeyPath("Launched"))
            try v.remove(at: PropertyListKeyPath("Icon"))
            data = try JSONPropertyListWriter(options: JSONWriteOptions(outputFormatting: [.prettyPrinted])).write(v)
        }
        try data.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o640)
        return path
    }

    static func read(_ path: String) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        try PropertyListReader().read(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: Format.allCases)
    func getPrintsRawValuesAsPlutilDoesFromEachFormat(format: Format) throws {
        let path = try Self.file(format)
        let cases: [(String, String)] = [
            ("CFBundleIdentifier", "com.example.app\n"),
            ("CFBundleURLTypes.0.CFBundleURLSchemes.0", "example\n"),
            ("com\\.apple\\.security\\.app-sandbox", "true\n"),
            ("UIDeviceFamily", "2\n"),
            ("UIDeviceFamily.1", "2\n"),
            ("Ratio", "0.500000\n"),
            ("CFBundleURLTypes.0", "CFBundleURLSchemes\n"),
        ] + (format == .json ? [] : [("Launched", "2023-03-08T20:26:40Z\n"), ("Icon", "iVBORw==\n")])
        for (keyPath, expected) in cases {
            let r = try ArchivistProcess.run(["get", path, keyPath])
            #expect(r.status == 0, "\(keyPath): \(r.err)")
            #expect(r.out == expected, "\(keyPath)")
        }
    }

    @Test func getWithoutALineBreakAndAsDocuments() throws {
        let path = try Self.file(.binary)
        #expect(try ArchivistProcess.run(["get", "-n", path, "CFBundleIdentifier"]).out == "com.example.app")
        let json = try ArchivistProcess.run(["get", path, "CFBundleURLTypes", "--to", "json"])
        #expect(json.out == #"[{"CFBundleURLSchemes":["example"]}]"#)
        let xml = try ArchivistProcess.run(["get", path, "UIDeviceFamily", "--to", "xml"])
        #expect(xml.stdout == (try XMLPropertyListWriter().write([1, 2])))
        let binary = try ArchivistProcess.run(["get", path, "UIDeviceFamily", "--to", "binary"])
        #expect(binary.stdout == BinaryPropertyListWriter().write([1, 2]))
    }

    @Test func aMissingKeypathExits1AndPrintsNothing() throws {
        let path = try Self.file(.xml)
        for keyPath in ["Nope", "UIDeviceFamily.2", "CFBundleIdentifier.x", "com.apple.security.app-sandbox"] {
            let r = try ArchivistProcess.run(["get", path, keyPath])
            #expect(r.status == 1, "\(keyPath)")
            #expect(r.out.isEmpty)
            #expect(r.err == "archivist: \(path): no value at \(keyPath)\n")
        }
    }

    @Test func expectFailsOnAnotherType() throws {
        let path = try Self.file(.binary)
        let r = try ArchivistProcess.run(["get", path, "UIDeviceFamily", "--expect", "dictionary"])
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(r.err.contains("is an array, not a dictionary"))
        #expect(try ArchivistProcess.run(["get", path, "UIDeviceFamily", "--expect", "array"]).status == 0)
        #expect(try ArchivistProcess.run(["type", path, "Ratio", "--expect", "integer"]).status == 1)
    }

    @Test func typeNamesEachTypeAsPlutilDoes() throws {
        let path = try Self.file(.binary)
        for (keyPath, type) in [("CFBundleIdentifier", "string"), ("UIDeviceFamily", "array"), ("UIDeviceFamily.0", "integer"),
                                ("Ratio", "float"), ("Launched", "date"), ("Icon", "data"), ("CFBundleURLTypes.0", "dictionary"),
                                ("com\\.apple\\.security\\.app-sandbox", "bool")] {
            #expect(try ArchivistProcess.run(["type", path, keyPath]).out == type + "\n")
        }
    }

    @Test(arguments: Format.allCases)
    func editsWriteTheFileBackInItsOwnFormatKeepingItsMode(format: Format) throws {
        let path = try Self.file(format)
        var expected = try Self.read(path).value
        // A binary file is laid out again over the file each edit finds (what the edit left keeps
        // its objects, as CF writes back what it read).
        var expectedBinary = try Data(contentsOf: URL(fileURLWithPath: path))
        for (arguments, apply) in [
            (["insert", path, "CFBundleURLTypes.0.CFBundleURLSchemes.0", "--string", "first"], { (v: inout PropertyListValue) in
                try v.edit("first", at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.0"), mode: .insert) }),
            (["insert", path, "UIDeviceFamily", "--integer", "7", "--append"], { v in
                try v.edit(7, at: PropertyListKeyPath("UIDeviceFamily"), mode: .append) }),
            (["set", path, "com\\.example\\.flag", "--bool", "YES"], { v in
                try v.edit(true, at: PropertyListKeyPath("com\\.example\\.flag"), mode: .set) }),
            (["replace", path, "LSMinimumSystemVersion", "--string", "14.0"], { v in
                try v.edit("14.0", at: PropertyListKeyPath("LSMinimumSystemVersion"), mode: .replace) }),
            (["set", path, "Extra", "--json", #"{"a":[1,2.5,"x"]}"#], { v in
                try v.edit(["a": [1, 2.5, "x"]], at: PropertyListKeyPath("Extra"), mode: .set) }),
            (["insert", path, "Empty", "--dictionary"], { v in
                try v.edit(.dictionary(PropertyListDictionary()), at: PropertyListKeyPath("Empty"), mode: .insert) }),
            (["remove", path, "CFBundleIdentifier"], { v in _ = try v.remove(at: PropertyListKeyPath("CFBundleIdentifier")) }),
        ] as [([String], (inout PropertyListValue) throws -> Void)] {
            let r = try ArchivistProcess.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.err)")
            #expect(r.out.isEmpty)
            try apply(&expected)
            expectedBinary = BinaryPropertyListLayoutWriter(original: expectedBinary).write(expected)
            let (value, written) = try Self.read(path)
            #expect(value == expected, "\(arguments)")
            #expect(written.rawValue == (format == .xml ? "xml" : format.rawValue))
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch format {
        case .binary: #expect(bytes == expectedBinary)
        case .xml: #expect(bytes == (try XMLPropertyListWriter().write(expected)), "XML keeps Apple's layout")
        case .json: #expect(bytes.contains(0x0A), "indented JSON stays indented")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    @Test func editsGoElsewhereWithOutputAndToStandardOutputWithADash() throws {
        let path = try Self.file(.xml)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let out = ArchivistProcess.temporaryFile("edited.plist")
        #expect(try ArchivistProcess.run(["set", path, "A", "--integer", "1", "-o", out, "--to", "binary"]).status == 0)
        #expect(try Self.read(out).value["A"] == 1)
        #expect(try Self.read(out).format == .binary)
        let piped = try ArchivistProcess.run(["remove", "-", "Ratio"], stdin: before)
        #expect(piped.status == 0)
        #expect(try PropertyListReader().read(piped.stdout).value["Ratio"] == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFailedEditLeavesTheFileByteForByteAsItWas() throws {
        let xml = try Self.file(.xml)
        let json = try Self.file(.json)
        let failures: [[String]] = [
            ["insert", xml, "CFBundleIdentifier", "--string", "twice"],      // exists already
            ["replace", xml, "Missing.key", "--string", "x"],               // nothing on the way
            ["insert", xml, "UIDeviceFamily.9", "--integer", "3"],          // index past the count
            ["insert", xml, "CFBundleIdentifier", "--string", "x", "--append"], // not an array
            ["remove", xml, "UIDeviceFamily.5"],
            ["set", json, "When", "--date", "2024-01-01T00:00:00Z"],        // JSON cannot hold a date
            ["set", json, "Ratio", "--float", "nan"],                       // nor NaN: fails while writing
        ]
        for arguments in failures {
            let path = arguments[1]
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let r = try ArchivistProcess.run(arguments)
            #expect(r.status == 1, "\(arguments)")
            #expect(r.err.hasPrefix("archivist: \(path): "), "\(r.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(arguments)")
        }
        // An edit's temporary file is `.NAME.archivist-XXXXXX` beside NAME. The folder is shared
        // with tests running at the same time (their own temporaries and migrate backups), so
        // only temporaries of these two files count as leftovers.
        let edited = [xml, json].map { "." + URL(fileURLWithPath: $0).lastPathComponent + ".archivist-" }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: xml).deletingLastPathComponent().path)
            .filter { name in edited.contains { name.hasPrefix($0) } }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func anEditThatCannotFinishWritingLeavesTheFileAsItWas() throws {
        // A file-size limit of 8 blocks stops the write of the new copy part way (EFBIG);
        // the original, larger than that, must come through untouched.
        var big = Self.info
        try big.edit(.data(Data(repeating: 0xAB, count: 64 * 1024)), at: PropertyListKeyPath("Blob"), mode: .set)
        let path = try Self.file(.binary, big)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let command = "ulimit -f 8; trap '' XFSZ; exec '\(ArchivistProcess.executable.path)' set '\(path)' Ratio --float 0.25"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(message)")
        #expect(message.contains("cannot write"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func valuesAreCheckedBeforeAnythingIsRead() throws {
        for arguments in [["set", "x.plist", "k", "--integer", "12abc"], ["set", "x.plist", "k", "--bool", "maybe"],
                          ["set", "x.plist", "k", "--date", "yesterday"], ["set", "x.plist", "k", "--json", "{\"a\":null}"],
                          ["set", "x.plist", "k"], ["set", "x.plist", "k", "--string", "a", "--integer", "1"]] {
            #expect(try ArchivistProcess.run(arguments).status == 64, "\(arguments)")
        }
    }

    @Test func openStepFilesNeedAnOutputFormat() throws {
        let path = ArchivistProcess.temporaryFile("old.plist")
        try Data("{ a = 1; }".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try ArchivistProcess.run(["set", path, "b", "--string", "x"])
        #expect(refused.status == 1)
        #expect(refused.err.contains("--to"))
        #expect(try ArchivistProcess.run(["set", path, "b", "--string", "x", "--to", "xml"]).status == 0)
        #expect(try Self.read(path).format == .xml)
        #expect(try Self.read(path).value == ["a": "1", "b": "x"])
    }

    @Test func archiveKeypathsGoThroughTheObjectGraph() throws {
        let color = ArchivistProcess.repository.appendingPathComponent("Fixtures/archives/uicolor-tint.bplist").path
        #expect(try ArchivistProcess.run(["get", "--archive", color, ".red"]).out == "0.176000\n")
        #expect(try ArchivistProcess.run(["type", "--archive", color, "."]).out == "dictionary\n")
        let strings = ArchivistProcess.repository.appendingPathComponent("Fixtures/archives/legacy-string-array.bplist").path
        #expect(try ArchivistProcess.run(["get", "--archive", strings, ".[1]"]).out == "core data\n")
        #expect(try ArchivistProcess.run(["get", "--archive", strings, "2"]).out == "ünïcode\n")
        // Without --archive the same file is a plain plist: the raw $objects table.
        #expect(try ArchivistProcess.run(["get", strings, "$objects.0"]).out == "$null\n")
        let missing = try ArchivistProcess.run(["get", "--archive", strings, ".[7]"])
        #expect(missing.status == 1)
    }
}
