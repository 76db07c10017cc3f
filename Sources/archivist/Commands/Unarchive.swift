import ArchivePayload
import ArchiveReports
import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist unarchive FILE --to json|xml|binary`: an archive's root as a Codable payload.
    struct Unarchive: FileCommand {
        static let configuration = CommandConfiguration(commandName: "unarchive",
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

        var binaryOutput: String? { to.format.binaryOutput() }

        func write(_ bytes: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            var unarchiver = ArchiveUnarchiver(payloadOptions: mapping.payloadOptions(target: to == .json ? .json : .propertyList, maximumDepth: reading.maximumDepth),
                                               allowList: noCheck ? nil : allow.allowList, readOptions: reading.archiveReadOptions)
            unarchiver.payloadOptions.breaksCycles = breakCycles
            if let top { unarchiver.readOptions.topKey = top }
            if to == .json, mapping.selectedPath == nil {
                return try writeJSON(of: bytes, with: unarchiver, to: destination)
            }
            let mapped = try unarchived(bytes) { () throws(ArchiveUnarchiver.Failure) in try unarchiver.payload(of: bytes, at: mapping.selectedPath) }
            guard let payload = mapped.value else {
                throw CommandFailure(file: input.displayName, message: "the payload has nothing at \(mapping.selectedPath?.description ?? ".")")
            }
            let data = try to.format.write(payload, json: json, sourceName: file, outputPath: output, file: input.displayName)
            try destination.write(data, endsLineOnTerminal: to == .json)
        }

        /// The JSON payload, written as the archive is walked, without building the payload
        /// first; into a file as it is written, without holding the JSON whole. (An output that
        /// does not open is left to `write`, which says why after the input's errors.)
        func writeJSON(of bytes: Data, with unarchiver: ArchiveUnarchiver, to destination: OutputFile) throws(CommandFailure) {
            guard !destination.isStandardOutput, let sink = try? destination.open() else {
                let json = try unarchived(bytes) { () throws(ArchiveUnarchiver.Failure) in try unarchiver.json(of: bytes, options: self.json.options) }
                return try destination.write(json.value, endsLineOnTerminal: true)
            }
            do throws(CommandFailure) {
                _ = try unarchived(bytes) { () throws(ArchiveUnarchiver.Failure) in try unarchiver.writeJSON(of: bytes, options: self.json.options, to: sink) }
            } catch {
                sink.abandon()
                throw error
            }
            try destination.commit(sink)
        }

        /// What `body` gives from FILE's `bytes`, kept until the process exits (`ProcessLifetime`),
        /// its failure in our words.
        func unarchived<T>(_ bytes: Data, _ body: () throws(ArchiveUnarchiver.Failure) -> ArchiveUnarchiver.Unarchived<T>) throws(CommandFailure) -> ArchiveUnarchiver.Unarchived<T> {
            do {
                let result = try body()
                ProcessLifetime.keep(result)
                return result
            } catch {
                let input = InputFile(path: file)
                switch error {
                case .decoding(let error):
                    throw input.archiveFailure(error, data: bytes, reading)
                case .refused(let report):
                    let refused = report.violationList(showingUIDs: true)
                    let flags = report.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " ")
                    throw CommandFailure(file: input.displayName, message: "refused by the allow-list: \(refused); accept with \(flags), or skip the check with --no-check")
                case .mapping(let error): throw payloadFailure(error, file: input.displayName)
                case .writing(let error): throw to.format.failure(error, file: input.displayName)
                }
            }
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
