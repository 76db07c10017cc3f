import PropertyList

/// One object of a keyed archive: its UID, its class (nil for plist values stored directly in
/// `$objects`, such as NSString and NSNumber), its raw fields and what they mean.
public struct ArchivedObject: Sendable, Hashable {
    /// The object's index in `$objects`, which every reference to it uses.
    public var uid: Int
    public var archivedClass: ArchivedClass?
    /// Every keyed field, in the order written, keys unescaped. Empty for inline plist objects.
    public var fields: [ArchivedField]
    /// The decoded meaning, for classes Archivist knows; `.object` for any other class.
    public var content: ArchivedContent

    public init(uid: Int, archivedClass: ArchivedClass?, fields: [ArchivedField], content: ArchivedContent) {
        self.uid = uid
        self.archivedClass = archivedClass
        self.fields = fields
        self.content = content
    }

    /// The class name as written, or the plist type of an inline object (`NSString`, `NSNumber`…).
    public var className: String {
        if let archivedClass { return archivedClass.name }
        return content.inlineClassName
    }

    /// The readable class name: demangled for Swift classes.
    public var readableClassName: String {
        archivedClass?.readableName ?? content.inlineClassName
    }

    public subscript(field key: String) -> ArchivedValue? {
        fields.first { $0.key == key }?.value
    }
}
