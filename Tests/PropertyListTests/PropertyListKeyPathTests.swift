import Foundation
import Testing
@testable import PropertyList

/// Keypaths and edits as plutil's manual and help text define them: dot-separated keys, a
/// number on an array is an index, a final index on insert inserts there, `\.` escapes a dot.
@Suite struct PropertyListKeyPathTests {
    /// An Info.plist-like document, as the fixtures in plutil's examples look.
    static let info: PropertyListValue = [
        "CFBundleIdentifier": "com.example.app",
        "CFBundleURLTypes": [["CFBundleURLSchemes": ["example", "example-beta"]]],
        "com.apple.security.app-sandbox": true,
        "LSMinimumSystemVersion": "13.0",
        "Count": 3,
    ]

    @Test(arguments: [
        ("a.b.c", ["a", "b", "c"]),
        ("CFBundleURLTypes.0.CFBundleURLSchemes", ["CFBundleURLTypes", "0", "CFBundleURLSchemes"]),
        ("com\\.apple\\.security\\.app-sandbox", ["com.apple.security.app-sandbox"]),
        ("a\\.b.c", ["a.b", "c"]),
        ("back\\slash", ["back\\slash"]),
        ("", [""]),
        ("a..b", ["a", "", "b"]),
    ])
    func keypathTextSplitsOnUnescapedDots(text: String, components: [String]) {
        #expect(PropertyListKeyPath(text).components == components)
    }

    @Test func aKeypathPrintsBackWithItsDotsEscaped() {
        let path = PropertyListKeyPath(components: ["com.apple.foo", "0"])
        #expect(path.description == "com\\.apple\\.foo.0")
        #expect(PropertyListKeyPath(path.description) == path)
    }

    @Test func valuesAreFoundByKeyAndByArrayIndex() {
        let info = Self.info
        #expect(info.value(at: PropertyListKeyPath("CFBundleIdentifier")) == "com.example.app")
        #expect(info.value(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.1")) == "example-beta")
        #expect(info.value(at: PropertyListKeyPath("com\\.apple\\.security\\.app-sandbox")) == true)
        #expect(info.value(at: PropertyListKeyPath(components: [])) == info)
    }

    @Test(arguments: ["Missing", "CFBundleURLTypes.1", "CFBundleURLTypes.-1", "CFBundleURLTypes.first",
                      "CFBundleIdentifier.length", "com.apple.security.app-sandbox", ""])
    func aPathThatNamesNothingFindsNothing(text: String) {
        #expect(Self.info.value(at: PropertyListKeyPath(text)) == nil)
    }

    @Test func aNumberOnADictionaryIsAnOrdinaryKey() {
        let value: PropertyListValue = ["0": "zero"]
        #expect(value.value(at: PropertyListKeyPath("0")) == "zero")
    }

    @Test func theLastOfDuplicateKeysIsTheOneFound() {
        let value = PropertyListValue.dictionary(PropertyListDictionary([(.string("k"), 1), (.string("k"), 2)]))
        #expect(value.value(at: PropertyListKeyPath("k")) == 2)
    }

    @Test func insertAddsAKeyAndRefusesOneThatExists() throws {
        var info = Self.info
        try info.edit("Example", at: PropertyListKeyPath("CFBundleName"), mode: .insert)
        #expect(info["CFBundleName"] == "Example")
        #expect(throws: PropertyListEditError.self) {
            try info.edit("other", at: PropertyListKeyPath("CFBundleIdentifier"), mode: .insert)
        }
        #expect(info["CFBundleIdentifier"] == "com.example.app")
    }

    @Test func aFinalIndexOnInsertInsertsThereAndTheCountAppends() throws {
        var value: PropertyListValue = ["list": ["a", "b", "c"]]
        try value.edit("x", at: PropertyListKeyPath("list.1"), mode: .insert)
        #expect(value["list"] == ["a", "x", "b", "c"])
        try value.edit("end", at: PropertyListKeyPath("list.4"), mode: .insert)
        #expect(value["list"] == ["a", "x", "b", "c", "end"])
        do {
            try value.edit("far", at: PropertyListKeyPath("list.9"), mode: .insert)
            Issue.record("an index past the count was accepted")
        } catch {
            #expect(error.code == .indexOutOfRange)
        }
    }

    @Test func appendAddsToTheArrayAtThePath() throws {
        var value = Self.info
        try value.edit("example-dev", at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes"), mode: .append)
        #expect(value.value(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes")) == ["example", "example-beta", "example-dev"])
        do {
            try value.edit("x", at: PropertyListKeyPath("CFBundleIdentifier"), mode: .append)
            Issue.record("appending to a string was accepted")
        } catch {
            #expect(error.code == .notAnArray)
        }
    }

    @Test func replaceNeedsAnExistingValueAndOverwritesIt() throws {
        var value = Self.info
        try value.edit("14.0", at: PropertyListKeyPath("LSMinimumSystemVersion"), mode: .replace)
        try value.edit("prod", at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.0"), mode: .replace)
        #expect(value["LSMinimumSystemVersion"] == "14.0")
        #expect(value.value(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes")) == ["prod", "example-beta"])
        for missing in ["Nope", "CFBundleURLTypes.0.CFBundleURLSchemes.2"] {
            #expect(throws: PropertyListEditError.self) { try value.edit(1, at: PropertyListKeyPath(missing), mode: .replace) }
        }
    }

    @Test func setAddsOrOverwrites() throws {
        var value: PropertyListValue = ["a": 1, "list": [1, 2]]
        try value.edit(2, at: PropertyListKeyPath("a"), mode: .set)
        try value.edit(3, at: PropertyListKeyPath("b"), mode: .set)
        try value.edit(9, at: PropertyListKeyPath("list.0"), mode: .set)
        try value.edit(10, at: PropertyListKeyPath("list.2"), mode: .set)
        #expect(value == ["a": 2, "list": [9, 2, 10], "b": 3])
    }

    @Test func removeTakesOutAKeyOrAnElement() throws {
        var value = Self.info
        let removed = try value.remove(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.0"))
        #expect(removed == "example")
        try value.remove(at: PropertyListKeyPath("com\\.apple\\.security\\.app-sandbox"))
        #expect(value.value(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes")) == ["example-beta"])
        #expect(value["com.apple.security.app-sandbox"] == nil)
        #expect(throws: PropertyListEditError.self) { try value.remove(at: PropertyListKeyPath("Nope")) }
    }

    @Test func nothingOnTheWayIsCreated() {
        var value = Self.info
        do {
            try value.edit(1, at: PropertyListKeyPath("Missing.inner"), mode: .set)
            Issue.record("an edit under a missing key was accepted")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.failedAt == 0)
        }
        #expect(value == Self.info)
    }

    @Test(arguments: [
        ("Count.x", PropertyListEditMode.set, PropertyListEditError.Code.notAContainer),
        ("CFBundleURLTypes.zero.x", .set, .invalidIndex),
        ("CFBundleURLTypes.7.x", .insert, .indexOutOfRange),
        ("CFBundleURLTypes.x", .insert, .invalidIndex),
    ])
    func aFailedEditLeavesTheValueAsItWas(text: String, mode: PropertyListEditMode, code: PropertyListEditError.Code) {
        var value = Self.info
        do {
            try value.edit("new", at: PropertyListKeyPath(text), mode: mode)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code == code)
        }
        #expect(value == Self.info)
    }
}

/// The lazy binary lookup reads only the objects on the path, and gives what a full read does.
@Suite struct BinaryPropertyListLookupTests {
    static let document: PropertyListValue = .array((0..<50).map { n in
        ["name": .string("item-\(n)"), "title": .string(n % 3 == 0 ? "Ångström \(n)" : "title \(n)"),
         "tags": ["a", .integer(PropertyListInteger(n))], "score": .real(Double(n) / 4)]
    })

    @Test func everyPathFindsWhatTheFullReadFinds() throws {
        let data = BinaryPropertyListWriter().write(Self.document)
        let reader = PropertyListReader()
        for path in ["0", "49.name", "3.title", "6.tags", "6.tags.1", "7.score", "50", "7.missing", "7.tags.2", "x", "3.title.0"] {
            let keyPath = PropertyListKeyPath(path)
            let (lazy, format) = try reader.read(data, at: keyPath)
            #expect(format == .binary)
            #expect(lazy == Self.document.value(at: keyPath), "\(path)")
        }
    }

    @Test func textFormatsAreReadWholeAndThenFollowed() throws {
        let path = PropertyListKeyPath("12.tags.1")
        for data in [try XMLPropertyListWriter().write(Self.document), try JSONPropertyListWriter().write(Self.document)] {
            #expect(try PropertyListReader().read(data, at: path).value == 12)
        }
    }

    @Test func aLookupReadsNothingOffThePath() throws {
        // Object 0 is the root dictionary {"a": 1, "b": 2}; object 5's offset is broken, and a
        // full read refuses the file. The lookup of "a" never needs object 5.
        var file = magic
        file += [0xD2, 1, 2, 3, 4]            // 8: dictionary of 2: keys 1, 2, values 3, 4
        file += [0x51, 0x61]                  // 13: "a"
        file += [0x51, 0x62]                  // 15: "b"
        file += [0x10, 0x01]                  // 17: 1
        file += [0xA1, 5]                     // 19: [object 5]
        file += [0x10, 0x02]                  // 21: 2, unreferenced
        file += [8, 13, 15, 17, 19, 0xF0]     // 23: offset table; object 5 at 240, past the table
        file += trailer(count: 6, tableOffset: 23)
        let data = Data(file)
        #expect(throws: PropertyListError.self) { try PropertyListReader().read(data) }
        #expect(try PropertyListReader().read(data, at: PropertyListKeyPath("a")).value == 1)
        // Following "b" reaches the broken offset, and says so.
        #expect(throws: PropertyListError.self) { try PropertyListReader().read(data, at: PropertyListKeyPath("b")) }
    }

    @Test func aValueThatSharesACollectionIsReadWithItsSharing() throws {
        // {"pair": [inner, inner]}, inner = [7] written once and referenced twice: the lookup
        // meets it a second time and starts again with shared objects memoized.
        var file = magic
        file += [0xD1, 1, 2]                      // 8: dictionary: key 1, value 2
        file += [0x54] + Array("pair".utf8)       // 11: "pair"
        file += [0xA2, 3, 3]                      // 16: [object 3, object 3]
        file += [0xA1, 4]                         // 19: [object 4]
        file += [0x10, 7]                         // 21: 7
        file += [8, 11, 16, 19, 21]               // 23: offset table
        file += trailer(count: 5, tableOffset: 23)
        let data = Data(file)
        #expect(try PropertyListReader().read(data, at: PropertyListKeyPath("pair")).value == [[7], [7]])
        #expect(try PropertyListReader().read(data, at: PropertyListKeyPath("pair.1.0")).value == 7)
    }

    @Test func keysWrittenAsUTF16AreMatched() throws {
        let document: PropertyListValue = ["naïve": 1, "plain": 2]
        let data = BinaryPropertyListWriter().write(document)
        #expect(try PropertyListReader().read(data, at: PropertyListKeyPath("naïve")).value == 1)
        #expect(try PropertyListReader().read(data, at: PropertyListKeyPath("plain")).value == 2)
    }
}
