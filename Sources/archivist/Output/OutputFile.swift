import ArchivePayload
import Foundation
import PropertyList
import SystemInterface

/// Where a verb writes: a path given with -o, or standard output for none or -.
///
/// Every byte a verb writes to standard output or a file goes through here, so that every
/// failure reads the same way (`archivist: cannot write OUTPUT: REASON`, exit status 1), a
/// reader that closes the pipe early ends the output quietly, and a file is never left half
/// written: it is written beside its destination, flushed to disk and renamed over it, keeping
/// the permission mode of the file it replaces.
struct OutputFile {
    /// The path given with -o; nil or - is standard output.
    let path: String?

    init(path: String?) {
        self.path = path
    }

    var isStandardOutput: Bool { path == nil || path == "-" }

    /// The name messages use: the path, or "standard output".
    var name: String { isStandardOutput ? "standard output" : path ?? "-" }

    /// Whether the bytes would land on a terminal: standard output, not redirected.
    var isTerminal: Bool { isStandardOutput && isatty(STDOUT_FILENO) == 1 }

    /// Writes `data` whole.
    ///
    /// With `endsLineOnTerminal`, text that does not end a line gets a line break when it goes
    /// to a terminal (JSONEncoder's output has none, and the prompt would follow it); files and
    /// pipes get the bytes exactly.
    func write(_ data: Data, endsLineOnTerminal: Bool = false) throws(CommandFailure) {
        try stream { sink in
            sink.write(data)
            if endsLineOnTerminal, data.last != 0x0A, isTerminal { sink.write("\n") }
        }
    }

    /// Writes text whole.
    func write(_ text: String) throws(CommandFailure) {
        try write(Data(text.utf8))
    }

    /// Opens the output, lets `body` write to it piece by piece, then commits it: standard
    /// output is flushed; a file is synced and renamed into place. When `body` throws or a
    /// write fails, a file destination is left as it was.
    ///
    /// - Throws: `body`'s failure, or `cannot write OUTPUT: REASON`.
    @discardableResult
    func stream<T>(_ body: (OutputSink) throws(CommandFailure) -> T) throws(CommandFailure) -> T {
        let sink = try open()
        let result: T
        do {
            result = try body(sink)
        } catch {
            sink.abandon()
            throw error
        }
        try commit(sink)
        return result
    }

    /// Opens the output (`OutputSink`), a failure in our words.
    func open() throws(CommandFailure) -> OutputSink {
        do {
            return try OutputSink(path: isStandardOutput ? nil : path)
        } catch {
            throw failure(error)
        }
    }

    /// Finishes the output `open()` gave: standard output flushed, a file synced and renamed
    /// into place.
    ///
    /// - Throws: `cannot write OUTPUT: REASON`; a file destination is then as it was.
    func commit(_ sink: OutputSink) throws(CommandFailure) {
        do {
            try sink.commit()
        } catch {
            throw failure(error)
        }
    }

    /// An output that failed, in our words.
    func failure(_ error: OutputSink.Failure) -> CommandFailure {
        let path = self.path ?? "-"
        return switch error {
        case .noFolderNamed:
            // `-o reports/` names a folder that is not there: say so, rather than what rename(2)
            // would say after the whole output was written beside it.
            CommandFailure(message: "cannot write \(path): the folder \(path) does not exist (give a file name to write)")
        case .destinationIsFolder: CommandFailure(message: "cannot write \(path): it is a folder")
        case .noFolder(let folder): CommandFailure(message: "cannot write \(path): the folder \(folder) does not exist")
        case .temporaryFile(let error):
            CommandFailure(message: "cannot write \(path): \(SystemError.reason(error.code)) (a file is written beside its destination, then renamed)")
        case .system(let error): CommandFailure(message: "cannot write \(name): \(SystemError.reason(error.code))")
        }
    }

    /// Refuses to put a binary property list on a terminal, where it is unreadable and can
    /// garble the terminal's state. `-o -` asks for it explicitly.
    func refuseBinaryOnTerminal(_ what: String) throws(CommandFailure) {
        guard path == nil, isTerminal else { return }
        throw CommandFailure(message: "refusing to write \(what) to a terminal; give -o FILE, or -o - to write it here anyway")
    }
}

/// A file opened for output takes the unarchived JSON in pieces when it is written beside its
/// destination, and whole otherwise.
extension OutputSink: UnarchivedJSONOutput {
    package var canDiscardWritten: Bool { isTemporaryFile }
}
