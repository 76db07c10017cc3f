import Foundation
import Plutil
import PropertyList

/// A plutil run's environment in the CLI: standard input read with the limit every verb
/// applies, files and standard output written through `OutputFile` (synced, renamed into
/// place, mode kept), and the sniffer's words for a file that is no property list.
struct PlutilTerminal: PlutilEnvironment {
    func readStandardInput(limit: Int) throws(PlutilInputError) -> Data {
        do throws(CommandFailure) {
            return try InputFile.readStream(STDIN_FILENO, limit: limit, name: "<stdin>")
        } catch {
            throw PlutilInputError(error.message)
        }
    }

    func write(_ data: Data, to path: String?) throws(PlutilOutputError) {
        do throws(CommandFailure) {
            try OutputFile(path: path).write(data)
        } catch {
            throw PlutilOutputError(line: error.line, isStandardOutput: error.message.hasPrefix("cannot write standard output"))
        }
    }

    func writeError(_ text: String) {
        StandardError.write(text)
    }

    func describe(_ error: PropertyListError, data: Data) -> String {
        Diagnosis.propertyListFailure(error, data: data)
    }

    func foreignContent(_ data: Data) -> String? {
        Diagnosis.foreignContent(data).map { Diagnosis.describe($0, size: data.count) }
    }
}
