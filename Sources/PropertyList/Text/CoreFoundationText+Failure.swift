extension CoreFoundationText.Failure {
    /// The error the XML and OpenStep readers report when the text's encoding cannot be read.
    package var propertyListError: PropertyListError {
        switch self {
        case .unknownEncoding(let name):
            return PropertyListError(.malformed, name.isEmpty ? "the XML declaration names no encoding Core Foundation knows" : "unknown encoding \"\(name)\" in the XML declaration", at: .byteOffset(0))
        case .invalidBytes:
            return PropertyListError(.malformed, "the document's bytes are not valid in its encoding", at: .byteOffset(0))
        }
    }
}
