import Foundation
import PlistBuddy

/// PlistBuddy's console on the process's standard streams. Standard output goes through
/// `OutputFile`, so a failed write ends the run as every verb's does (a closed pipe quietly).
final class PlistBuddyTerminal: PlistBuddyConsole {
    func writeOutput(_ bytes: Data) {
        do throws(CommandFailure) {
            try OutputFile(path: nil).write(bytes)
        } catch {
            error.report()
            Foundation.exit(1)
        }
    }

    func writeError(_ text: String) {
        StandardError.write(text)
    }

    func readLine() -> String? {
        Swift.readLine(strippingNewline: true)
    }
}
