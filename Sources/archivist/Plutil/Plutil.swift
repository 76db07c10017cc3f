import ArgumentParser
import Plutil
import PropertyList

extension Archivist {
    /// `archivist plutil ARGS…`: macOS's plutil command line (see `PlutilProgram`). The same
    /// runs when the binary is invoked as `plutil`, through a symbolic link.
    struct Plutil: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "plutil",
            abstract: "Run plutil's command line: archivist plutil -lint|-p|-convert|-insert|-replace|-remove|-extract|-type|-create ….",
            discussion: """
                Takes macOS plutil's syntax, flags, messages and exit status (0 success, 1 any \
                failure), so a script written for a Mac runs unchanged; archivist plutil -help \
                lists the commands. Link the binary as plutil (ln -s archivist plutil) to run it \
                under that name. The README lists where the output differs from macOS.
                """
        )

        @Argument(parsing: .captureForPassthrough, help: "plutil's arguments.")
        var arguments: [String] = []

        func run() throws {
            let status = Self.program(arguments, programName: "archivist plutil").run()
            if status != 0 { throw ExitCode(status) }
        }

        /// The library's program with the CLI's reading limits, files and messages.
        static func program(_ arguments: [String], programName: String) -> PlutilProgram {
            var options = PropertyListReadOptions()
            options.maximumDepth = Archivist.defaultMaximumDepth
            // Apple's plutil reads with Core Foundation: what it refuses, this one refuses.
            options.readsBeyondCoreFoundation = false
            return PlutilProgram(arguments: arguments, programName: programName, readOptions: options, environment: PlutilTerminal())
        }
    }
}
