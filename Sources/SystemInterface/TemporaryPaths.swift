#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// New, private temporary folders and files with names no one else holds (`mkdtemp`,
/// `mkstemp`).
package enum TemporaryPaths {
    /// Makes a new folder, mode 0700, whose path is `pathPrefix` plus six random characters
    /// (`/tmp/archivist-store-` gives `/tmp/archivist-store-a81Kx2`).
    ///
    /// - Returns: the folder's path, or the error.
    package static func makeFolder(pathPrefix: String) -> Result<String, SystemCallError> {
        var template = Array((pathPrefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let start = buffer.baseAddress else {
                errno = EINVAL
                return false
            }
            return mkdtemp(start) != nil
        }
        guard made else { return .failure(.last) }
        return .success(path(of: template))
    }

    /// Creates and opens a new file, mode 0600, whose path is `pathPrefix` plus six random
    /// characters.
    ///
    /// - Returns: the open descriptor and the file's path, or the error.
    package static func makeFile(pathPrefix: String) -> Result<(fd: Int32, path: String), SystemCallError> {
        var template = Array((pathPrefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else {
                errno = EINVAL
                return -1
            }
            return mkstemp(start)
        }
        guard fd >= 0 else { return .failure(.last) }
        return .success((fd, path(of: template)))
    }

    /// The path a template holds once the system has filled it in, without its final NUL.
    private static func path(of template: [CChar]) -> String {
        String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
