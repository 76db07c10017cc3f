import ArchivePayload
import ArchiveReports
import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist archive FILE --class PATH=CLASS`: a keyed archive built from a payload.
    struct Archive: FileCommand {
        static let configuration = CommandConfiguration(commandName: "archive",
            abstract: "Build a keyed archive from a JSON or plist payload, with the classes you name.",
            discussion: """
                Dictionaries become NSDictionary, arrays NSArray, strings NSString, numbers \
                NSNumber, null NSNull (also "$null" in a plist, as PropertyListEncoder writes \
                nil), unless --class names a class for the value at a path: . is the root, \
                .a.b a key path, .items[] every element and .items[2] one. UIColor and NSColor \
                take {red, green, blue, alpha}; NSURL and NSUUID a string; NSDate seconds since \
                2001; NSData base64; any other class writes an object whose fields are the \
                dictionary's entries, as encode(_:forKey:) does. \
                Example: archivist archive color.json --class .=UIColor -o color.bplist
                """
        )

        @Argument(help: "The payload (JSON or any plist), or - for standard input.")
        var file: String

        @OptionGroup(title: "Classes")
        var classes: ClassAssignmentOptions

        @Option(help: "The archive's format: binary (as NSKeyedArchiver writes) or xml.")
        var to: OutputFormatArgument<ArchiveFormats> = .init(.binary)

        @Option(name: .shortAndLong, help: "Write here instead of standard output.")
        var output: String?

        @OptionGroup(title: "Input format")
        var inputFormat: InputFormatOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        var binaryOutput: String? { to.format.binaryOutput("a binary keyed archive") }

        func write(_ bytes: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            // A payload is JSON by contract (`unarchive --to json | archive -`): JSON first.
            let (payload, format) = try input.readPropertyList(bytes, reading, as: inputFormat.from, preferringJSON: true)
            let data: Data
            do {
                let archiver = PayloadArchiver(classes: classes.classes, nullMarker: PayloadArchiver.nullMarker(for: format),
                                               maximumDepth: reading.maximumDepth)
                data = try KeyedArchiveWriter().write(try archiver.archive(payload), format: to == .binary ? .binary : .xml)
            } catch {
                throw CommandFailure(file: input.displayName, message: "\(error)")
            }
            try destination.write(data)
        }
    }
}
