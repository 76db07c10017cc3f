import ArchivePayload
import ArchiveReports
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
                is refused (exit 1) with the path around it; with --break-cycles an object that \
                refers back to one it is inside is written as {"$ref": "#/json/pointer"} to where \
                that one is written.
                """
        )

        @Argument(help: "The archive, or - for standard input.")
        var file: String

        @Option(help: "The payload format.")
        var to: OutputFormatArgument<DocumentFormats>

        @Option(name: .shortAndLong, help: "Write here instead of standard output.")
        var output: String?

        @Flag(help: "Skip the allow-list check.")
        var noCheck = false

        @Flag(help: ArgumentHelp("Write a reference back to an object the value is inside (a cycle) as {\"$ref\": \"#/json/pointer\"} to where that object is written, instead of refusing the archive."))
        var breakCycles = false

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
                try to.format.checkDestination(OutputFile(path: output))
                let bytes = try input.read(limit: reading.maximumInputSize)
                var options = mapping.payloadOptions(target: to == .json ? .json : .propertyList, maximumDepth: reading.maximumDepth)
                options.breaksCycles = breakCycles
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
                        throw to.format.failure(error, file: input.displayName)
                    } catch {
                        throw CommandFailure(file: input.displayName, message: "\(error)")
                    }
                    return try OutputFile(path: output).write(data, endsLineOnTerminal: true)
                }
                var mapped: PropertyListValue?
                do throws(PayloadError) {
                    // With --select, the part only: references within it point within it.
                    if let path = mapping.selectedPath {
                        mapped = try PayloadMapper(options: options).payload(of: archive, at: path)
                    } else {
                        mapped = try PayloadMapper(options: options).payload(of: archive)
                    }
                } catch {
                    throw payloadFailure(error, file: input.displayName)
                }
                guard let payload = mapped else {
                    throw CommandFailure(file: input.displayName, message: "the payload has nothing at \(mapping.selectedPath?.description ?? ".")")
                }
                ProcessLifetime.keep(payload, as: "payload")
                let data = try to.format.write(payload, json: json, sourceName: file, outputPath: output, file: input.displayName)
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
            var hint = ""
            if error.code == .noRoot {
                hint = top.map { "; --top \($0) names none of them" } ?? "; choose one with --top"
            } else if error.code == .cycle, !breakCycles {
                hint = "; --break-cycles writes it as a {\"$ref\": …} reference instead"
            }
            return CommandFailure(file: file, message: error.message + hint)
        }
    }
}
