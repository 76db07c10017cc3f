import ArchivePayload
import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist unarchive FILE --to json|xml|binary`: an archive's root as a Codable payload.
    struct Unarchive: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn a keyed archive into a payload JSONDecoder or PropertyListDecoder reads.",
            discussion: """
                Runs the allow-list check first and refuses (exit 1) on a violation unless \
                --no-check. Then writes the root object as plain data: collections as arrays and \
                dictionaries, NSURL as its absolute string, NSUUID as its uuidString, UIColor and \
                NSColor as {red, green, blue, alpha}, NSValue geometry as CGPoint/CGSize/CGRect/ \
                NSRange, any other class as an object of its fields. Dates and data follow \
                --date-strategy and --data-strategy in JSON and stay native in plists. A cycle \
                is refused (exit 1) with the path around it.
                """
        )

        @Argument(help: "The archive, or - for standard input.")
        var file: String

        @Option(help: "The payload format.")
        var to: PropertyListOutputFormat

        @Option(name: .shortAndLong, help: "Write here instead of standard output.")
        var output: String?

        @Flag(help: "Skip the allow-list check.")
        var noCheck = false

        @Option(help: ArgumentHelp("The $top key of the root object (default: root).", valueName: "KEY"))
        var top: String?

        @OptionGroup(title: "Payload")
        var mapping: PayloadMappingOptions

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @OptionGroup(title: "JSON output")
        var json: JSONOutputOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let input = InputFile(path: file)
                try to.checkDestination(OutputFile(path: output))
                let bytes = try input.read(limit: reading.maximumInputSize)
                let options = mapping.payloadOptions(target: to == .json ? .json : .propertyList, maximumDepth: reading.maximumDepth)
                if to == .json, mapping.selectedPath == nil, let json = jsonFromObjectTable(bytes, options: options) {
                    return try OutputFile(path: output).write(json, endsLineOnTerminal: true)
                }
                let archive = try input.decodeArchive(bytes, reading, topKey: top)
                if !noCheck {
                    let report = AllowListChecker(allowList: allow.allowList).check(archive)
                    // A typedstream's classes are checked as a keyed archive's are: its archiver
                    // is what `check` refuses, not what a payload of it may hold.
                    guard report.classesAccepted else {
                        let refused = report.violations.map { "\($0.readableClassName) (#\($0.uid)) at \($0.path)" }.joined(separator: ", ")
                        let flags = report.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " ")
                        throw CommandFailure(file: input.displayName, message: "refused by the allow-list: \(refused); accept with \(flags), or skip the check with --no-check")
                    }
                }
                if to == .json, mapping.selectedPath == nil {
                    // Written as the archive is walked, without building the payload first.
                    let data: Data
                    do {
                        data = try PayloadMapper(options: options).json(of: archive, options: json.options)
                    } catch let error as PayloadError {
                        throw payloadFailure(error, file: input.displayName)
                    } catch let error as PropertyListError {
                        throw to.failure(error, file: input.displayName)
                    } catch {
                        throw CommandFailure(file: input.displayName, message: "\(error)")
                    }
                    return try OutputFile(path: output).write(data, endsLineOnTerminal: true)
                }
                var payload: PropertyListValue
                do throws(PayloadError) {
                    payload = try PayloadMapper(options: options).payload(of: archive)
                    ProcessLifetime.keep(payload, as: "payload")
                } catch {
                    throw payloadFailure(error, file: input.displayName)
                }
                if let path = mapping.selectedPath {
                    guard let part = path.value(in: payload) else {
                        throw CommandFailure(file: input.displayName, message: "the payload has nothing at \(path)")
                    }
                    payload = part
                }
                let data = try to.write(payload, json: json, sourceName: file, outputPath: output, file: input.displayName)
                try OutputFile(path: output).write(data, endsLineOnTerminal: to == .json)
            }
        }

        /// The JSON payload written straight from the archive's object table, without decoding its
        /// objects (`PayloadMapper.json(of:options:)` of a `KeyedArchiveObjectTable`), when every
        /// object passes the check and is one the table describes; nil sends the archive the
        /// ordinary way, which also words any refusal or error.
        func jsonFromObjectTable(_ data: Data, options: PayloadOptions) -> Data? {
            var archiveOptions = reading.archiveReadOptions
            if let top { archiveOptions.topKey = top }
            guard let table = KeyedArchiveObjectTable(data: data, options: archiveOptions) else { return nil }
            ProcessLifetime.keep(table)
            if !noCheck, AllowListChecker(allowList: allow.allowList).acceptedReport(table.index) == nil { return nil }
            return PayloadMapper(options: options).json(of: table, options: json.options)
        }

        /// A mapping error worded for `file`. Only this verb (and inspect) can pick another
        /// $top entry; the others' messages name no flag.
        func payloadFailure(_ error: PayloadError, file: String) -> CommandFailure {
            let hint = error.code != .noRoot ? "" : top.map { "; --top \($0) names none of them" } ?? "; choose one with --top"
            return CommandFailure(file: file, message: error.message + hint)
        }
    }
}
