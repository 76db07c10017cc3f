import Foundation
import SystemInterface

extension StandardInputCopy {
    /// A copy of standard input when `argument` is `-` (SQLite reads files, not streams); nil
    /// for a path.
    static func ifNeeded(_ argument: String) throws(CommandFailure) -> StandardInputCopy? {
        guard argument == "-" else { return nil }
        let base = FileManager.default.temporaryDirectory.path
        do {
            return try make(folderPrefix: base + "/archivist-stdin-", name: "stdin.sqlite")
        } catch {
            switch error {
            case .folder(let error):
                throw CommandFailure(file: "<stdin>", message: "cannot make a temporary folder in \(base) to hold standard input: \(SystemError.reason(error.code))")
            case .reading(let error): throw CommandFailure(file: "<stdin>", message: "cannot read: \(SystemError.reason(error.code))")
            case .writing(let error, let path): throw OutputFile(path: path).failure(error)
            }
        }
    }
}
