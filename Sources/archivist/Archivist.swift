import ArgumentParser
import Foundation
import PropertyList

/// The `archivist` command: plutil-like verbs over the Archivist libraries.
@main
struct Archivist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archivist",
        abstract: "Read, check and convert Apple property lists and keyed archives.",
        discussion: """
            FILE may be - for standard input. Exit status: 0 success, 1 invalid input or a \
            failed check, 64 usage error; diff follows diff(1): 0 same, 1 different, 2 unreadable.
            """,
        version: ArchivistVersion.forArgumentParser,
        subcommands: [Print.self, Lint.self, Convert.self, Inspect.self, Check.self, Unarchive.self, Archive.self, Rewrite.self, Scan.self, Migrate.self, Model.self,
                      Codegen.self, Get.self, TypeOf.self, AppendingValueEdit<SetValue>.self, AppendingValueEdit<Insert>.self, Replace.self, Remove.self, Diff.self, Plutil.self,
                      PlistBuddyCommandLine.self, Sweep.self]
    )

    /// The deepest nesting the CLI reads by default. Deeper than the library's 512 (CF's cap)
    /// because valid files nest far deeper (CPython's test suite has 100,000 levels); the work
    /// runs on a thread whose stack is sized for it.
    static let defaultMaximumDepth = 200_000

    /// Stack for the worker thread: readers, writers and the release of a tree recurse once per
    /// level, and 2 GiB covers `defaultMaximumDepth` with room to spare. Only touched pages are
    /// committed.
    static let workerStackSize = 2 << 30

    /// No verb is a usage error, as for plutil: the help goes to standard error, status 64.
    func run() throws {
        StandardError.write(Self.helpMessage() + "\n")
        throw ExitCode(64)
    }

    static func main() {
        // A closed pipe is an error (EPIPE) that OutputSink ends quietly, not a signal that
        // kills the process before it cleans up its temporary files.
        signal(SIGPIPE, SIG_IGN)
        // Help and version text is printed by the argument parser through C's stdio: check at
        // exit that it reached standard output, as every other output is checked.
        atexit {
            if fflush(nil) != 0, errno != EPIPE {
                StandardError.write("archivist: cannot write standard output: \(SystemError.reason(errno))\n")
                _exit(1)
            }
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let invokedName = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }
        let invokedAsPlutil = invokedName == "plutil"
        let invokedAsPlistBuddy = invokedName == "PlistBuddy"
        // A first word that is no verb: say so, with the nearest verb, rather than the parser's
        // "unexpected argument". Not as plutil or PlistBuddy, whose first word is a file or a flag.
        if !invokedAsPlutil, !invokedAsPlistBuddy, let first = arguments.first, !first.hasPrefix("-"), first != "plutil", first != "plistbuddy" {
            if !VerbSuggestion.isVerb(first, of: Self.self) {
                let verbs = VerbSuggestion.verbs(of: Self.self)
                let hint = VerbSuggestion.nearest(first, among: verbs).map { "; did you mean '\($0)'?" } ?? ""
                StandardError.write("archivist: unknown verb '\(first)'\(hint) (verbs: \(verbs.filter { $0 != "help" }.joined(separator: ", ")))\n")
                Foundation.exit(64)
            }
        }
        if !invokedAsPlutil, !invokedAsPlistBuddy { MallocArena.configure(forVerb: arguments.first) }
        let work = {
            if invokedAsPlutil {
                // plutil's own syntax, whole: no archivist verb, option or help parsing.
                Foundation.exit(Plutil.program(arguments, programName: "plutil").run())
            } else if arguments.first == "plutil" {
                Foundation.exit(Plutil.program(Array(arguments.dropFirst()), programName: "archivist plutil").run())
            } else if invokedAsPlistBuddy {
                // PlistBuddy's own syntax, whole, as for plutil.
                Foundation.exit(PlistBuddyCommandLine.program(arguments, programName: "PlistBuddy").run(console: PlistBuddyTerminal()))
            } else if arguments.first == "plistbuddy" {
                let program = PlistBuddyCommandLine.program(Array(arguments.dropFirst()), programName: "archivist plistbuddy")
                Foundation.exit(program.run(console: PlistBuddyTerminal()))
            }
            Self.main(arguments)
        }
        if !DeepStackThread.run(stackSize: workerStackSize, work) {
            // No thread could be made with that stack: run here, within the default stack.
            work()
        }
        Foundation.exit(0)
    }
}
