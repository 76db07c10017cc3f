import Foundation
import SystemInterface

/// Standard error, written with write(2): messages must never crash the tool, even when
/// standard error is closed or full (FileHandle's `write` traps on any error).
enum StandardError {
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        // A failure leaves nowhere to report it.
        _ = bytes.withUnsafeBytes { FileIO.writeAll(STDERR_FILENO, $0) }
    }
}
