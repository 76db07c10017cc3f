/// The first bytes of a typedstream: the streamer version, the byte order its signature names,
/// and the system version of the writer.
public struct TypedStreamHeader: Sendable, Hashable {
    /// 4 for every stream Mac OS X and later NeXTSTEP wrote; 3 for early NeXTSTEP.
    public var streamerVersion: Int
    public var byteOrder: TypedStreamByteOrder
    /// 1000 for every Mac OS X writer; lower values name NeXTSTEP releases.
    public var systemVersion: Int
    /// How many bytes the header takes (14 for the usual 1-byte system version, 16 for 1000).
    public var length: Int

    public init(streamerVersion: Int, byteOrder: TypedStreamByteOrder, systemVersion: Int, length: Int) {
        self.streamerVersion = streamerVersion
        self.byteOrder = byteOrder
        self.systemVersion = systemVersion
        self.length = length
    }
}
