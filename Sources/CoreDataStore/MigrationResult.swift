import CoreDataModel
import PropertyList

/// What a migration did (or, for a dry run, would do).
public struct MigrationResult: Sendable {
    public var path: String
    public var location: AttributeLocation
    public var target: MigrationOptions.Target
    public var dryRun: Bool
    /// The backup made before the first write, if any.
    public var backupPath: String?
    /// Rows in scope.
    public var total = 0
    /// Rows rewritten (for a dry run: that would be).
    public var converted = 0
    public var skipped: [MigrationSkipReason: Int] = [:]
    public var failedByReason: [MigrationFailureReason: Int] = [:]
    /// The first `maximumListedFailures` failed rows, in key order.
    public var failures: [MigrationFailure] = []
    /// The first rows another process changed while the migration ran, left as it wrote them.
    public var changedKeys: [Int64] = []
    /// Classes to allow so that the refused rows convert, most needed first.
    public var suggestedAdditions: [String] = []
    /// How many refused rows each suggested class would accept.
    var suggestionCounts: [String: Int] = [:]
    /// Transactions committed.
    public var batches = 0
    public var elapsed: Double = 0
    /// Who judged the archives, and by which list.
    public var judgement = TransformerJudgement(basis: .noModel, allowList: .transformerDefault)
    /// The model the attribute was named by.
    public var model: ModelChoice = .storeCache
    /// How the JSON payloads spell dates and data.
    public var jsonOptions = JSONWriteOptions()

    /// The change the app's model needs once every value is converted: the attribute becomes
    /// Binary Data and loses its transformer. Nil without a model, for a dry run, while rows
    /// failed, for `--to archive`, or when the attribute is not Transformable.
    public var modelChange: ModelChange? {
        guard !dryRun, !hasFailures, let attribute = location.attribute, attribute.attributeType == .transformable else { return nil }
        if target == .archive {
            // Back to archives the attribute stays Transformable; only an NSArchiver transformer
            // must go, now that its typedstreams are keyed archives.
            guard attribute.valueTransformerName == ValueTransformerKind.unarchiveName else { return nil }
            return ModelChange(attribute: location.attributeName ?? attribute.name, leavingNSArchiver: attribute)
        }
        return ModelChange(attribute: location.attributeName ?? attribute.name, from: attribute)
    }

    /// The `archivist codegen` arguments whose Codable type decodes what this migration wrote:
    /// the attribute as the model names it, the decoder (`--to plist` or `xml` for property
    /// lists), the JSON date and data strategies when not JSONEncoder's defaults, and the model
    /// file the attribute was named by.
    public var codegenArguments: [String] {
        var arguments = ["codegen", path, "--attribute", location.attributeName ?? "\(location.table.name).\(location.column.name)"]
        switch target {
        case .json:
            switch jsonOptions.dateEncodingStrategy {
            case .deferredToDate: break
            case .secondsSince1970: arguments += ["--date-strategy", "secondsSince1970"]
            case .millisecondsSince1970: arguments += ["--date-strategy", "millisecondsSince1970"]
            case .iso8601: arguments += ["--date-strategy", "iso8601"]
            }
            if jsonOptions.dataEncodingStrategy == .deferredToData { arguments += ["--data-strategy", "deferredToData"] }
        case .propertyList: arguments += ["--to", "plist"]
        case .xml: arguments += ["--to", "xml"]
        case .archive: break
        }
        switch model {
        case .storeCache: break
        case .file(let modelPath): arguments += ["--model", modelPath]
        case .none: arguments.append("--no-model")
        }
        return arguments
    }

    /// `archivist codegen STORE --attribute Entity.attribute …`, quoted for a POSIX shell.
    public var codegenCommand: String {
        (["archivist"] + codegenArguments).map(Self.shellQuoted).joined(separator: " ")
    }

    /// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else
    /// in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:=@%+")
        guard word.isEmpty || !word.allSatisfy(safe.contains) else { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    public var skippedCount: Int { skipped.values.reduce(0, +) }
    public var failedCount: Int { failedByReason.values.reduce(0, +) }
    public var hasFailures: Bool { failedCount > 0 }
}

/// What to change in the app's model after a migration: Transformable → Binary Data, the
/// transformer and custom class removed.
public struct ModelChange: Sendable, Hashable {
    /// `Group.darkColor`.
    public var attribute: String
    public var oldType: AttributeType
    public var newType: AttributeType
    /// The transformer the attribute named, which the app no longer needs for it.
    public var removedTransformer: String?
    public var removedCustomClass: String?
    /// The transformer the attribute names instead, when it stays Transformable: after its
    /// typedstreams became keyed archives, `NSSecureUnarchiveFromData` (or a subclass allowing
    /// more classes, which `model --audit` writes).
    public var newTransformer: String?

    init(attribute: String, from description: AttributeDescription) {
        self.attribute = attribute
        oldType = description.attributeType
        newType = .binaryData
        removedTransformer = description.valueTransformerName
        removedCustomClass = description.customClassName
    }

    /// The change after `--to archive` of an `NSUnarchiveFromData` attribute.
    init(attribute: String, leavingNSArchiver description: AttributeDescription) {
        self.attribute = attribute
        oldType = description.attributeType
        newType = description.attributeType
        removedTransformer = description.valueTransformerName
        newTransformer = ValueTransformerKind.secureUnarchiveName
    }

    /// One sentence for the summary.
    public var sentence: String {
        if let newTransformer {
            return "\(attribute): transformer \(removedTransformer ?? "") → \(newTransformer), or the subclass of it that "
                + "`archivist model STORE --audit` writes for the classes the rows hold (the values are keyed archives now)"
        }
        var text = "\(attribute): \(oldType.xcodeName) → \(newType.xcodeName)"
        var removed: [String] = []
        removed.append("transformer \(removedTransformer ?? "(none: NSKeyedUnarchiveFromData)") removed")
        if let removedCustomClass { removed.append("custom class \(removedCustomClass) removed") }
        text += ", " + removed.joined(separator: ", ")
        return text
    }
}

extension MigrationResult {
    /// Takes the engine's counts for this attribute.
    mutating func record(_ tally: KeyedBlobTally<Int64>) {
        total = tally.rows
        converted = tally.converted
        skipped = tally.skipped
        failedByReason = tally.failedByReason
        failures = tally.failures
        changedKeys = tally.changedKeys
        suggestionCounts = tally.suggestionCounts
        suggestedAdditions = tally.suggestedAdditions
        batches = tally.batches
        elapsed = tally.elapsed
    }
}
