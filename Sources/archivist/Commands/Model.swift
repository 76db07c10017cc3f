import ArchivePayload
import ArgumentParser
import CoreDataModel
import CoreDataStore
import Foundation
import PropertyList

extension Archivist {
    /// `archivist model PATH [--audit]`: the app's Core Data model, and the insecure-transformer audit.
    struct Model: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "model",
            abstract: "Show an app's Core Data model, and audit its Transformable attributes.",
            discussion: """
                PATH is a Core Data store (its Z_MODELCACHE), a compiled .mom or .momd, a source \\
                .xcdatamodeld or .xcdatamodel (or its contents file). Entities, attributes (with \\
                Xcode's type names, transformer, custom class and column) and relationships are \\
                listed; --format json uses the contents file's vocabulary. A .momd picks the \\
                version whose entity hashes equal --store's NSStoreModelVersionHashes, else its \\
                current version. --audit lists every stored Transformable attribute Core Data warns \\
                about (no transformer, NSKeyedUnarchiveFromData) or refuses (NSSecureUnarchiveFromData \\
                with classes outside its default list), each with the NSSecureUnarchiveFromDataTransformer \\
                subclass and exact allowedTopLevelClasses that fix it, from the classes the store's \\
                rows hold. Exit status: 0; 1 when the model cannot be read or the audit finds anything.
                """
        )

        @Argument(help: "A store, .mom, .momd, .xcdatamodeld, .xcdatamodel or contents file.")
        var path: String

        @Option(help: "Output format: text, or json for machines.")
        var format: OutputFormatArgument<ReportFormats> = .init(.text)

        @Flag(help: "List the Transformable attributes Core Data warns about or refuses, with the transformer that fixes each; exit 1 when any is found.")
        var audit = false

        @Option(help: ArgumentHelp("The store the model belongs to, when PATH is a model file: picks the .momd version by its hashes, and --audit reads its rows.", valueName: "STORE"))
        var store: String?

        @OptionGroup
        var transformers: TransformerOptions

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func run() throws {
            var failed = false
            try reportingFailures { () throws(CommandFailure) in
                let given = try transformers.lists()
                let isStore = ContentKind.sniff(fileAt: path)?.kind == .sqlite
                guard !(isStore && store != nil) else {
                    throw CommandFailure(file: path, message: "is a store already; --store pairs a model file with its store")
                }
                let scanner = StoreScanner(options: ScanOptions(
                    allowList: allow.allowList, readOptions: reading.archiveReadOptions, workerStackSize: reading.workerStackSize, transformers: given))
                let report = try ProgressBar.showing { (bar) throws(ModelReportFailure) in
                    try scanner.modelReport(path: path, isStore: isStore, store: store, audit: audit, progress: bar.updates())
                } failure: { failure($0) }
                failed = report.audit?.hasFindings ?? false
                try ReportJSON.write(format, file: path, text: { report.text(usesColors: Terminal.colorsEnabled()) },
                                     json: { () throws(PropertyListError) in try ReportJSON.data(report.jsonValue) })
            }
            if failed { throw ExitCode(1) }
        }

        /// A model or store that did not read, in our words.
        func failure(_ error: ModelReportFailure) -> CommandFailure {
            switch error {
            case .store(let error, let storePath):
                return CommandFailure(file: storePath, message: Diagnosis.storeFailure(error.description, path: storePath))
            case .noModel(let problem):
                return CommandFailure(file: path, message: problem)
            case .model(let error):
                // Say what the file is when it is no model at all: a JPEG, an empty file…
                if error.source == nil || error.source == path, let (kind, size) = ContentKind.sniff(fileAt: path),
                   let kind, kind != .binaryPropertyList {
                    return CommandFailure(file: path, message: "not a model: \(Diagnosis.describe(kind, size: size))")
                }
                return CommandFailure(file: error.source ?? path, message: error.description)
            }
        }
    }
}
