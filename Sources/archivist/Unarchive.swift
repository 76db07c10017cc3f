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

        enum Target: String, ExpressibleByArgument, CaseIterable {
            case json, xml, binary
        }

        @Argument(help: "The archive, or - for standard input.")
        var file: String

        @Option(help: "The payload format.")
        var to: Target

        @Option(name: .shortAndLong, help: "Write here instead of standard output.")
        var output: String?

        @Flag(help: "Skip the allow-list check.")
        var noCheck = false

        @Flag(help: "Add \"$class\" with the class name to objects of classes without a native mapping.")
        var keepClass = false

        @Flag(help: "Decode JSON, plists and archives held in NSData in place (a Codable struct boxed in an archive).")
        var expandNested = false

        @Option(help: ArgumentHelp("Write only the part of the payload at this path, such as .unbox for the struct inside a box class.", valueName: "PATH"))
        var select: String?

        @Option(help: ArgumentHelp("The $top key of the root object (default: root).", valueName: "KEY"))
        var top: String?

        @Option(name: .customLong("max-payload-values"), help: "Most values a payload may hold; an object the archive shares counts at every place it appears.")
        var maximumPayloadValues: Int = PayloadOptions().maximumValueCount

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @OptionGroup(title: "JSON output")
        var json: JSONOutputOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func validate() throws {
            if maximumPayloadValues < 1 { throw ValidationError("--max-payload-values must be at least 1") }
        }

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let input = InputFile(path: file)
                let archive = try input.readArchive(reading, topKey: top)
                if !noCheck {
                    let report = AllowListChecker(allowList: allow.allowList).check(archive)
                    guard report.isAccepted else {
                        let refused = report.violations.map { "\($0.readableClassName) (#\($0.uid)) at \($0.path)" }.joined(separator: ", ")
                        let flags = report.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " ")
                        throw CommandFailure(file: input.displayName, message: "refused by the allow-list: \(refused); accept with \(flags), or skip the check with --no-check")
                    }
                }
                let options = PayloadOptions(keepsClassNames: keepClass, expandsNestedPayloads: expandNested,
                                             target: to == .json ? .json : .propertyList, maximumDepth: reading.maximumDepth,
                                             maximumValueCount: maximumPayloadValues)
                var payload: PropertyListValue
                do throws(PayloadError) {
                    payload = try PayloadMapper(options: options).payload(of: archive)
                } catch {
                    throw CommandFailure(file: input.displayName, message: error.message)
                }
                if let select {
                    let path = PayloadPath(select)
                    guard let part = path.value(in: payload) else {
                        throw CommandFailure(file: input.displayName, message: "the payload has nothing at \(path)")
                    }
                    payload = part
                }
                let data: Data
                do throws(PropertyListError) {
                    switch to {
                    case .json: data = try json.writer.write(payload)
                    case .xml: data = try XMLPropertyListWriter().write(payload)
                    case .binary: data = BinaryPropertyListWriter().write(payload)
                    }
                } catch {
                    throw CommandFailure(file: input.displayName, message: "cannot write \(to.rawValue): \(error.description)")
                }
                try OutputFile(path: output).write(data)
            }
        }
    }
}
