import KeyedArchive

/// The value transformer an attribute needs: its registered name, its exact
/// `allowedTopLevelClasses`, and the Swift to paste into the app.
public struct TransformerFix: Sendable, Hashable {
    /// The name to set as the attribute's Transformer in the model, and to register.
    public var transformerName: String
    /// The `NSSecureUnarchiveFromDataTransformer` subclass to write; nil when the secure
    /// transformer's defaults already accept everything (`transformerName` is then
    /// `NSSecureUnarchiveFromData`).
    public var className: String?
    /// The classes the subclass adds (readable names: `Palette.SerializableColor`).
    public var addedClasses: [String]
    /// Whether the list starts from `super.allowedTopLevelClasses` (the secure defaults) or
    /// replaces it (an app transformer whose classes were given).
    public var extendsDefaults: Bool
    /// The Swift: the subclass and its registration, or the one-line model change.
    public var swiftSource: String

    /// The fix that moves an attribute to `NSSecureUnarchiveFromDataTransformer`, adding
    /// `adding` to its defaults (none: the transformer itself suffices).
    init(entity: String, attribute: AttributeDescription, adding: [String]) {
        addedClasses = adding
        extendsDefaults = true
        guard !adding.isEmpty else {
            transformerName = ValueTransformerKind.secureUnarchiveName
            className = nil
            swiftSource = """
                // \(entity).\(attribute.name): set Transformer to NSSecureUnarchiveFromDataTransformer in the model editor
                // (its default classes accept every value the store holds); no subclass is needed.
                """
            return
        }
        let base = Self.swiftTypeName(attribute.customClassName ?? adding[0])
        let name = base + "Transformer"
        transformerName = name
        className = name
        let list = "super.allowedTopLevelClasses + [\(adding.map { Self.swiftTypeName($0) + ".self" }.joined(separator: ", "))]"
        swiftSource = Self.source(entity: entity, attribute: attribute.name, className: name, list: list)
    }

    /// The fix for an app transformer whose classes were given: the same name, with the
    /// classes the rows need added to its list.
    init(entity: String, attribute: AttributeDescription, existingTransformer: String, given: [String], adding: [String]) {
        addedClasses = adding
        extendsDefaults = false
        transformerName = existingTransformer
        let name = Self.swiftTypeName(existingTransformer)
        className = name
        let list = "[\((given + adding).map { Self.swiftTypeName($0) + ".self" }.joined(separator: ", "))]"
        swiftSource = Self.source(entity: entity, attribute: attribute.name, className: name, list: list, registeredName: existingTransformer)
    }

    static func source(entity: String, attribute: String, className: String, list: String, registeredName: String? = nil) -> String {
        """
        /// Reads \(entity).\(attribute) with secure unarchiving.
        @objc(\(className))
        final class \(className): NSSecureUnarchiveFromDataTransformer {
            static let name = NSValueTransformerName(rawValue: "\(registeredName ?? className)")

            override class var allowedTopLevelClasses: [AnyClass] {
                \(list)
            }
        }

        // Before the persistent container loads its stores:
        // ValueTransformer.setValueTransformer(\(className)(), forName: \(className).name)
        // In the model editor, \(entity).\(attribute): Transformer \(registeredName ?? className)
        """
    }

    /// `UIColor`; a Swift class by its unqualified name, since the app's module prefixes it
    /// (`Palette.SerializableColor` and `_TtC7Palette16SerializableColor` are `SerializableColor`).
    public static func swiftTypeName(_ className: String) -> String {
        let readable = SwiftClassName.demangle(className) ?? className
        return readable.split(separator: ".").last.map(String.init) ?? readable
    }
}
