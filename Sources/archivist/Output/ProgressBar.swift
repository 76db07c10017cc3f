import CoreDataStore
import Foundation
import PropertyList

/// A one-line progress bar on standard error, redrawn at most ten times a second (and at once
/// when the note changes).
final class ProgressBar {
    let enabled: Bool
    var lastDraw: UInt64 = 0
    var lastNote: String?
    var drawn = false

    /// A bar drawn only when standard error is a terminal.
    init(enabled: Bool = Terminal.progressEnabled()) { self.enabled = enabled }

    /// Runs `work` with a bar, cleared when the work ends, whether it succeeds or fails; its
    /// failure is what `failure` makes of it. The long verbs' shared frame (scan, migrate, model).
    static func showing<T, Failure: Error>(_ work: (ProgressBar) throws(Failure) -> T,
                                           failure: (Failure) -> CommandFailure) throws(CommandFailure) -> T {
        let bar = ProgressBar()
        defer { bar.finish() }
        do {
            return try work(bar)
        } catch {
            throw failure(error)
        }
    }

    /// `update(_:)` as a progress handler; nil when nothing is drawn, so that the work skips it.
    func updates<Progress: RowProgress>() -> ((Progress) -> Void)? {
        enabled ? { self.update($0) } : nil
    }

    /// Draws `progress`, with the count of failed rows when there are any, and `note` (why
    /// the work is paused) when there is one.
    func update(_ progress: some RowProgress, failed: Int = 0, note: String? = nil) {
        let (processed, total) = (progress.processed, progress.total)
        let fraction = total > 0 ? min(1, Double(processed) / Double(total)) : 1
        var detail = String(format: "%@/%@ rows  %@ rows/s", CountText.number(processed), CountText.number(total),
                            CountText.number(Int(progress.rowsPerSecond)))
        if let left = progress.estimatedSecondsLeft { detail += String(format: "  ETA %.0f s", left.rounded(.up)) }
        if failed > 0 { detail += "  \(CountText.number(failed)) failed" }
        if let note { detail += "  \(note)" }
        let noteChanged = note != lastNote
        lastNote = note
        draw(fraction: fraction, detail: detail, done: processed >= total || noteChanged)
    }

    /// Draws a bar `fraction` full followed by `detail`, at most ten times a second unless `done`.
    func draw(fraction: Double, detail: String, done: Bool) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 || done else { return }
        lastDraw = now
        let width = 30
        let filled = Int(max(0, min(1, fraction)) * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = String(format: "\r%@ %3.0f%% ", bar, fraction * 100) + detail
        StandardError.write(line + "\u{1B}[K")
        drawn = true
    }

    func finish() {
        guard enabled, drawn else { return }
        StandardError.write("\r\u{1B}[K")
        drawn = false
    }
}
