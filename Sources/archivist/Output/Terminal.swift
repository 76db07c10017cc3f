import Foundation

/// Whether to color output: only on a terminal, and never when NO_COLOR is set.
enum Terminal {
    static func colorsEnabled(fileDescriptor: Int32 = STDOUT_FILENO) -> Bool {
        if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
        if ProcessInfo.processInfo.environment["TERM"] == "dumb" { return false }
        return isatty(fileDescriptor) == 1
    }

    /// Progress goes to standard error, and only when it is a terminal.
    static func progressEnabled() -> Bool {
        ProcessInfo.processInfo.environment["TERM"] != "dumb" && isatty(STDERR_FILENO) == 1
    }
}
