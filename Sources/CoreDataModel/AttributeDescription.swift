/// One attribute of an entity, as the model declares it.
public struct AttributeDescription: Sendable, Hashable {
    /// The name in the model, in its own case (`darkColor`).
    public var name: String
    public var attributeType: AttributeType
    public var isOptional: Bool
    /// A transient attribute lives in memory only: it has no column.
    public var isTransient: Bool
    /// The default value, written as the `contents` file's `defaultValueString` spells it
    /// (`0`, `YES`, `1.5`, text); nil when there is none.
    public var defaultValue: String?
    /// `NSValueTransformerName`: the transformer of a Transformable attribute, as registered.
    public var valueTransformerName: String?
    /// `NSAttributeValueClassName`: the class of the values. For Transformable attributes
    /// this is Xcode's Custom Class; for the others it is the type's own class (`NSString`).
    public var valueClassName: String?
    /// The SQLite column that holds the attribute, in the table of the entity's root: `Z` and
    /// the name in capitals, with a number when an entity of the same table took it first
    /// (`ZTITLE1`). Nil for transient attributes. Set by `ManagedObjectModel`.
    public var column: String?

    public init(name: String, attributeType: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
                defaultValue: String? = nil, valueTransformerName: String? = nil, valueClassName: String? = nil,
                column: String? = nil) {
        self.name = name
        self.attributeType = attributeType
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.valueTransformerName = valueTransformerName
        self.valueClassName = valueClassName
        self.column = column
    }

    /// Xcode's Custom Class: set for Transformable attributes that name one.
    public var customClassName: String? {
        guard attributeType == .transformable, let valueClassName, !valueClassName.isEmpty else { return nil }
        return valueClassName
    }

    /// The transformer kind of a Transformable attribute; nil for every other type.
    public var transformer: ValueTransformerKind? {
        attributeType == .transformable ? ValueTransformerKind(name: valueTransformerName) : nil
    }

    /// Whether values are stored in a column (not transient).
    public var isStored: Bool { !isTransient }

    /// A default value spelled one way whatever wrote it: integers plainly, reals without a
    /// trailing `.0`, booleans as YES or NO; text as it is. Nil for an empty default.
    public static func canonicalDefault(_ text: String, type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64:
            if let n = Int64(text) { return String(n) }
            if let r = Double(text), r.rounded() == r, abs(r) < 9e18 { return String(Int64(r)) }
            return text
        case .double, .float, .date:
            guard let r = Double(text) else { return text }
            return r.rounded() == r && abs(r) < 1e15 ? String(Int64(r)) : String(r)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return "YES"
            case "no", "false", "0": return "NO"
            default: return text
            }
        default:
            return text
        }
    }
}
