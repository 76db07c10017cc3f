import Foundation
import KeyedBlobs
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
        let noteChanged = note != lastNote
        lastNote = note
        draw(fraction: progress.fraction, detail: progress.detail(failed: failed, note: note), done: progress.processed >= progress.total || noteChanged)
    }

    /// Draws a bar `fraction` full followed by `detail`, at most ten times a second unless `done`.
    func draw(fraction: Double, detail: String, done: Bool) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 || done else { return }
        lastDraw = now
        StandardError.write("\r" + ProgressLineText.line(fraction: fraction, detail: detail) + "\u{1B}[K")
        drawn = true
    }

    func finish() {
        guard enabled, drawn else { return }
        StandardError.write("\r\u{1B}[K")
        drawn = false
    }
}
