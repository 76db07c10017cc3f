import PlistBuddy
import Testing

/// How command lines read: command words by their first letters in any case, atoms with
/// quotes and escapes, and the messages PlistBuddy prints for lines it refuses.
@Suite struct PlistBuddyCommandParserTests {
    static func parse(_ line: String) -> PlistBuddyCommandParser.Result { PlistBuddyCommandParser.parse(line) }

    @Test func commandWordsIgnoreCaseAndTheirAliasesWork() {
        #expect(Self.parse("print :a").command == .print(entry: ":a"))
        #expect(Self.parse("PRINT :a").command == .print(entry: ":a"))
        #expect(Self.parse("ls :a").command == .print(entry: ":a"))
    }
}
