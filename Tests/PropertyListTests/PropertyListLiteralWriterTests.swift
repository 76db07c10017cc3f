import Foundation
import Testing
@testable import PropertyList

/// `convert --to swift|objc`, as `plutil -convert swift|objc` writes literals.
@Suite struct PropertyListLiteralWriterTests {
    /// Every type a Swift literal can hold, at several depths, with the cases plutil's own output
    /// gets wrong: mixed types below the top, empty collections, floats that `%f` would round,
    /// escapes, and an unsigned value past Int64.
    static let document: PropertyListValue = [
        "name": "Archivist \"quoted\" \\ back\\slash\nnew line\ttab",
        "count": 42,
        "negative": -7,
        "big": .integer(PropertyListInteger(UInt64.max)),
        "ratio": 0.1,
        "third": .real(1.0 / 3.0),
        "whole": 2.0,
        "huge": 1e300,
        "infinite": .real(-.infinity),
        "enabled": true,
        "created": .date(Date(timeIntervalSinceReferenceDate: 123_456_789.5)),
        "digest": .data(Data([0x00, 0x01, 0xAB, 0xFF])),
        "mixed": [1, "two", 3.0, false, ["nested": [1, "x"]]],
        "empties": ["array": [], "dictionary": .dictionary(PropertyListDictionary())],
        "matrix": [[1, 2], [3, 4]],
        "names": ["b", "a", "Ångström"],
        "item10": 10, "item9": 9,
    ]

    @Test func swiftOutputCompilesWithSwiftcAndHoldsTheSameValue() throws {
        guard let swiftc = Self.which("swiftc") else {
            Issue.record("swiftc is not on PATH")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-literal-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let literal = try PropertyListLiteralWriter(language: .swift, sourceName: "Settings.plist").write(Self.document)
        // The program writes the literal back as a binary plist, through Foundation.
        let program = "import Foundation\n" + String(decoding: literal, as: UTF8.self) + """
            let data = try! PropertyListSerialization.data(fromPropertyList: Settings, format: .binary, options: 0)
            FileHandle.standardOutput.write(data)

            """
        let source = directory.appendingPathComponent("main.swift")
        try Data(program.utf8).write(to: source)
        let executable = directory.appendingPathComponent("literal").path
        let compile = try Self.run(swiftc, [source.path, "-o", executable])
        #expect(compile.status == 0, "swiftc failed:\n\(compile.err)\n\(program)")
        guard compile.status == 0 else { return }
        let run = try Self.run(executable, [])
        #expect(run.status == 0, "\(run.err)")
        let roundTripped = try PropertyListReader().read(run.out).value
        #expect(roundTripped == Self.document)
    }

    @Test func swiftOutputHasPlutilsLayout() throws {
        let value: PropertyListValue = ["b": "x", "a": "y"]
        let text = String(decoding: try PropertyListLiteralWriter(language: .swift, sourceName: "/tmp/My App-Info.plist").write(value), as: UTF8.self)
        #expect(text == """
            /// Generated from My App-Info.plist
            let My_App_Info = [
                "a" : "y",
                "b" : "x",
            ]

            """)
    }

    @Test func aTopLevelOfMixedTypesIsAnnotatedAsPlutilDoes() throws {
        let value: PropertyListValue = ["n": 1, "s": "x"]
        let text = String(decoding: try PropertyListLiteralWriter(language: .swift, sourceName: "Info.plist").write(value), as: UTF8.self)
        #expect(text.contains("let Info : [String : Any] = [\n"))
    }

    @Test func objectiveCOutputHasPlutilsLayout() throws {
        let value: PropertyListValue = ["key": [1, true, "s", 0.5], "other": "x"]
        let writer = PropertyListLiteralWriter(language: .objc, sourceName: "Info.plist", importedHeader: "Info.h")
        #expect(String(decoding: try writer.write(value), as: UTF8.self) == """
            #import "Info.h"

            /// Generated from Info.plist
            __attribute__((visibility("hidden")))
            NSDictionary * const Info = @{
                @"key" : @[
                    @1,
                    @YES,
                    @"s",
                    @0.5,
                ],
                @"other" : @"x",
            };

            """)
        #expect(String(decoding: try writer.header(for: value), as: UTF8.self) == """
            #import <Foundation/Foundation.h>

            /// Generated from Info.plist
            __attribute__((visibility("hidden")))
            extern NSDictionary * const Info;

            """)
    }

    @Test func objectiveCRefusesDataAndDatesAsPlutilDoes() {
        #expect(throws: PropertyListError.self) {
            try PropertyListLiteralWriter(language: .objc, sourceName: "x.plist").write(["d": .data(Data([1]))])
        }
        #expect(throws: PropertyListError.self) {
            try PropertyListLiteralWriter(language: .swift, sourceName: "x.plist").write(["u": .uid(1)])
        }
    }

    @Test(arguments: [("Info.plist", "Info"), ("/a/b/My App-Info.plist", "My_App_Info"), ("1st.plist", "_1st"),
                      ("-", "_"), ("noextension", "noextension"), (".hidden", "_hidden"), ("a.b.plist", "a_b")])
    func theConstantIsNamedAfterTheFile(source: String, name: String) {
        #expect(PropertyListLiteralWriter.variableName(forSource: source) == name)
    }

    @Test func keysFollowPlutilsOrder() {
        #expect(["item10", "Item2", "item9", "b", "A"].sorted(by: PropertyListKeyOrder.plutil) == ["A", "b", "Item2", "item9", "item10"])
    }

    static func which(_ tool: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, outData, String(decoding: errData, as: UTF8.self))
    }
}

/// `get --to raw` and `plutil -extract KEYPATH raw`, as plutil's help lists them.
@Suite struct PropertyListRawTextTests {
    @Test(arguments: [
        (PropertyListValue.string("as is\n"), "as is\n"),
        (.bool(true), "true"), (.bool(false), "false"),
        (.integer(PropertyListInteger(-42)), "-42"),
        (.real(3.14), "3.140000"), (.real(2), "2.000000"),
        (.date(Date(timeIntervalSinceReferenceDate: 0.75)), "2001-01-01T00:00:00Z"),
        (.data(Data([1, 2, 3])), "AQID"),
        (PropertyListValue.array(["a", "b", "c"]), "3"),
        (PropertyListValue(dictionaryLiteral: ("b", 1), ("A", 2), ("item10", 3), ("item9", 4)), "A\nb\nitem9\nitem10"),
    ])
    func rawTextIsWhatPlutilPrints(value: PropertyListValue, text: String) {
        #expect(value.rawText == text)
    }

    @Test func setsUIDsAndNullHaveNoRawTextNorPlutilType() {
        for value in [PropertyListValue.set([1]), .uid(3), .null] {
            #expect(value.rawText == nil)
            #expect(value.plutilTypeName == nil)
        }
        #expect(PropertyListValue.real(1).plutilTypeName == "float")
    }
}
