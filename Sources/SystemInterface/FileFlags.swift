/// Flags for `open(2)` that exist on some systems only, as values every system accepts.
package enum FileFlags {
    /// Linux's `O_NOATIME` (not exported to Swift): reading does not update the file's access
    /// time. Only the file's owner (or root) may use it: an `open` refused with `EPERM` should
    /// be tried again without it. Zero elsewhere.
    #if os(Linux)
    package static let noAccessTime: Int32 = 0o1000000
    #else
    package static let noAccessTime: Int32 = 0
    #endif
}
