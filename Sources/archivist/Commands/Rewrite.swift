import ArchiveReports
import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist rewrite FILE --rename-class OLD=NEW`: a keyed archive with classes renamed,
    /// everything else kept.
    struct Rewrite: FileCommand {
        static let configuration = CommandConfiguration(commandName: "rewrite",
            abstract: "Rename classes in a keyed archive, convert it between binary and XML, or turn an NSArchiver typedstream into a keyed archive.",
            discussion: """
                After a module or target rename, NSKeyedUnarchiver refuses blobs that name the old \
                class ("cannot decode object of class OldApp.Color"). rewrite renames it in the \
                archive's class descriptions ($classname, $classes chains, $classhints) and \
                leaves every object, UID, $top key and shared reference as it was; it works on \
                the raw archive and decodes no object. Each OLD must match a class of the archive. \
                Without --rename-class it only converts (--to binary or xml). The output format \
                is the input's unless --to says otherwise. \
                An NSArchiver typedstream (found by its header) is written as the keyed archive \
                NSKeyedArchiver writes of the same objects, in Foundation's layout, with the keys \
                each class's keyed coder writes: binary with --to keyed (the default) or binary, \
                XML with --to xml; renames apply to it too. \
                Example: archivist rewrite tint.bplist --rename-class OldApp.Color=NewApp.Color -o tint.bplist
                """
        )

        @Argument(help: "The keyed archive, or - for standard input.")
        var file: String

        @OptionGroup(title: "Renames")
        var renaming: ClassRenameOptions

        @Option(help: "The output format: binary, xml, or keyed (a typedstream as a keyed archive; default: the input's format, binary for a typedstream).")
        var to: OutputFormatArgument<RewriteFormats>?

        @Option(name: .shortAndLong, help: "Write here instead of standard output (it may be FILE itself).")
        var output: String?

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func write(_ data: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            let renames = try renaming.parsed(file: input.displayName)
            let renamer = KeyedArchiveClassRenamer(renames: renames, readOptions: reading.readOptions)
            let result: KeyedArchiveClassRenamer.Result
            do throws(KeyedArchiveError) {
                // `keyed`, or none: a keyed archive in the input's format, binary for a typedstream.
                let format: PropertyListFormat? = switch to?.format {
                case .binary?: .binary
                case .xml?: .xml
                default: nil
                }
                result = try renamer.rewrite(data, to: format)
            } catch {
                if data.isEmpty { throw CommandFailure(file: input.displayName, message: "empty input: the file has no bytes") }
                if let kind = Diagnosis.foreignContent(data) {
                    throw CommandFailure(file: input.displayName, message: "not a keyed archive: \(Diagnosis.describe(kind, size: data.count))")
                }
                throw CommandFailure(file: input.displayName, message: error.description)
            }
            if let first = renames.indices.first(where: { !result.report.matched.contains($0) }) {
                let names = result.report.classNames.joined(separator: ", ")
                throw CommandFailure(file: input.displayName, message: "--rename-class \(renames[first]): no class of the archive is \(renames[first].old) (its classes: \(names.isEmpty ? "none" : names))")
            }
            // The format is the input's unless --to says: known only once written.
            if result.data.starts(with: Array("bplist".utf8)) { try destination.refuseBinaryOnTerminal("a binary keyed archive") }
            try destination.write(result.data)
        }
    }
}
