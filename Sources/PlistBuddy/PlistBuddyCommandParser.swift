/// Reads a command line as PlistBuddy does.
///
/// The command word is matched by its first letters, ignoring case (`print`, `PRINT`, even
/// `Printer`, which is `Print er`), and must start the line. Then come atoms: an entry or a
/// type is one word, a value the rest of the line. In both, quotes (`"` or `'`) group words and
/// are taken out, `\t` and `\n` are a tab and a line break, `\:` stays as written (a colon
/// inside a key) and a backslash before any other character is that character. A quote left
/// open prints `Parse Error: Unclosed Quotes` and leaves the atom out.
public enum PlistBuddyCommandParser {
    /// A parsed line: the command (nil when the line is refused, which under `-c` ends the whole
    /// run with status 1 before anything runs), and the lines to print on standard output, in order.
    public struct Result: Sendable, Hashable {
        public var command: PlistBuddyCommand?
        public var messages: [String]
    }

    public static func parse(_ line: String) -> Result {
        var scanner = Scanner(bytes: Array(line.utf8)[...])
        let command = scanner.command()
        return Result(command: command, messages: scanner.messages)
    }

    struct Scanner {
        var bytes: ArraySlice<UInt8>
        var messages: [String] = []

        /// Whether the line starts with `word`, ignoring case; if so the word is consumed.
        mutating func take(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard bytes.count >= w.count, zip(bytes.prefix(w.count), w).allSatisfy({ Self.lower($0) == Self.lower($1) }) else { return false }
            bytes.removeFirst(w.count)
            return true
        }

        static func lower(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b | 0x20 : b }

        mutating func command() -> PlistBuddyCommand? {
            if take("Help") || take("?") { return .help }
            if take("Exit") || take("Quit") || take("Bye") { return .exit }
            if take("Save") { return .save }
            if take("Revert") { return .revert }
            if take("Clear") {
                guard let word = atom(singleWord: true) else { return .clear(nil) }
                let type = PlistBuddyValueType(name: Self.text(word))
                if type == nil { messages.append("Unrecognized Type: \(Self.text(word))") }
                return .clear(type)
            }
            if take("Print") || take("ls") {
                return .print(entry: atom(singleWord: true).map(Self.text))
            }
            if take("Set") || take("=") {
                guard let entry = entry(orSay: "Entry Required for Set Command") else { return nil }
                guard let value = atom(singleWord: false) else {
                    messages.append("Value Required for Set Command")
                    return nil
                }
                return .set(entry: entry, value: value)
            }
            if take("Add") || take("+") {
                guard let entry = entry(orSay: "Entry Required for Add Command") else { return nil }
                guard let word = atom(singleWord: true) else {
                    messages.append("Type Required for Add Command")
                    return nil
                }
                guard let type = PlistBuddyValueType(name: Self.text(word)) else {
                    messages.append("Unrecognized Type: \(Self.text(word))")
                    return nil
                }
                return .add(entry: entry, type: type, value: atom(singleWord: false))
            }
            if take("Copy") || take("cp") {
                guard let source = entry(orSay: "Entry Required for Copy Command"),
                      let destination = entry(orSay: "Two Entries Required for Copy Command") else { return nil }
                return .copy(source: source, destination: destination)
            }
            if take("Delete") || take("Remove") || take("rm") || take("-") {
                guard let entry = entry(orSay: "Entry Required for Delete Command") else { return nil }
                return .delete(entry: entry)
            }
            if take("Merge") {
                guard var file = atom(singleWord: true).map(Self.text) else {
                    messages.append("File required for Merge Command")
                    return nil
                }
                var recursive = false
                if file.lowercased() == "-r" {
                    recursive = true
                    guard let next = atom(singleWord: true).map(Self.text) else {
                        messages.append("File required for Merge Command")
                        return nil
                    }
                    file = next
                }
                return .merge(file: file, entry: atom(singleWord: true).map(Self.text), recursive: recursive)
            }
            if take("Import") {
                guard let entry = entry(orSay: "Entry Required for Import Command") else { return nil }
                guard let file = atom(singleWord: true).map(Self.text) else {
                    messages.append("File required for Import Command")
                    return nil
                }
                return .importFile(entry: entry, file: file)
            }
            if take("CD") {
                guard let entry = entry(orSay: "Entry Required for CD Command") else { return nil }
                return .changeContainer(entry: entry)
            }
            messages.append("Unrecognized Command")
            return nil
        }

        /// One word, or `message` when its quotes were not closed.
        mutating func entry(orSay message: String) -> String? {
            guard let word = atom(singleWord: true) else {
                messages.append(message)
                return nil
            }
            return Self.text(word)
        }

        static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

        /// The next atom after spaces and tabs: one word, or with `singleWord` false the rest of
        /// the line. Nil when a quote is left open; an atom with nothing in it is empty.
        mutating func atom(singleWord: Bool) -> [UInt8]? {
            while let b = bytes.first, b == 0x20 || b == 0x09 { bytes.removeFirst() }
            var out: [UInt8] = []
            var rest = bytes
            var escaped = false
            var single = false
            var double = false
            while let ch = rest.first {
                if escaped {
                    switch ch {
                    case 0x74: out.append(0x09)                 // \t
                    case 0x6E: out.append(0x0A)                 // \n
                    case 0x3A: out.append(contentsOf: [0x5C, 0x3A])  // \: stays, for the entry's split
                    default: out.append(ch)
                    }
                    escaped = false
                } else if ch == 0x5C {
                    escaped = true
                } else if !singleWord || single || double {
                    // Inside quotes (or in a value) each kind of quote flips its own state, even
                    // inside the other kind: "it's" leaves a quote open, as on a Mac.
                    if ch == 0x22 {
                        double.toggle()
                    } else if ch == 0x27 {
                        single.toggle()
                    } else {
                        out.append(ch)
                    }
                } else if ch == 0x22 {
                    double.toggle()
                } else if ch == 0x20 || ch == 0x09 {
                    break
                } else if ch == 0x27 {
                    single.toggle()
                } else {
                    out.append(ch)
                }
                rest.removeFirst()
            }
            guard !single, !double else {
                messages.append("Parse Error: Unclosed Quotes")
                return nil
            }
            bytes = rest
            return out
        }
    }
}
