import Foundation
import PlistBuddy
import PropertyList

/// A fresh folder to run PlistBuddy in, with the two documents the recorded macOS runs
/// (github.com/Remorix/PlistBuddy, tests/regression.sh, macOS 13) start from, and dates in UTC.
struct PlistBuddyWorkspace {
    let directory: URL

    /// `template-dict.plist` of those runs: a dictionary holding a dictionary and a string.
    static let templateDictionary = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>root</key>
            <dict>
                <key>a</key><string>one</string>
                <key>arr</key>
                <array>
                    <string>x</string>
                </array>
            </dict>
            <key>plain</key><string>text</string>
        </dict>
        </plist>

        """

    /// `template-array.plist` of those runs.
    static let templateArray = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <array>
            <string>a</string>
            <string>b</string>
        </array>
        </plist>

        """

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("plistbuddy-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        try data.write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
    func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func read(_ name: String) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        try PropertyListReader().read(try bytes(name))
    }

    /// What a run printed and returned.
    struct Run {
        var status: Int32
        var output: Data
        var error: String
        var out: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs PlistBuddy's command line in the workspace (relative paths start there, and
    /// messages show them as given), with `input` as interactive lines.
    func run(_ arguments: [String], input: [String] = [], options: PlistBuddyOptions = PlistBuddyWorkspace.utc) -> Run {
        let console = PlistBuddyTranscript(input: input)
        let files = PlistBuddyLocalFiles(directory: directory.path)
        let status = PlistBuddyProgram(arguments: arguments, options: options, files: files).run(console: console)
        return Run(status: status, output: console.output, error: console.error)
    }

    /// `-c` for each command, then the file.
    func run(_ file: String, _ commands: [String], options: PlistBuddyOptions = PlistBuddyWorkspace.utc) -> Run {
        run(commands.flatMap { ["-c", $0] } + [file], options: options)
    }

    static var utc: PlistBuddyOptions {
        var options = PlistBuddyOptions()
        options.dates = PlistBuddyDateFormat(timeZone: TimeZone(identifier: "UTC"), zoneName: "UTC")
        return options
    }
}
