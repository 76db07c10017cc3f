import ArchiveReports
import ArgumentParser
import Foundation
import PropertyList

extension Archivist {
    /// `archivist convert FILE --to xml|binary|json`: rewrites a property list in another format.
    struct Convert: FileCommand {
        static let configuration = CommandConfiguration(commandName: "convert",
            abstract: "Convert a property list to XML, binary, JSON, or a Swift or Objective-C literal.",
            discussion: """
                The input format (binary, XML, OpenStep, JSON) is detected from the content. \
                XML output is byte-for-byte what Apple's Foundation writes. JSON output decodes \
                with JSONDecoder: data as base64, dates as seconds since 2001 unless \
                --date-strategy says otherwise. swift and objc write the value as a literal, as \
                plutil -convert swift|objc does, named after the input file.
                """
        )

        @Argument(help: "The property list to convert, or - for standard input.")
        var file: String

        @Option(help: "The output format.")
        var to: OutputFormatArgument<DocumentFormats>

        @Option(name: .shortAndLong, help: "Write here instead of standard output (- is standard output).")
        var output: String?

        @OptionGroup(title: "JSON output")
        var json: JSONOutputOptions

        @OptionGroup(title: "Input format")
        var inputFormat: InputFormatOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        var binaryOutput: String? { to.format.binaryOutput() }

        func write(_ bytes: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            // Binary to XML or binary is written as it is read, without a tree; anything that
            // way does not take (an error included) is read and written below, which says why.
            if try to.format.transcode(bytes, from: inputFormat.from, options: reading.readOptions,
                                       workerStackSize: reading.workerStackSize, to: destination) { return }
            let (value, _) = try input.readPropertyList(bytes, reading, as: inputFormat.from)
            let data = try to.format.write(value, json: json, sourceName: file, outputPath: output, file: input.displayName)
            try destination.write(data, endsLineOnTerminal: to == .json)
        }
    }
}
