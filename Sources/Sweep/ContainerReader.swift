internal import CLibArchive
internal import SystemInterface
import Foundation

/// A zip or tar (plain, gzip, bzip2 or xz) read member by member with libarchive, straight from
/// its file or from another container's member, without unpacking anything to disk.
///
/// Members are read in the order the container stores them. For each one the caller reads a
/// head, then all of it (bounded), or skips it: skipping a stored or compressed member whose
/// size the header gives costs no decompression in a zip, which is what keeps a zip bomb cheap.
final class ContainerReader {
    private let archive: OpaquePointer
    /// Keeps an outer container alive while this one pulls its bytes.
    private var source: StreamSource?
    private var closed = false

    /// One member's header.
    struct Member {
        /// The member's name as stored, without a leading `./` or `/`.
        var name: String
        /// The size the header declares; nil when it does not say (a zip with a data descriptor).
        var declaredSize: Int?
        var isEncrypted: Bool
    }

    /// Opens the container file at `path`. Zips are read through their central directory.
    init(path: String) throws(ContainerError) {
        guard let archive = archive_read_new() else { throw ContainerError("libarchive could not start") }
        self.archive = archive
        Self.enableFormats(archive, seekable: true)
        // On failure the handle is freed by deinit, which runs once every property is set.
        guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            throw ContainerError(Self.message(archive))
        }
    }

    /// Opens a container held by the current member of `outer`, whose first bytes, `head`,
    /// were already read from it; the rest is pulled as needed.
    init(member outer: ContainerReader, head: Data) throws(ContainerError) {
        guard let archive = archive_read_new() else { throw ContainerError("libarchive could not start") }
        self.archive = archive
        Self.enableFormats(archive, seekable: false)
        let source = StreamSource(outer, head: head)
        self.source = source
        let status = archive_read_open2(archive, Unmanaged.passUnretained(source).toOpaque(), nil, { _, context, buffer in
            guard let context, let buffer else { return -1 }
            let source = Unmanaged<StreamSource>.fromOpaque(context).takeUnretainedValue()
            return source.pull(buffer)
        }, nil, nil)
        guard status == ARCHIVE_OK else {
            throw ContainerError(Self.message(archive), unrecognized: archive_format(archive) == 0)
        }
    }

    deinit {
        archive_read_free(archive)
    }

    /// Tar in any of its dialects and zip, under gzip, bzip2, xz or no compression. Nothing
    /// else: other formats libarchive knows (raw, mtree, ISO images) would claim ordinary files.
    private static func enableFormats(_ archive: OpaquePointer, seekable: Bool) {
        archive_read_support_filter_all(archive)
        archive_read_support_format_tar(archive)
        archive_read_support_format_gnutar(archive)
        if seekable {
            archive_read_support_format_zip(archive)
        } else {
            archive_read_support_format_zip_streamable(archive)
        }
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error \(archive_errno(archive))"
    }

    /// The next regular-file member, skipping folders, links and devices; nil at the end.
    func nextMember() throws(ContainerError) -> Member? {
        while true {
            var entry: OpaquePointer?
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { return nil }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw ContainerError(Self.message(archive), unrecognized: archive_format(archive) == 0)
            }
            // Hard links carry no data in a tar (their target was read already); folders,
            // symbolic links and devices have none to read.
            guard archive_entry_filetype(entry) == Self.regularFileType, archive_entry_hardlink(entry) == nil else { continue }
            let raw = archive_entry_pathname_utf8(entry).map { String(cString: $0) }
                ?? archive_entry_pathname(entry).map { String(decoding: Data(bytes: $0, count: strlen($0)), as: UTF8.self) }
                ?? "(unnamed member)"
            let size = archive_entry_size_is_set(entry) != 0 ? Int(exactly: archive_entry_size(entry)) : nil
            return Member(name: Self.normalized(raw), declaredSize: size.flatMap { $0 >= 0 ? $0 : nil },
                          isEncrypted: archive_entry_is_encrypted(entry) != 0)
        }
    }

    /// `AE_IFREG`, which Swift cannot import (a macro with a cast).
    static let regularFileType: UInt32 = 0o100000

    /// `./private/var/x` and `/private/var/x` are both `private/var/x`.
    static func normalized(_ name: String) -> String {
        var name = Substring(name)
        while name.hasPrefix("./") { name = name.dropFirst(2) }
        while name.hasPrefix("/") { name = name.dropFirst() }
        return String(name)
    }

    /// Reads up to `count` bytes of the current member into `base`; 0 at its end.
    func read(into base: UnsafeMutableRawPointer, count: Int) throws(ContainerError) -> Int {
        guard count > 0 else { return 0 }
        let n = archive_read_data(archive, base, count)
        guard n >= 0 else { throw ContainerError(Self.message(archive)) }
        return n
    }

    /// Reads up to `buffer.count` bytes of the current member; 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ContainerError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return try read(into: base, count: buffer.count)
    }

    /// Reads the first `count` bytes of the current member (fewer when it is shorter).
    func readHead(_ count: Int) throws(ContainerError) -> Data {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < count {
            let n = try read(into: buffer + filled, count: count - filled)
            if n == 0 { break }
            filled += n
        }
        return Data(bytes: buffer, count: filled)
    }

    /// Reads the rest of the current member after `head`, refusing it once it passes `limit`
    /// bytes in all: a header's declared size is checked first, but never trusted.
    func readRest(after head: Data, limit: Int) throws(ContainerError) -> Data {
        var data = head
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = try read(into: chunk, count: 1 << 16)
            if n == 0 { return data }
            guard data.count + n <= limit else {
                throw ContainerError("more than \(limit) bytes (the per-item limit, --max-input-size); not read further", overLimit: true)
            }
            data.append(chunk.assumingMemoryBound(to: UInt8.self), count: n)
        }
    }

    /// Copies the rest of the current member after `head` to the open file `fd`.
    func copyRest(after head: Data, to fd: Int32, limit: Int) throws(ContainerError) {
        var written = 0
        func put(_ base: UnsafeRawPointer, _ count: Int) throws(ContainerError) {
            guard written + count <= limit else {
                throw ContainerError("more than \(limit) bytes (the database limit); not read further", overLimit: true)
            }
            if let error = FileIO.writeAll(fd, UnsafeRawBufferPointer(start: base, count: count)) {
                throw ContainerError("cannot write a temporary copy: \(error.systemText)")
            }
            written += count
        }
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: max(1 << 16, head.count), alignment: 16)
        defer { chunk.deallocate() }
        head.copyBytes(to: chunk.assumingMemoryBound(to: UInt8.self), count: head.count)
        try put(chunk, head.count)
        while true {
            let n = try read(into: chunk, count: 1 << 16)
            if n == 0 { return }
            try put(chunk, n)
        }
    }

    /// Skips the rest of the current member.
    func skip() throws(ContainerError) {
        guard archive_read_data_skip(archive) == ARCHIVE_OK else { throw ContainerError(Self.message(archive)) }
    }

    /// Bytes consumed from the container's own file (compressed), for progress.
    var bytesConsumed: Int64 {
        archive_filter_bytes(archive, -1)
    }
}

/// A failure inside a container: its format, a member's header or data.
struct ContainerError: Error, CustomStringConvertible {
    var description: String
    /// libarchive did not recognize any format: a gzip file that holds no tar, say.
    var unrecognized = false
    /// The member passed a size limit: the container itself is fine.
    var overLimit = false

    init(_ description: String, unrecognized: Bool = false, overLimit: Bool = false) {
        self.description = description
        self.unrecognized = unrecognized
        self.overLimit = overLimit
    }
}

/// Hands libarchive the bytes of an outer container's current member: first the head the
/// sniffer read, then the rest.
final class StreamSource {
    let outer: ContainerReader
    private var head: Data?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)

    init(_ outer: ContainerReader, head: Data) {
        self.outer = outer
        self.head = head.isEmpty ? nil : head
    }

    deinit {
        buffer.deallocate()
    }

    func pull(_ pointer: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        if let head {
            self.head = nil
            let n = head.copyBytes(to: buffer)
            if n < head.count { self.head = head.dropFirst(n) }
            pointer.pointee = UnsafeRawPointer(buffer.baseAddress)
            return n
        }
        do {
            let n = try outer.read(into: buffer)
            pointer.pointee = UnsafeRawPointer(buffer.baseAddress)
            return n
        } catch {
            return -1
        }
    }
}
