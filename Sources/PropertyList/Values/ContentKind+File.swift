internal import SystemInterface

extension ContentKind {
    /// The kind of the regular file at `path` from its first `signatureLength` bytes, with its
    /// size: what to call a file a verb cannot read (a JPEG, an SQLite database…) without
    /// reading more of it. Nil when it is no regular file or cannot be read.
    public static func sniff(fileAt path: String) -> (kind: ContentKind?, size: Int)? {
        guard case .success(let head) = FileHead.read(path: path, count: signatureLength), head.isRegularFile else { return nil }
        return head.bytes.withUnsafeBytes { (sniff(head: $0), head.size) }
    }
}
