/// The byte order a typedstream's multi-byte integers and reals are written in, named by its
/// signature: `typedstream` for big-endian writers (NeXT's 68k and PowerPC Macs), `streamtyped`
/// for little-endian ones (Intel and Apple silicon Macs).
public enum TypedStreamByteOrder: String, Sendable, Hashable {
    case bigEndian = "big"
    case littleEndian = "little"

    /// The signature a writer of this byte order puts after the streamer version.
    public var signature: String {
        switch self {
        case .bigEndian: "typedstream"
        case .littleEndian: "streamtyped"
        }
    }
}
