import ArgumentParser
import Bookmark
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist diff A B`: what changed between two property lists or two keyed archives.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "diff",
            abstract: "Show the differences between two property lists or keyed archives.",
            discussion: """
                Each difference is a line: + added, - removed, ~ changed (with the old and new \
                value, and "(type changed)" when the types differ: the integer 1 and the float 1.0 \
                are not equal). Plists are compared by keypath (dictionaries by key, arrays by \
                index); when both files are keyed archives their object graphs are compared from \
                $top by structure and meaning, not by UID numbering, with paths such as \
                root.items[3].tintColor.red. Exit status follows diff(1), unlike the other verbs: \
                0 when the documents are the same, 1 when they differ, 2 when one cannot be read.
                """
        )

        @Argument(help: "The old document, or - for standard input.")
        var old: String

        @Argument(help: "The new document, or - for standard input.")
        var new: String

        @Option(help: "Output format: text, or json for one document listing the differences.")
        var format: OutputFormatArgument<ReportFormats> = .init(.text)

        @Flag(help: "Compare arrays as multisets of their elements (sets of scalars), not by index.")
        var arrayAsSet = false

        @Flag(help: "Compare keyed archives as the plain property lists they are ($objects by index).")
        var plist = false

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func validate() throws {
            if old == "-" && new == "-" { throw ValidationError("only one of the two documents can be standard input") }
        }

        func run() throws {
            let report: PropertyListDiffReport
            do throws(CommandFailure) {
                let (a, b) = (try document(old), try document(new))
                do throws(KeyedArchiveDiff.SideFailure) {
                    report = try KeyedArchiveDiff(arraysAsSets: arrayAsSet).report(from: a, to: b, plainPropertyLists: plist, readOptions: reading.archiveReadOptions)
                } catch {
                    throw CommandFailure(file: InputFile(path: error.isOld ? old : new).displayName,
                                         message: "cannot read the keyed archive: \(error.error.description); compare the plain property lists with --plist")
                }
                try ReportJSON.write(format, file: new, text: { report.text(usesColors: Terminal.colorsEnabled()) },
                                     json: { () throws(PropertyListError) in try report.json() })
            } catch {
                error.report()
                throw ExitCode(2)
            }
            if !report.isEqual { throw ExitCode(1) }
        }

        /// One side: a property list (maybe a keyed archive), an NSArchiver typedstream or a
        /// compiled nib read as an archive, or bookmark data read as the plist of its fields.
        func document(_ path: String) throws(CommandFailure) -> ComparedDocument {
            let input = InputFile(path: path)
            let data = try input.read(limit: reading.maximumInputSize)
            let kind = ContentKind.sniff(data)
            if kind == .bookmark {
                // Bookmark data on its own: compared as the plist of its fields.
                do {
                    return .propertyList(BookmarkPropertyList.value(of: try Bookmark(data: data)))
                } catch {
                    throw CommandFailure(file: input.displayName, message: "cannot read the bookmark data: \(error.description)")
                }
            }
            if kind == .typedStream || kind == .nibArchive { return .archive(try input.decodeArchive(data, reading, topKey: nil)) }
            return .propertyList(try input.readPropertyList(data, reading).value)
        }
    }
}
