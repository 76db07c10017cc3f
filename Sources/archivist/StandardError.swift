import Foundation

/// Standard error, written with write(2): messages must never crash the tool, even when
/// standard error is closed or full (FileHandle's `write` traps on any error).
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0, errno == EINTR {
                    continue
                } else {
                    return   // nowhere left to report it
                }
            }
        }
    }
}
