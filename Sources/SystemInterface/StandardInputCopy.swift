import Foundation

/// Standard input saved to a private temporary file, for readers that need a file (SQLite).
package struct StandardInputCopy {
    /// The private folder (mode 0700) holding the copy.
    package let folder: String
    package let path: String

    /// Why standard input was not copied.
    package enum Failure: Error, Sendable {
        /// The private folder could not be made.
        case folder(SystemCallError)
        /// Standard input could not be read.
        case reading(SystemCallError)
        /// The copy at `path` could not be written.
        case writing(OutputSink.Failure, path: String)
    }

    /// Copies standard input to a file `name` in a new private folder whose path starts with
    /// `folderPrefix`. Nothing is left behind when it fails.
    package static func make(folderPrefix: String, name: String) throws(Failure) -> StandardInputCopy {
        let made: String
        switch TemporaryPaths.makeFolder(pathPrefix: folderPrefix) {
        case .success(let folder): made = folder
        case .failure(let error): throw .folder(error)
        }
        let copy = StandardInputCopy(folder: made, path: made + "/" + name)
        do throws(Failure) {
            let sink: OutputSink
            do throws(OutputSink.Failure) {
                sink = try OutputSink(path: copy.path)
            } catch {
                throw .writing(error, path: copy.path)
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let n = chunk.withUnsafeMutableBytes { FileIO.read(STDIN_FILENO, into: $0) }
                if n == 0 { break }
                if n < 0 {
                    let error = SystemCallError.last
                    sink.abandon()
                    throw .reading(error)
                }
                chunk.withUnsafeBytes { sink.write(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
            }
            do throws(OutputSink.Failure) {
                try sink.commit()
            } catch {
                throw .writing(error, path: copy.path)
            }
        } catch {
            copy.remove()
            throw error
        }
        return copy
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
