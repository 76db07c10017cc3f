import Foundation
import PropertyList

/// Times each operation for us and for Foundation on the same bytes, and prints the ratios.
struct PropertyListBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings

    struct Row {
        var operation: String
        var ours: Double
        var foundation: Double?
        var note: String = ""
    }

    /// The fastest of `settings.repetitions` runs, in seconds.
    func time(_ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<settings.repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    func run() {
        var rows: [Row] = []
        var memory: [String] = []
        if settings.groups.contains("plist") {
            guard let (plistRows, memoryRows) = runPropertyLists() else { return }
            rows += plistRows
            memory = memoryRows
        }
        if settings.groups.contains("archive") {
            rows += ArchiveBenchmark(settings: settings).run()
        }
        if settings.groups.contains("store") {
            rows += StoreBenchmark(settings: settings).run()
        }
        if settings.groups.contains("keypath") {
            rows += KeyPathBenchmark(settings: settings).run()
        }
        print("Archivist benchmark: best of \(settings.repetitions) runs for Archivist, one run for Foundation; release build")
        print("")
        print("| operation | Archivist | Foundation | speed-up |")
        print("|---|---:|---:|---:|")
        for row in rows {
            let theirs = row.foundation.map { String(format: "%.3f s", $0) } ?? "–"
            let ratio = row.foundation.map { String(format: "%.1f×", $0 / row.ours) } ?? "–"
            print("| \(row.operation) | \(String(format: "%.3f s", row.ours)) | \(theirs) | \(ratio) |")
        }
        if !memory.isEmpty {
            print("")
            print("| peak memory of a full parse, above the input held in memory | bytes | × input size |")
            print("|---|---:|---:|")
            for line in memory { print(line) }
        }
    }

    func runPropertyLists() -> ([Row], [String])? {
        log("generating \(settings.dictionaryCount) dictionaries…")
        let value = BenchmarkInput.make(dictionaries: settings.dictionaryCount)
        let binary = BinaryPropertyListWriter().write(value)
        let xml: Data
        do {
            xml = try XMLPropertyListWriter().write(value)
        } catch {
            log("XML writer failed: \(error)")
            return nil
        }
        if let directory = settings.inputsDirectory {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try? binary.write(to: URL(fileURLWithPath: directory).appendingPathComponent("input.bplist"))
            try? xml.write(to: URL(fileURLWithPath: directory).appendingPathComponent("input.xml"))
            log("wrote \(directory)/input.bplist and input.xml")
            return nil
        }
        let values = BenchmarkInput.countValues(value)
        log("values: \(values), binary: \(binary.count) bytes, XML: \(xml.count) bytes")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let binaryURL = directory.appendingPathComponent("input.bplist")
        let xmlURL = directory.appendingPathComponent("input.xml")
        try? binary.write(to: binaryURL)
        try? xml.write(to: xmlURL)

        var rows: [Row] = []
        let reader = PropertyListReader()
        let foundation = !settings.skipFoundation

        log("binary parse…")
        let ourBinaryParse = time { _ = try? reader.read(binary, as: .binary) }
        let theirBinaryParse = foundation ? time { _ = try? PropertyListSerialization.propertyList(from: binary, options: [], format: nil) } : nil
        rows.append(Row(operation: "binary parse (\(mb(binary.count)))", ours: ourBinaryParse, foundation: theirBinaryParse))

        log("XML parse…")
        let ourXMLParse = time { _ = try? reader.read(xml, as: .xml) }
        let theirXMLParse = foundation ? time { _ = try? PropertyListSerialization.propertyList(from: xml, options: [], format: nil) } : nil
        rows.append(Row(operation: "XML parse (\(mb(xml.count)))", ours: ourXMLParse, foundation: theirXMLParse))

        let object = BenchmarkInput.foundationObject(value)
        log("binary write…")
        let ourBinaryWrite = time { _ = BinaryPropertyListWriter().write(value) }
        let theirBinaryWrite = foundation ? time { _ = try? PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0) } : nil
        rows.append(Row(operation: "binary write", ours: ourBinaryWrite, foundation: theirBinaryWrite))

        log("XML write…")
        let ourXMLWrite = time { _ = try? XMLPropertyListWriter().write(value) }
        let theirXMLWrite = foundation ? time { _ = try? PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0) } : nil
        rows.append(Row(operation: "XML write", ours: ourXMLWrite, foundation: theirXMLWrite))

        log("memory…")
        let binaryPeak = MemoryProbe.measure(format: "binary", path: binaryURL.path)
        let xmlPeak = MemoryProbe.measure(format: "xml", path: xmlURL.path)

        var memory: [String] = []
        if let binaryPeak { memory.append("| binary (\(mb(binary.count))) | \(mb(binaryPeak)) | \(String(format: "%.2f", Double(binaryPeak) / Double(binary.count))) |") }
        if let xmlPeak { memory.append("| XML (\(mb(xml.count))) | \(mb(xmlPeak)) | \(String(format: "%.2f", Double(xmlPeak) / Double(xml.count))) |") }
        for i in rows.indices { rows[i].operation += i == 0 ? ", \(values) values" : "" }
        return (rows, memory)
    }

    func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
