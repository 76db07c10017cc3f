import CoreDataStore
import Foundation

/// A one-line progress bar on standard error, redrawn at most ten times a second.
struct ProgressBar {
    let enabled: Bool
    var lastDraw: UInt64 = 0
    var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    mutating func update(_ progress: MigrationProgress) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 || progress.processed >= progress.total else { return }
        lastDraw = now
        let fraction = progress.total > 0 ? min(1, Double(progress.processed) / Double(progress.total)) : 1
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = String(format: "\r%@ %3.0f%% %@/%@ rows  %@ rows/s", bar, fraction * 100,
                          StoreReportText.number(progress.processed), StoreReportText.number(progress.total),
                          StoreReportText.number(Int(progress.rowsPerSecond)))
        if let left = progress.estimatedSecondsLeft { line += String(format: "  ETA %.0f s", left.rounded(.up)) }
        if progress.failed > 0 { line += "  \(StoreReportText.number(progress.failed)) failed" }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
        drawn = true
    }

    mutating func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
