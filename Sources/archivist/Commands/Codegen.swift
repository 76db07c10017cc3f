import ArchivePayload
import ArgumentParser
import Codegen
import CoreDataModel
import CoreDataStore
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist codegen STORE --attribute Entity.attribute` (or `codegen FILE…`): the Swift
    /// that decodes every value of an attribute once migrated, and reads the old archives.
    struct Codegen: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "codegen",
            abstract: "Write the Codable types that decode an attribute's values, and the transformer that reads its old archives.",
            discussion: """
                Reads every value of the attribute (the store is opened read-only), maps each \
                keyed archive as `migrate` would (same --to, --select, --expand-nested, \
                --date-strategy and --data-strategy), reads values already migrated to JSON or \
                property lists as they are, and infers one type that decodes them all: fields \
                missing from some values are optional, numbers widen, objects keyed by UUIDs, \
                bundle identifiers or numbers are dictionaries, colors are {red, green, blue, \
                alpha}, values of several kinds are an enum. Writes that type (named by \
                --type-name), and, inside #if canImport(CoreData), the \
                NSSecureUnarchiveFromDataTransformer subclass that adds the classes the \
                archives hold to its defaults, with its name and registration. Without --attribute, each \
                FILE is one value (an archive, a JSON or property-list payload). Values that \
                hold nothing to decode (images, damaged archives, external files) are left out \
                and counted on standard error. With the store's model (or --model), \
                Entity.attribute is the model's name, the type is named after it, and the \
                transformer follows the model: registered under the name of an app-defined \
                transformer (whose classes --transformer adds), or a new name to set in the \
                model; none when NSSecureUnarchiveFromData's defaults accept every archive or \
                the attribute is not Transformable. Exit status: 0 when code was written; 1 when \
                the attribute holds no value to decode, a FILE holds none, or a value nests \
                deeper than a type can (64 levels).
                """
        )

        /// The formats `migrate --to` writes, and so the decoder the generated type is for.
        enum Target: String, ExpressibleByArgument, CaseIterable {
            case json, plist, xml
        }

        @Argument(help: ArgumentHelp("A Core Data store with --attribute; otherwise archives or payloads, one value each (- for standard input).", valueName: "STORE | FILE"))
        var inputs: [String]

        @Option(help: ArgumentHelp("The attribute whose values to read: Entity.attribute (any case), or table.column.", valueName: "Entity.attribute"))
        var attribute: String?

        @Option(help: ArgumentHelp("The type of one whole value (default: the entity and attribute, BowTieTintColor; Payload for files).", valueName: "NAME"))
        var typeName: String?

        @Option(name: .shortAndLong, help: "Write here instead of standard output.")
        var output: String?

        @Option(help: "The format the values are (or will be) migrated to, and so the decoder: json (JSONDecoder), plist or xml (PropertyListDecoder).")
        var to: Target = .json

        @Option(help: "How the JSON payloads spell dates, as in migrate: deferredToDate, secondsSince1970, millisecondsSince1970 or iso8601.")
        var dateStrategy: JSONOutputOptions.DateStrategy = .deferredToDate

        @Option(help: "How the JSON payloads spell data, as in migrate: base64 or deferredToData.")
        var dataStrategy: JSONOutputOptions.DataStrategy = .base64

        @Option(help: "natural: Int and Double; smallest: the narrowest type holding every value seen (Int8…Int64, UInt64, Float, Double).")
        var numberTypes: SwiftCodeGenerator.NumberTypes = .natural

        @Flag(help: "Leave out the transformer subclass.")
        var noTransformer = false

        @OptionGroup(title: "Payload")
        var mapping: PayloadMappingOptions

        @OptionGroup(title: "Model")
        var model: ModelOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func validate() throws {
            if inputs.isEmpty { throw ValidationError("give a store with --attribute, or one or more files") }
            if attribute != nil, inputs.count != 1 { throw ValidationError("--attribute reads one store; give exactly one") }
            if attribute == nil, model.isUsed {
                throw ValidationError("--model, --no-model, --transformer and --transformers go with a store's --attribute")
            }
            if let typeName, !SwiftCodeGenerator.isValidTypeName(typeName) {
                throw ValidationError("--type-name must be a Swift identifier that is not a keyword nor a type the file uses (Data, Date, String…): \"\(typeName)\"")
            }
        }

        var encoding: PayloadEncoding {
            PayloadEncoding(format: to == .json ? .json : .propertyList, dateStrategy: dateStrategy.library, dataStrategy: dataStrategy.library)
        }

        var extractor: StoredPayloadExtractor {
            StoredPayloadExtractor(payloadOptions: mapping.payloadOptions(target: to == .json ? .json : .propertyList, maximumDepth: reading.maximumDepth),
                                   select: mapping.selectedPath, readOptions: reading.readOptions)
        }

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                var generation = PayloadCodegen(typeName: typeName, numberTypes: numberTypes, encoding: encoding, writesTransformer: !noTransformer)
                let code: String
                if let attribute {
                    let store = inputs[0]
                    generation.transformers = try model.transformerLists()
                    let reader = AttributeValueReader(readOptions: reading.archiveReadOptions, model: model.choice,
                                                      workerStackSize: reading.workerStackSize)
                    let collected: PayloadCollection
                    let location: AttributeLocation
                    do throws(StoreError) {
                        (collected, location) = try reader.collectPayloads(path: store, attribute: attribute, extractor: extractor, encoding: encoding)
                    } catch {
                        throw CommandFailure(file: store, message: Diagnosis.storeFailure(error.description, path: store))
                    }
                    if let failure = collected.failure {
                        throw CommandFailure(file: store, message: "\(failure.error.message) at \(failure.place)")
                    }
                    for sentence in collected.leftOutSentences { StandardError.write("archivist: \(store): \(sentence)\n") }
                    guard collected.inferrer.valueCount > 0 else {
                        throw CommandFailure(file: store, message: "\(location.attributeName ?? attribute) holds no value to infer a type from (\(collected.summary))")
                    }
                    code = try generated { () throws(CodegenError) in
                        try generation.source(for: collected, attribute: attribute, location: location, storeName: store)
                    }
                } else {
                    var collected = PayloadCollection(encoding: encoding)
                    let classifier = StoredValueClassifier(readOptions: reading.archiveReadOptions)
                    let extractor = self.extractor
                    for path in inputs {
                        let input = InputFile(path: path)
                        let data = try input.read(limit: reading.maximumInputSize)
                        if let reason = collected.add(file: data, at: input.displayName, classifier: classifier, extractor: extractor) {
                            throw CommandFailure(file: input.displayName, message: Self.diagnose(reason, data: data))
                        }
                        if let failure = collected.failure {
                            throw CommandFailure(file: failure.place, message: failure.error.message)
                        }
                    }
                    code = try generated { () throws(CodegenError) in
                        try generation.source(for: collected, files: inputs.map { InputFile(path: $0).displayName })
                    }
                }
                try OutputFile(path: output).write(Data(code.utf8))
            }
        }

        /// The generated file, or the failure of a --type-name the transformer's classes take.
        func generated(_ source: () throws(CodegenError) -> String) throws(CommandFailure) -> String {
            do {
                return try source()
            } catch {
                // A name taken: the app keeps the archived class for the transformer, so the type needs another name.
                throw CommandFailure(file: InputFile(path: inputs[0]).displayName, message: error.code != .typeNameTaken ? error.message
                    : "--type-name \(typeName ?? "") is the name of an archived class the transformer still allows; choose another name, or leave the transformer out with --no-transformer")
            }
        }

        /// A FILE that holds nothing to decode, named by the sniffer: an empty file, a JPEG, a
        /// store given without `--attribute`.
        static func diagnose(_ reason: String, data: Data) -> String {
            if data.isEmpty { return "empty input: the file has no bytes" }
            guard let kind = Diagnosis.foreignContent(data) else { return reason }
            if kind == .sqlite {
                return "not a keyed archive, JSON or property list: \(kind), \(CountText.counted(data.count, "byte")); name the attribute to read with --attribute Entity.attribute (`archivist scan` lists them)"
            }
            return "not a keyed archive, JSON or property list: \(Diagnosis.describe(kind, size: data.count))"
        }
    }
}

extension SwiftCodeGenerator.NumberTypes: ExpressibleByArgument {}
