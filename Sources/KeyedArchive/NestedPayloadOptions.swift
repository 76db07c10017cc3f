/// Whether and how deep renderers decode nested plists, archives and JSON held in NSData.
public struct NestedPayloadOptions: Sendable, Hashable {
    /// Decode nested documents and show them in place. Off by default: labels only.
    public var expands: Bool = false
    /// How many levels of documents inside documents are expanded (an archive inside an
    /// archive inside an archive…). Default 4; deeper payloads are labelled, not decoded.
    public var maximumNesting: Int = 4
    /// Limits for reading each nested document.
    public var readOptions: KeyedArchiveReadOptions = .default

    public init(expands: Bool = false, maximumNesting: Int = 4, readOptions: KeyedArchiveReadOptions = .default) {
        self.expands = expands
        self.maximumNesting = maximumNesting
        self.readOptions = readOptions
    }
}
