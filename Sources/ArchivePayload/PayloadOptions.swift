/// How an archive becomes a Codable payload.
public struct PayloadOptions: Sendable, Hashable {
    /// Add `"$class"` with the readable class name to objects of classes without a native mapping.
    public var keepsClassNames = false
    /// Decode NSData that holds JSON, a property list or another keyed archive in place, so a
    /// Codable struct boxed as JSON inside an archive reads as plain data.
    public var expandsNestedPayloads = false
    /// Which decoder the payload is for. Their Codable conventions differ in two places:
    /// - null: JSON has it; in a property list, PropertyListEncoder writes nil in an array as
    ///   `"$null"` and leaves a nil dictionary entry out;
    /// - URL: JSONDecoder reads a URL from a string; PropertyListDecoder uses URL's own Codable
    ///   form, `{"relative": "…"}`.
    public enum Target: String, Sendable, Hashable {
        case json
        case propertyList
    }

    public var target: Target = .json
    /// The deepest nesting of objects followed.
    public var maximumDepth = 512
    /// The most values a payload may hold. An object the archive shares counts at every place it
    /// appears, as it will in the payload, so a small archive of shared references cannot make
    /// a payload of billions of values.
    public var maximumValueCount = 10_000_000
    /// Write an object that refers back to one it is inside (a cycle) as a reference to where
    /// that one is written, `{"$ref": "#/items/0"}` (`PayloadReference`), instead of refusing the
    /// archive. An object shared without a cycle is still written in full at each place.
    public var breaksCycles = false

    public init(keepsClassNames: Bool = false, expandsNestedPayloads: Bool = false, target: Target = .json, maximumDepth: Int = 512,
                maximumValueCount: Int = 10_000_000, breaksCycles: Bool = false) {
        self.keepsClassNames = keepsClassNames
        self.expandsNestedPayloads = expandsNestedPayloads
        self.target = target
        self.maximumDepth = maximumDepth
        self.maximumValueCount = maximumValueCount
        self.breaksCycles = breaksCycles
    }
}
