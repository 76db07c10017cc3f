import Foundation

/// UTF-16 or UTF-32, in either byte order, found without a byte-order mark from the first four
/// bytes of an XML document (`<?` or `<` and a name), as the XML specification's appendix F
/// finds it. CF refuses such a document; the readers read it beyond CF
/// (`PropertyListReadOptions.readsBeyondCoreFoundation`).
package enum UnmarkedWideEncoding: Sendable {
    case utf16BE, utf16LE, utf32BE, utf32LE

    /// The encoding `data` starts in, or nil when its first four bytes show none of the four.
    package init?(_ data: Data) {
        guard data.count >= 4 else { return nil }
        let b = (data[data.startIndex], data[data.startIndex + 1], data[data.startIndex + 2], data[data.startIndex + 3])
        switch b {
        case (0x00, 0x00, 0x00, 0x3C): self = .utf32BE
        case (0x3C, 0x00, 0x00, 0x00): self = .utf32LE
        case (0x00, 0x3C, 0x00, _) where b.3 != 0x00: self = .utf16BE
        case (0x3C, 0x00, _, 0x00) where b.2 != 0x00: self = .utf16LE
        default: return nil
        }
    }

    /// The encoding in a message.
    package var name: String {
        switch self {
        case .utf16BE: "UTF-16 (big-endian)"
        case .utf16LE: "UTF-16 (little-endian)"
        case .utf32BE: "UTF-32 (big-endian)"
        case .utf32LE: "UTF-32 (little-endian)"
        }
    }
}
