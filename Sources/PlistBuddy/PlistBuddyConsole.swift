import Foundation

/// Where a PlistBuddy session writes and, in interactive mode, reads its commands: the
/// terminal for the command line, a `PlistBuddyTranscript` in memory for a program or a test.
public protocol PlistBuddyConsole: AnyObject {
    /// Writes bytes to standard output: printed values (data values are written raw), prompts
    /// and most of PlistBuddy's messages.
    func writeOutput(_ bytes: Data)
    /// Writes a line's text to standard error: the messages about entries and files.
    func writeError(_ text: String)
    /// The next line of interactive input without its line break, or nil at the end of input.
    func readLine() -> String?
}

extension PlistBuddyConsole {
    func say(_ line: String) { writeOutput(Data((line + "\n").utf8)) }
    func complain(_ line: String) { writeError(line + "\n") }
}

/// A console in memory: lines of input given up front, and what was written to each stream.
public final class PlistBuddyTranscript: PlistBuddyConsole {
    /// Standard output's bytes so far.
    public private(set) var output = Data()
    /// Standard error's text so far.
    public private(set) var error = ""
    private var input: [String]

    /// A transcript that answers `readLine` with `input`, one line at a time, then the end.
    public init(input: [String] = []) {
        self.input = input
    }

    /// Standard output as text (bytes that are not UTF-8 are replaced).
    public var outputText: String { String(decoding: output, as: UTF8.self) }

    public func writeOutput(_ bytes: Data) { output.append(bytes) }
    public func writeError(_ text: String) { error += text }

    public func readLine() -> String? {
        input.isEmpty ? nil : input.removeFirst()
    }
}
