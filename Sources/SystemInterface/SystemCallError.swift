#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed, with the `errno` it set: callers word the message themselves,
/// in their own voice and with their own context.
package struct SystemCallError: Error, Sendable, Hashable {
    /// The `errno` value.
    package let code: Int32

    package init(_ code: Int32) {
        self.code = code
    }

    /// The error for the `errno` the last call left.
    package static var last: SystemCallError { SystemCallError(errno) }

    /// The C library's text for the code (`strerror`), as it words it.
    package var systemText: String { String(cString: strerror(code)) }
}
