import CoreDataModel

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
    /// Classes to allow so that the refused rows convert, most needed first.
    public var suggestedAdditions: [String] = []
    /// How many refused rows each suggested class would accept.
    var suggestionCounts: [String: Int] = [:]
    /// Transactions committed.
    public var batches = 0
    public var elapsed: Double = 0
    /// Who judged the archives, and by which list.
    public var judgement = TransformerJudgement(basis: .noModel, allowList: .transformerDefault)

    /// The change the app's model needs once every value is converted: the attribute becomes
    /// Binary Data and loses its transformer. Nil without a model, for a dry run, while rows
    /// failed, for `--to archive`, or when the attribute is not Transformable.
    public var modelChange: ModelChange? {
        // Back to archives (`--to archive`) the attribute stays Transformable.
        guard !dryRun, !hasFailures, target != .archive, let attribute = location.attribute, attribute.attributeType == .transformable else { return nil }
        return ModelChange(attribute: location.attributeName ?? attribute.name, from: attribute)
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

    init(attribute: String, from description: AttributeDescription) {
        self.attribute = attribute
        oldType = description.attributeType
        newType = .binaryData
        removedTransformer = description.valueTransformerName
        removedCustomClass = description.customClassName
    }

    /// One sentence for the summary.
    public var sentence: String {
        var text = "\(attribute): \(oldType.xcodeName) → \(newType.xcodeName)"
        var removed: [String] = []
        removed.append("transformer \(removedTransformer ?? "(none: NSKeyedUnarchiveFromData)") removed")
        if let removedCustomClass { removed.append("custom class \(removedCustomClass) removed") }
        text += ", " + removed.joined(separator: ", ")
        return text
    }
}
