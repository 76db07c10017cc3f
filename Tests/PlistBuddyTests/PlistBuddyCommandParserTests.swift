import PlistBuddy
import Testing

/// How command lines read: command words by their first letters in any case, atoms with
/// quotes and escapes, and the messages PlistBuddy prints for lines it refuses. The rules are
/// those of PlistBuddy's `ParseCmnd` and `ParseAtom` as reconstructed in
/// github.com/Remorix/PlistBuddy (Parse.c), checked against its recorded macOS runs.
@Suite struct PlistBuddyCommandParserTests {
    static func parse(_ line: String) -> PlistBuddyCommandParser.Result { PlistBuddyCommandParser.parse(line) }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func commandWordsIgnoreCaseAndTheAliasesReadAsTheirCommands() {
        #expect(Self.parse("print :a").command == .print(entry: ":a"))
        #expect(Self.parse("PRINT :a").command == .print(entry: ":a"))
        #expect(Self.parse("ls :a").command == .print(entry: ":a"))
        #expect(Self.parse("= :a b").command == .set(entry: ":a", value: Self.bytes("b")))
        #expect(Self.parse("+ :a string b").command == .add(entry: ":a", type: .string, value: Self.bytes("b")))
        #expect(Self.parse("cp :a :b").command == .copy(source: ":a", destination: ":b"))
        for delete in ["Delete :a", "Remove :a", "rm :a", "- :a"] {
            #expect(Self.parse(delete).command == .delete(entry: ":a"), "\(delete)")
        }
        for exit in ["Exit", "Quit", "Bye", "bye"] {
            #expect(Self.parse(exit).command == .exit, "\(exit)")
        }
        #expect(Self.parse("?").command == .help)
        #expect(Self.parse("Help me").command == .help)
        #expect(Self.parse("Save").command == .save)
        #expect(Self.parse("Revert").command == .revert)
        #expect(Self.parse("CD :root").command == .changeContainer(entry: ":root"))
    }

    @Test func aCommandWordIsMatchedByItsFirstLettersOnly() {
        // strncasecmp on the word's length: "Printer" is Print with the entry "er".
        #expect(Self.parse("Printer").command == .print(entry: "er"))
        #expect(Self.parse("Exits").command == .exit)
    }

    @Test func aLineStartingWithSpaceOrNoKnownWordIsRefused() {
        for line in ["  Print :a", "", "FooBar", "print:a"] where line != "print:a" {
            let r = Self.parse(line)
            #expect(r.command == nil, "\(line)")
            #expect(r.messages == ["Unrecognized Command"], "\(line)")
        }
        // No space is needed after the word: the atom starts right after it.
        #expect(Self.parse("print:a").command == .print(entry: ":a"))
    }

    @Test func missingArgumentsAreEmptyAtomsNotErrors() {
        #expect(Self.parse("Print").command == .print(entry: ""))
        #expect(Self.parse("Add :e string").command == .add(entry: ":e", type: .string, value: []))
        #expect(Self.parse("Set :a").command == .set(entry: ":a", value: []))
        #expect(Self.parse("Merge f.plist").command == .merge(file: "f.plist", entry: "", recursive: false))
    }

    @Test func anEntryIsOneWordUnlessQuoted() {
        #expect(Self.parse("Print :key with spaces").command == .print(entry: ":key"))
        #expect(Self.parse("Print \":key with spaces\"").command == .print(entry: ":key with spaces"))
        // Quotes may cover part of a word, and are taken out (the PlistBuddy guide's example).
        #expect(Self.parse("print 'Palo Alto Networks':GlobalProtect:PanSetup").command
                == .print(entry: "Palo Alto Networks:GlobalProtect:PanSetup"))
        #expect(Self.parse("Print :key\"quotes\"").command == .print(entry: ":keyquotes"))
    }

    @Test func aValueIsTheRestOfTheLineWithQuotesTakenOut() {
        #expect(Self.parse("Set :Name hello world").command == .set(entry: ":Name", value: Self.bytes("hello world")))
        #expect(Self.parse("Set :Name \"new name\"").command == .set(entry: ":Name", value: Self.bytes("new name")))
        #expect(Self.parse("Add :msg string 'hello world'").command == .add(entry: ":msg", type: .string, value: Self.bytes("hello world")))
        // Leading blanks are skipped, trailing ones kept, and an equals sign is just text.
        #expect(Self.parse("Set :a   x  ").command == .set(entry: ":a", value: Self.bytes("x  ")))
        #expect(Self.parse("Set :Name key=value").command == .set(entry: ":Name", value: Self.bytes("key=value")))
    }

    @Test func escapesMakeTabsLineBreaksQuotesAndKeepEscapedColons() {
        #expect(Self.parse(#"Set :a one\ttwo\nthree"#).command == .set(entry: ":a", value: Self.bytes("one\ttwo\nthree")))
        #expect(Self.parse(#"Set :a say \"hi\""#).command == .set(entry: ":a", value: Self.bytes("say \"hi\"")))
        #expect(Self.parse(#"Print :foo\:bar"#).command == .print(entry: #":foo\:bar"#))
        #expect(Self.parse(#"Print :a\ b"#).command == .print(entry: ":a b"))
        #expect(Self.parse(#"Set :a back\\slash"#).command == .set(entry: ":a", value: Self.bytes(#"back\slash"#)))
    }

    @Test func anUnclosedQuoteLeavesItsAtomOut() {
        // Add goes on without its value (recorded: parse-error-quotes, exit 0).
        let add = Self.parse("Add :a string \"unterminated")
        #expect(add.messages == ["Parse Error: Unclosed Quotes"])
        #expect(add.command == .add(entry: ":a", type: .string, value: nil))
        // Inside double quotes a single quote still flips its own state: "it's" stays open.
        #expect(Self.parse("Add :a string \"it's\"").command == .add(entry: ":a", type: .string, value: nil))
        let set = Self.parse("Set :a \"x")
        #expect(set.command == nil)
        #expect(set.messages == ["Parse Error: Unclosed Quotes", "Value Required for Set Command"])
        #expect(Self.parse("Set \":a").messages == ["Parse Error: Unclosed Quotes", "Entry Required for Set Command"])
        #expect(Self.parse("Copy :a \":b").messages == ["Parse Error: Unclosed Quotes", "Two Entries Required for Copy Command"])
        #expect(Self.parse("Delete ':a").messages == ["Parse Error: Unclosed Quotes", "Entry Required for Delete Command"])
        #expect(Self.parse("Import :a 'f").messages == ["Parse Error: Unclosed Quotes", "File required for Import Command"])
        #expect(Self.parse("Merge 'f").messages == ["Parse Error: Unclosed Quotes", "File required for Merge Command"])
    }

    @Test func typesAreNamedInAnyCaseAndAnUnknownOneIsSaid() {
        #expect(Self.parse("Add :K1 String hello").command == .add(entry: ":K1", type: .string, value: Self.bytes("hello")))
        #expect(Self.parse("Add :K2 INTEGER 5").command == .add(entry: ":K2", type: .integer, value: Self.bytes("5")))
        let bogus = Self.parse("Add :a bogus x")
        #expect(bogus.command == nil)
        #expect(bogus.messages == ["Unrecognized Type: bogus"])
        #expect(Self.parse("Add").messages == ["Unrecognized Type: "])
        // Clear goes on with a dictionary (recorded: clear-default).
        let clear = Self.parse("Clear")
        #expect(clear.command == .clear(nil))
        #expect(clear.messages == ["Unrecognized Type: "])
        #expect(Self.parse("Clear array").command == .clear(.array))
    }

    @Test func mergeTakesRecursiveFirstAndAnEntryAfterTheFile() {
        #expect(Self.parse("Merge -r merge-dict.plist :root").command == .merge(file: "merge-dict.plist", entry: ":root", recursive: true))
        #expect(Self.parse("Merge merge-dict.plist :root").command == .merge(file: "merge-dict.plist", entry: ":root", recursive: false))
        #expect(Self.parse("Import :blob blob.bin").command == .importFile(entry: ":blob", file: "blob.bin"))
    }
}
