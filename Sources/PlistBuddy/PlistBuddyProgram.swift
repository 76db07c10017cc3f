import Foundation
import PropertyList

/// PlistBuddy's whole command line, `PlistBuddy [-c COMMAND]... [-x] [-l] [-h] FILE`: what
/// `archivist plistbuddy` and the binary run as `PlistBuddy` do, for any console.
///
/// As on a Mac, the arguments are taken in order: the file is read when it is met (printing
/// `File Doesn't Exist, Will Create: PATH` for a new one), each `-c` command is parsed when it
/// is met, and a command that does not parse ends the run with status 1 before any runs. Then
/// the commands run in order, and the file is saved once at the end if any of them changed the
/// document. Without `-c`, commands are read from the console after a `Command: ` prompt until
/// `Exit` or the end of input, and nothing is saved but by `Save`.
///
/// Exit status: 0, or 1 when a command failed, the file could not be read, or the arguments are
/// wrong (a second file prints `Invalid Arguments`; no file prints the usage; `-h` prints the
/// command guide).
public struct PlistBuddyProgram {
    /// The arguments after the program's name.
    public var arguments: [String]
    /// How the usage line names the program.
    public var programName: String
    public var options: PlistBuddyOptions
    public var files: any PlistBuddyFileSystem

    public init(arguments: [String], programName: String = "PlistBuddy", options: PlistBuddyOptions = PlistBuddyOptions(),
                files: any PlistBuddyFileSystem = PlistBuddyLocalFiles()) {
        self.arguments = arguments
        self.programName = programName
        self.options = options
        self.files = files
    }

    /// Runs the command line on `console` and returns the exit status.
    public func run(console: any PlistBuddyConsole) -> Int32 {
        var options = self.options
        // -l matters when the file is read, which may come before it: it is looked for first.
        if arguments.contains("-l") { options.followsSymbolicLinks = false }
        var session: PlistBuddySession?
        var commands: [PlistBuddyCommand] = []
        var index = 0
        arguments: while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help", "-help":
                console.writeOutput(Data(PlistBuddyHelp.guide.utf8))
                return 1
            case "-c":
                index += 1
                guard index < arguments.count else {
                    // `-c` with nothing after it: a command that does nothing.
                    commands.append(.nothing)
                    break arguments
                }
                let parsed = PlistBuddyCommandParser.parse(arguments[index])
                for message in parsed.messages { console.say(message) }
                guard let command = parsed.command else { return 1 }
                commands.append(command)
            case "-x":
                options.printsXML = true
            case "-l":
                break
            default:
                guard session == nil else {
                    console.say("Invalid Arguments\n")
                    return 1
                }
                guard let opened = PlistBuddySession(path: argument, options: options, files: files, console: console) else { return 1 }
                session = opened
            }
            index += 1
        }
        guard var session else {
            console.writeOutput(Data(PlistBuddyHelp.usage(programName).utf8))
            return 1
        }
        session.options.printsXML = options.printsXML
        if commands.isEmpty {
            while true {
                console.writeOutput(Data("Command: ".utf8))
                guard let line = console.readLine() else { break }
                guard !line.isEmpty else { continue }
                let parsed = PlistBuddyCommandParser.parse(line)
                for message in parsed.messages { console.say(message) }
                guard let command = parsed.command else { continue }
                if !session.run(command) { break }
            }
        } else {
            // `Exit` does nothing here: every command runs, and the changes are saved.
            for command in commands { session.run(command) }
            if session.hasUnsavedChanges { session.save() }
        }
        return session.hasFailed ? 1 : 0
    }
}
