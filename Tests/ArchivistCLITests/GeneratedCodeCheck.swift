import Foundation

/// Compiles files written by `archivist codegen` with `swiftc`, together with a small program
/// that decodes payloads into each generated type, and runs that program: one compiler run for
/// many types, since each costs seconds.
struct GeneratedCodeCheck {
    /// How the program decodes one type's payloads.
    enum Decoder {
        case json(dateStrategy: String? = nil, dataStrategy: String? = nil)
        case propertyList
    }

    struct Entry {
        var typeName: String
        var payloads: [Data]
        var decoder: Decoder
    }

    /// `swiftc` from the PATH or the toolchain's usual place; nil when there is none.
    static let swiftc: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swiftc" } + ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    let directory: URL
    var sources: [URL] = []
    var entries: [Entry] = []
    /// Statements appended to the program; what they print on lines starting `NOTE ` is
    /// returned in `Outcome.notes`.
    var statements: [String] = []

    init(name: String) throws {
        directory = URL(fileURLWithPath: ArchivistProcess.temporaryFile(name))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The transformer section of a generated file, made to compile on Linux against
    /// `transformerStandIns`: its `#if canImport(CoreData)`, imports and `@objc` name removed.
    mutating func addTransformer(from source: String, name: String) throws {
        guard let start = source.range(of: "#if canImport(CoreData)\n") else { throw CheckError.compilation("no transformer in \(name)") }
        var section = String(source[start.upperBound...])
        for framework in ["import CoreData\n", "#if canImport(UIKit)\nimport UIKit\n#elseif canImport(AppKit)\nimport AppKit\n#endif\n"] {
            section = section.replacingOccurrences(of: framework, with: "")
        }
        section = section.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("@objc(") && $0 != "#endif" }.joined(separator: "\n")
        let url = directory.appendingPathComponent(name + "Transformer.swift")
        try Data(("import Foundation\n" + section).utf8).write(to: url)
        sources.append(url)
        if !sources.contains(where: { $0.lastPathComponent == "TransformerStandIns.swift" }) {
            let standIns = directory.appendingPathComponent("TransformerStandIns.swift")
            try Data(Self.transformerStandIns.utf8).write(to: standIns)
            sources.append(standIns)
        }
    }

    /// Stand-ins for the Darwin-only API the transformer uses (Core Data, Foundation's
    /// ValueTransformer, UIKit) and for the apps' archived classes, declared as Apple's SDK
    /// declares them.
    static let transformerStandIns = """
        import Foundation

        struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
            var rawValue: String
            init(rawValue: String) { self.rawValue = rawValue }
        }

        class ValueTransformer: NSObject {
            nonisolated(unsafe) static var registered: [String: ValueTransformer] = [:]
            class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
                registered[name.rawValue] = transformer
            }
        }

        class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
            class var allowedTopLevelClasses: [AnyClass] {
                [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]
            }
        }

        class UIColor: NSObject {}
        class UserDetails: NSObject {}
        class ConfigurationBox: NSObject {}
        class SerializableColor: NSObject {}

        """

    /// Deletes the check's folder.
    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A path in the check's folder for a generated file (`-o`); compiled with the rest.
    mutating func sourcePath(_ name: String) -> String {
        let url = directory.appendingPathComponent(name + ".swift")
        sources.append(url)
        return url.path
    }

    mutating func expect(_ typeName: String, decodes payloads: [Data], with decoder: Decoder = .json()) {
        entries.append(Entry(typeName: typeName, payloads: payloads, decoder: decoder))
    }

    /// What the program reported: for each type, how many payloads decoded, and every failure.
    struct Outcome {
        var compilerOutput: String
        var decoded: [String: Int] = [:]
        var notes: [String] = []
        var failures: [String] = []
    }

    /// Compiles everything (Swift 6 language mode) and runs the program.
    func run() throws -> Outcome {
        guard let swiftc = Self.swiftc else { throw CheckError.noCompiler }
        var main = """
            import Foundation

            func decodeAll<T: Decodable>(_ name: String, _ file: String, _ decode: (Data) throws -> T) {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    print("FAIL \\(name): cannot read \\(file)")
                    return
                }
                var count = 0
                for (index, line) in text.split(separator: "\\n").enumerated() {
                    guard let data = Data(base64Encoded: String(line)) else {
                        print("FAIL \\(name) value \\(index): not base64")
                        continue
                    }
                    do {
                        _ = try decode(data)
                        count += 1
                    } catch {
                        print("FAIL \\(name) value \\(index): \\(error)")
                    }
                }
                print("DECODED \\(name) \\(count)")
            }

            """
        for entry in entries {
            let file = directory.appendingPathComponent(entry.typeName + ".payloads")
            try Data(entry.payloads.map { $0.base64EncodedString() + "\n" }.joined().utf8).write(to: file)
            main += "decodeAll(\"\(entry.typeName)\", \"\(file.path)\") { data in\n"
            switch entry.decoder {
            case .json(let dates, let data):
                main += "    let decoder = JSONDecoder()\n"
                if let dates { main += "    decoder.dateDecodingStrategy = .\(dates)\n" }
                if let data { main += "    decoder.dataDecodingStrategy = .\(data)\n" }
                main += "    return try decoder.decode(\(entry.typeName).self, from: data)\n"
            case .propertyList:
                main += "    return try PropertyListDecoder().decode(\(entry.typeName).self, from: data)\n"
            }
            main += "}\n"
        }
        main += statements.map { $0 + "\n" }.joined()
        let mainFile = directory.appendingPathComponent("main.swift")
        try Data(main.utf8).write(to: mainFile)
        let executable = directory.appendingPathComponent("decode-check").path
        let compile = try Self.runProcess(swiftc, ["-swift-version", "6", "-module-name", "GeneratedCodeCheck",
                                                   "-o", executable, mainFile.path] + sources.map(\.path))
        var outcome = Outcome(compilerOutput: compile.output)
        guard compile.status == 0 else { throw CheckError.compilation(compile.output) }
        let run = try Self.runProcess(executable, [])
        for line in run.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.first == "DECODED", parts.count == 3 {
                outcome.decoded[String(parts[1])] = Int(parts[2])
            } else if parts.first == "NOTE" {
                outcome.notes.append(parts.dropFirst().joined(separator: " "))
            } else {
                outcome.failures.append(String(line))
            }
        }
        if run.status != 0 { outcome.failures.append("the program exited with \(run.status)") }
        return outcome
    }

    enum CheckError: Error, CustomStringConvertible {
        case noCompiler
        case compilation(String)

        var description: String {
            switch self {
            case .noCompiler: "no swiftc"
            case .compilation(let output): "swiftc failed:\n\(output)"
            }
        }
    }

    static func runProcess(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
