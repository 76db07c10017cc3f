#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Symbols looked up in the running process at run time (`dlsym`): functions a library may or
/// may not export, and that no header declares to Swift (Core Foundation's C functions, which
/// Foundation on Linux carries inside itself).
package enum DynamicSymbol {
    /// The address of `name` in the process and the libraries it has loaded; nil when no loaded
    /// image exports it.
    package static func address(_ name: String) -> UnsafeMutableRawPointer? {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        return dlsym(handle, name)
    }
}
