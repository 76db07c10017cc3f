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
        static let configuration = CommandConfiguration(
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

        /// `SwiftCodeGenerator.NumberTypes`, as an argument.
        enum NumberTypes: String, ExpressibleByArgument, CaseIterable {
            case natural, smallest

            var library: SwiftCodeGenerator.NumberTypes { self == .natural ? .natural : .smallest }
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
        var numberTypes: NumberTypes = .natural

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
            if attribute == nil, model.modelPath != nil || model.noModel || !model.transformers.isEmpty || model.transformersFile != nil {
                throw ValidationError("--model, --no-model, --transformer and --transformers go with a store's --attribute")
            }
            if let typeName, !SwiftCodeGenerator.isValidTypeName(typeName) {
                throw ValidationError("--type-name must be a Swift identifier that is not a keyword nor a type the file uses (Data, Date, String…): \"\(typeName)\"")
            }
        }

        var encoding: PayloadEncoding {
            let dates: JSONWriteOptions.DateEncodingStrategy = switch dateStrategy {
            case .deferredToDate: .deferredToDate
            case .secondsSince1970: .secondsSince1970
            case .millisecondsSince1970: .millisecondsSince1970
            case .iso8601: .iso8601
            }
            return PayloadEncoding(format: to == .json ? .json : .propertyList, dateStrategy: dates,
                                   dataStrategy: dataStrategy == .base64 ? .base64 : .deferredToData)
        }

        var extractor: StoredPayloadExtractor {
            StoredPayloadExtractor(payloadOptions: mapping.payloadOptions(target: to == .json ? .json : .propertyList, maximumDepth: reading.maximumDepth),
                                   select: mapping.selectedPath, readOptions: reading.readOptions)
        }

        /// What was read: the shape so far, the classes the archives need, and what was left out.
        struct Collected {
            var inferrer: PayloadShapeInferrer
            /// The classes beyond the secure defaults, which the transformer adds to them.
            var classes = RequiredClasses(beyond: .transformerDefault)
            var archives = 0
            var payloads: [StoredValueKind: Int] = [:]
            var nulls = 0
            /// Values left out, by kind, with the first key that showed it and why.
            var leftOut: [StoredValueKind: (count: Int, first: String, reason: String)] = [:]

            /// The first value too deep to type, and why.
            var failure: (place: String, error: CodegenError)?

            mutating func add(_ outcome: StoredPayloadExtractor.Outcome, at place: String) {
                do throws(CodegenError) {
                    switch outcome {
                    case .archive(let payload, _), .payload(let payload, _): try inferrer.add(payload)
                    case .null, .unusable: break
                    }
                } catch {
                    if failure == nil { failure = (place, error) }
                    return
                }
                switch outcome {
                case .archive(_, let archive):
                    classes.add(archive)
                    archives += 1
                case .payload(_, let kind):
                    payloads[kind, default: 0] += 1
                case .null:
                    nulls += 1
                case .unusable(let kind, let reason):
                    leftOut[kind, default: (0, place, reason)].count += 1
                }
            }

            /// Puts the key column's name before the row keys the places were given as.
            mutating func nameRows(by keyColumn: String) {
                if let failure { self.failure = ("\(keyColumn) \(failure.place)", failure.error) }
                leftOut = leftOut.mapValues { ($0.count, "\(keyColumn) \($0.first)", $0.reason) }
            }

            /// `900 values: 890 keyed archives, 10 JSON; 100 NULL`.
            var summary: String {
                var parts: [String] = []
                if archives > 0 { parts.append("\(archives) keyed archive\(archives == 1 ? "" : "s")") }
                for (kind, count) in payloads.sorted(by: { $0.key < $1.key }) {
                    parts.append("\(count) \(kind.label)\(kind == .propertyList && count != 1 ? "s" : "")")
                }
                var text = "\(inferrer.valueCount) value\(inferrer.valueCount == 1 ? "" : "s")"
                if !parts.isEmpty { text += " (" + parts.joined(separator: ", ") + ")" }
                if nulls > 0 { text += ", \(nulls) NULL" }
                let left = leftOut.values.reduce(0) { $0 + $1.count }
                if left > 0 { text += ", \(left) left out" }
                return text
            }
        }

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                var collected = Collected(inferrer: PayloadShapeInferrer(encoding: encoding))
                var name: String
                var header: [String]
                var modelAttribute: AttributeDescription?
                var attributeName: String?
                var given = TransformerAllowLists()
                if let attribute {
                    let store = inputs[0]
                    given = try model.transformerLists()
                    let reader = AttributeValueReader(readOptions: reading.archiveReadOptions, model: model.choice,
                                                      workerStackSize: reading.workerStackSize)
                    let extractor = self.extractor
                    let location: AttributeLocation
                    do throws(StoreError) {
                        location = try reader.read(path: store, attribute: attribute) { key, value in
                            collected.add(extractor.extract(value), at: String(key))
                        }
                    } catch {
                        throw CommandFailure(file: store, message: Diagnosis.storeFailure(error.description, path: store))
                    }
                    // Rows are named by the table's own key: Z_PK 2 in a Core Data store, id 2 in a plain table.
                    let table = location.table
                    collected.nameRows(by: table.hasRowID || table.keyColumn != "rowid" ? table.keyColumn : "row")
                    modelAttribute = location.attribute
                    attributeName = location.attributeName
                    name = typeName ?? Self.defaultTypeName(attribute: attribute, location: location)
                    header = ["Generated by `archivist codegen` from \(Self.source(attribute: attribute, location: location)) in \(URL(fileURLWithPath: store).lastPathComponent):"]
                    if let described = location.attribute { header.append("In the model: \(Self.modelLine(described)).") }
                    if let failure = collected.failure {
                        throw CommandFailure(file: store, message: "\(failure.error.message) at \(failure.place)")
                    }
                    reportLeftOut(collected, file: store)
                    guard collected.inferrer.valueCount > 0 else {
                        throw CommandFailure(file: store, message: "\(location.attributeName ?? attribute) holds no value to infer a type from (\(collected.summary))")
                    }
                } else {
                    let classifier = StoredValueClassifier(readOptions: reading.archiveReadOptions)
                    let extractor = self.extractor
                    for path in inputs {
                        let input = InputFile(path: path)
                        let data = try input.read(limit: reading.maximumInputSize)
                        let outcome = extractor.extract(classifier.classify(data))
                        switch outcome {
                        case .unusable(_, let reason): throw CommandFailure(file: input.displayName, message: Self.diagnose(reason, data: data))
                        case .null: break
                        default: collected.add(outcome, at: input.displayName)
                        }
                        if let failure = collected.failure {
                            throw CommandFailure(file: failure.place, message: failure.error.message)
                        }
                    }
                    name = typeName ?? "Payload"
                    header = ["Generated by `archivist codegen` from \(inputs.count == 1 ? InputFile(path: inputs[0]).displayName : "\(inputs.count) files"):"]
                }
                header.append("\(collected.summary).")
                var generator = SwiftCodeGenerator(typeName: name, numberTypes: numberTypes.library, encoding: encoding)
                if !noTransformer, collected.archives > 0 {
                    func plan() -> TransitionTransformer {
                        TransitionTransformer(attribute: modelAttribute, attributeName: attributeName, className: name + "Transformer",
                                              needed: collected.classes.classes, given: given)
                    }
                    var transformer = plan()
                    if case .subclass(_, _, let added, _) = transformer, added.map(TransformerFix.swiftTypeName).contains(name) {
                        // The app keeps the archived class for the transformer: the new type needs another name.
                        guard typeName == nil else {
                            throw CommandFailure(file: InputFile(path: inputs[0]).displayName, message: "--type-name \(name) is the name of an archived class the transformer still allows; choose another name, or leave the transformer out with --no-transformer")
                        }
                        name += "Payload"
                        generator.typeName = name
                        transformer = plan()
                    }
                    switch transformer {
                    case .subclass(let className, let registeredName, let added, let note):
                        generator.transformer = .init(className: className, registeredName: registeredName, classes: added, documentation: [note])
                    case .secureDefaultsSuffice, .notTransformable:
                        if let note = transformer.note { header.append(note) }
                    }
                }
                generator.header = header
                let code = generator.source(for: collected.inferrer.shape)
                try OutputFile(path: output).write(Data(code.utf8))
            }
        }

        /// `Group.darkColor (ZGROUP.ZDARKCOLOR)` as the model names it; without a model, the
        /// attribute as the user spelled it.
        static func source(attribute: String, location: AttributeLocation) -> String {
            let typedColumn = attribute.caseInsensitiveCompare("\(location.table.name).\(location.column.name)") == .orderedSame
            return location.attributeName != nil || typedColumn ? location.description : "\(attribute) (\(location.table.name).\(location.column.name))"
        }

        /// `Transformable, transformer UIColorValueTransformer, custom class UIColor`.
        static func modelLine(_ attribute: AttributeDescription) -> String {
            var line = attribute.attributeType.xcodeName
            if attribute.attributeType == .transformable {
                line += ", transformer \(attribute.valueTransformerName ?? "none (Core Data's insecure NSKeyedUnarchiveFromData)")"
            }
            if let custom = attribute.customClassName { line += ", custom class \(custom)" }
            return line
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

        /// One line on standard error per reason values were left out.
        func reportLeftOut(_ collected: Collected, file: String) {
            for (_, entry) in collected.leftOut.sorted(by: { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }) {
                let line = "archivist: \(file): \(entry.count) value\(entry.count == 1 ? " is" : "s are") left out, such as \(entry.first): \(entry.reason)\n"
                StandardError.write(line)
            }
        }

        /// `Group.darkColor` → `GroupDarkColor`: the entity and the attribute as the model names
        /// them; without a model, the entity as the store names it and the attribute as the user
        /// spelled it (`ZBOWTIE.ZTINTCOLOR` → `BowTieTintcolor`, all a store without its model
        /// can tell).
        static func defaultTypeName(attribute: String, location: AttributeLocation) -> String {
            let typed = attribute.split(separator: ".", maxSplits: 1).map(String.init)
            var parts: [String]
            if let modelName = location.attributeName {
                parts = modelName.split(separator: ".", maxSplits: 1).map(String.init)
            } else if let entity = location.entity {
                let attributePart = typed.count == 2 && typed[1].caseInsensitiveCompare(location.column.name) != .orderedSame
                    ? typed[1] : StoreSchema.attributeName(ofColumn: location.column.name)
                parts = [entity.name, attributePart]
            } else {
                parts = typed
            }
            let name = parts.map { part -> String in
                let words = part.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            }.joined()
            guard let first = name.unicodeScalars.first, first.properties.isAlphabetic,
                  SwiftCodeGenerator.isValidTypeName(name) else { return "Payload" }
            return name
        }
    }
}
