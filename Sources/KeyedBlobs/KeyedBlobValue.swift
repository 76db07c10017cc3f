import Foundation

/// One stored value, as the migration engine sees it.
public enum KeyedBlobValue: Sendable {
    case null
    /// Bytes stored as a blob.
    case bytes(Data)
    /// A string, as its UTF-8 bytes (a text column).
    case text(Data)
    /// An integer or real where a document was expected.
    case number
    /// The row needs no work: its target (a separate column) holds a value already.
    case done
}
