import PropertyList

/// What `archivist model` reports: a model, where it came from, and, when asked for, the audit
/// of its Transformable attributes. Its text and JSON forms are `text(usesColors:)` and
/// `jsonValue`.
public struct ModelReport: Sendable {
    /// The path the model was read from, as given.
    public var file: String
    public var model: LoadedModel
    public var audit: ModelAudit?
    /// Whether the audit read the store's rows; without them, each finding says its rows were
    /// not read.
    public var rowsRead: Bool

    public init(file: String, model: LoadedModel, audit: ModelAudit? = nil, rowsRead: Bool = false) {
        self.file = file
        self.model = model
        self.audit = audit
        self.rowsRead = rowsRead
    }

    /// The report as `archivist model` prints it for people: the entities with their attributes
    /// and relationships, then the audit's findings, each with the transformer that fixes it.
    ///
    /// - Parameter usesColors: whether to color findings and notes (ANSI; for a terminal).
    public func text(usesColors: Bool) -> String {
        let colors = ReportPalette(enabled: usesColors)
        var text = ModelText.render(model, file: file, colors: colors)
        if let audit { text += ModelText.render(audit, rowsRead: rowsRead, colors: colors) }
        return text
    }

    /// The report for machines (`archivist model --format json`): the file, where the model came
    /// from, the model in Xcode's vocabulary, and the audit.
    public var jsonValue: PropertyListValue {
        var root = PropertyListDictionary()
        root.append(key: "file", value: .string(file))
        root.append(key: "source", value: model.summaryJSON)
        for (key, value) in model.model.jsonValue.dictionaryValue ?? PropertyListDictionary() { root.append(key: key, value: value) }
        if let audit { root.append(key: "audit", value: audit.jsonValue) }
        return .dictionary(root)
    }
}
