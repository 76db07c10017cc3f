import Foundation
internal import SystemInterface

extension ContentKind {
    /// The kind of the regular file at `path` from its first `signatureLength` bytes, with its
    /// size: what to call a file a verb cannot read (a JPEG, an SQLite database…) without
    /// reading more of it. Nil when it is no regular file or cannot be read.
    public static func sniff(fileAt path: String) -> (kind: ContentKind?, size: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var head = [UInt8](repeating: 0, count: signatureLength)
        let n = head.withUnsafeMutableBytes { FileIO.read(fd, into: $0) }
        guard n >= 0 else { return nil }
        return head.withUnsafeBytes { (sniff(head: UnsafeRawBufferPointer(rebasing: $0.prefix(n))), Int(info.st_size)) }
    }
}
