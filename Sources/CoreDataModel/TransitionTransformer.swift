/// The transformer that reads an attribute's old keyed archives while the app moves to a
/// Codable type: what `codegen` writes beside that type, decided by what the model says of the
/// attribute and by `TransformerFix`'s rule for the list.
public enum TransitionTransformer: Sendable, Hashable {
    /// Write this `NSSecureUnarchiveFromDataTransformer` subclass, registered under
    /// `registeredName`, listing `super.allowedTopLevelClasses + addedClasses`; `note` says why
    /// it has that name.
    case subclass(className: String, registeredName: String, addedClasses: [String], note: String)
    /// No subclass: `NSSecureUnarchiveFromData`'s default classes accept every class the archives
    /// hold. `alreadyNamed`: the model already names that transformer.
    case secureDefaultsSuffice(alreadyNamed: Bool)
    /// The model stores the attribute as another type (Binary Data): Core Data runs no value
    /// transformer on it, the app unarchives the values itself. `neededClasses` are those the
    /// archives hold beyond the secure defaults, for the app's own `unarchivedObject(ofClasses:)`.
    case notTransformable(AttributeType, neededClasses: [String])

    /// Decides the transformer for an attribute.
    ///
    /// - Parameters:
    ///   - attribute: the model's attribute; nil without a model (or for loose files).
    ///   - attributeName: `Group.darkColor`, for the notes.
    ///   - className: the subclass's name when a new one is written (`GroupDarkColorTransformer`).
    ///   - needed: the classes the archives hold beyond the secure defaults
    ///     (`RequiredClasses(beyond: .transformerDefault)`).
    ///   - given: the classes given for app-defined transformers (`--transformer`).
    public init(attribute: AttributeDescription?, attributeName: String?, className: String, needed: [String],
                given: TransformerAllowLists = TransformerAllowLists()) {
        let named = attributeName ?? "the attribute"
        guard let attribute else {
            let added = TransformerFix.addedClasses(customClass: nil, needed: needed)
            self = added.isEmpty ? .secureDefaultsSuffice(alreadyNamed: false)
                : .subclass(className: className, registeredName: className, addedClasses: added,
                            note: "Set \(className) as \(named)'s Transformer in the model, and register it.")
            return
        }
        guard attribute.attributeType == .transformable, let kind = attribute.transformer else {
            self = .notTransformable(attribute.attributeType, neededClasses: TransformerFix.addedClasses(customClass: nil, needed: needed))
            return
        }
        switch kind {
        case .appDefined(let name):
            // Registered under the model's own name, it takes the app transformer's place.
            let added = TransformerFix.addedClasses(customClass: attribute.customClassName, given: given[name] ?? [], needed: needed)
            self = .subclass(className: className, registeredName: name, addedClasses: added,
                             note: "Registered under \(name), the transformer the model names for \(named): it takes the place of the app's own, so the model needs no change.")
        case .secureUnarchive, .none, .insecure:
            let added = TransformerFix.addedClasses(customClass: attribute.customClassName, needed: needed)
            guard !added.isEmpty else {
                self = .secureDefaultsSuffice(alreadyNamed: kind == .secureUnarchive)
                return
            }
            let instead = kind == .secureUnarchive ? "NSSecureUnarchiveFromData"
                : attribute.valueTransformerName ?? "none: Core Data's insecure NSKeyedUnarchiveFromData"
            self = .subclass(className: className, registeredName: className, addedClasses: added,
                             note: "Set \(className) as \(named)'s Transformer in the model (in place of \(instead)), and register it.")
        }
    }

    /// What a generated file says when no subclass is written; nil when one is.
    public var note: String? {
        switch self {
        case .subclass:
            return nil
        case .secureDefaultsSuffice(let alreadyNamed):
            return alreadyNamed
                ? "NSSecureUnarchiveFromData, the attribute's transformer, reads the old archives as it is: its default classes accept every class they hold."
                : "No transformer subclass is needed: NSSecureUnarchiveFromData's default classes accept every class the old archives hold; name it as the attribute's Transformer."
        case .notTransformable(let type, let classes):
            var text = "\(type.xcodeName) in the model, not Transformable: Core Data runs no value transformer on it, the app unarchives the values itself, so none is written"
            text += classes.isEmpty ? "." : " (the archives hold \(classes.joined(separator: ", ")) beyond the secure defaults)."
            return text
        }
    }
}
