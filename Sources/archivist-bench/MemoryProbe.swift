import Foundation
import PropertyList

/// Measures one parse in a fresh process: its peak resident memory above the baseline that
/// already holds the input bytes.
enum MemoryProbe {
    static func residentBytes() -> Int {
        // VmRSS and VmHWM from /proc/self/status, in kB.
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        return kilobytes(status, "VmRSS:") * 1024
    }

    static func peakBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        return kilobytes(status, "VmHWM:") * 1024
    }

    static func kilobytes(_ status: String, _ field: String) -> Int {
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.dropFirst(field.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
        }
        return 0
    }

    static func run(format: String, path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { exit(1) }
        // Touch every page so the baseline holds the whole input.
        var sum = 0
        for b in data { sum &+= Int(b) }
        let baseline = residentBytes()
        let reader = PropertyListReader()
        let value = try? reader.read(data, as: format == "xml" ? .xml : .binary)
        let peak = peakBytes()
        print("\(peak - baseline) \(data.count) \(value == nil ? "failed" : "ok") \(sum & 1)")
    }

    /// Runs the probe in a child process and returns the parse's extra peak bytes.
    static func measure(format: String, path: String) -> Int? {
        guard let (output, _) = ChildProcess.run(ChildProcess.benchmark, ["--measure-memory", format, path]) else { return nil }
        let fields = String(decoding: output, as: UTF8.self).split(separator: " ")
        guard fields.count >= 3, fields[2] == "ok" else { return nil }
        return Int(fields[0])
    }
}
