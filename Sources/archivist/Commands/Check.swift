import ArchivePayload
import ArchiveReports
import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist check FILE...`: would NSSecureUnarchiveFromDataTransformer accept these blobs?
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check",
            abstract: "Check keyed archives against a secure-coding allow-list.",
            discussion: """
                Applies NSSecureUnarchiveFromDataTransformer's rules to every object in each \
                archive: a class passes when it, or a superclass in the real Foundation, UIKit \
                and AppKit hierarchy, is allowed. The default list is the transformer's \
                allowedTopLevelClasses (NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, \
                NSData, NSURL, NSUUID, NSNull). For each refused object it prints the class, the \
                path from the root and the object's UID, then the smallest --allow set and the \
                allowedTopLevelClasses override that would accept the blob. Exits 0 when every \
                blob would be accepted, 1 otherwise.
                """
        )

        @Argument(help: "The archives to check; - reads standard input.")
        var files: [String]

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @Option(help: "Output format: text, or json for machines.")
        var format: OutputFormatArgument<ReportFormats> = .init(.text)

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one FILE") }
        }

        func run() throws {
            let checker = AllowListChecker(allowList: allow.allowList)
            let usesColors = Terminal.colorsEnabled()
            var allAccepted = true
            var records: [PropertyListValue] = []
            var text = ""
            for path in files {
                let input = InputFile(path: path)
                do throws(CommandFailure) {
                    let checked = try input.checkArchive(reading, with: checker)
                    if !checked.report.isAccepted { allAccepted = false }
                    // Only the report asked for is rendered.
                    if format == .json {
                        records.append(checked.jsonValue(file: input.displayName))
                    } else {
                        // A typedstream's suggested commands name standard input as -.
                        let argument = input.displayName == InputFile(path: "-").displayName ? "-" : input.displayName
                        text += checked.text(file: input.displayName, argument: argument, usesColors: usesColors)
                    }
                } catch {
                    allAccepted = false
                    var error = error
                    if error.message == "no such file", !allow.only.isEmpty || !allow.allowed.isEmpty {
                        error.message += " (--only and --allow take one class each time, or several separated by commas: --only A,B)"
                    }
                    error.report()
                    records.append(ArchiveCheck.jsonValue(file: input.displayName, failure: error.message))
                }
            }
            try reportingFailures { () throws(CommandFailure) in
                if format == .json {
                    try OutputFile(path: nil).write(try ReportJSON.data(.array(records), file: "the report"))
                } else {
                    try OutputFile(path: nil).write(text)
                }
            }
            if !allAccepted { throw ExitCode(1) }
        }
    }
}
