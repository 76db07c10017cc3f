import ArgumentParser
import PlistBuddy

extension Archivist {
    /// `archivist plistbuddy [-c COMMAND]... [-x] FILE`: macOS's PlistBuddy (see
    /// `PlistBuddyProgram`). The same runs when the binary is invoked as `PlistBuddy`.
    struct PlistBuddyCommandLine: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plistbuddy",
            abstract: "Run PlistBuddy's command line: archivist plistbuddy [-c COMMAND]... [-x] FILE.",
            discussion: """
                Takes macOS PlistBuddy's syntax, commands (Print, Set, Add, Delete, Copy, Merge, \
                Import, Clear, Save, Revert, Exit), entries (:key:0:sub), messages and exit status, \
                so a build or MDM script written for a Mac runs unchanged; without -c it reads \
                commands after a Command: prompt. archivist plistbuddy -h lists the commands. Link \
                the binary as PlistBuddy (ln -s archivist PlistBuddy) to run it under that name. \
                docs/plistbuddy.md lists where it differs from macOS.
                """
        )

        @Argument(parsing: .captureForPassthrough, help: "PlistBuddy's arguments.")
        var arguments: [String] = []

        func run() throws {
            let status = Self.program(arguments, programName: "archivist plistbuddy").run(console: PlistBuddyTerminal())
            if status != 0 { throw ExitCode(status) }
        }

        /// The library's program with the CLI's reading limits and file writes.
        static func program(_ arguments: [String], programName: String) -> PlistBuddyProgram {
            var options = PlistBuddyOptions()
            options.reading.maximumDepth = Archivist.defaultMaximumDepth
            return PlistBuddyProgram(arguments: arguments, programName: programName, options: options, files: PlistBuddyDiskFiles())
        }
    }
}
