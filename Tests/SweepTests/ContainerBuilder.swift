internal import CLibArchive
import Foundation

/// Writes zips and tars for the tests with libarchive's writer, the library sweep reads them
/// with, so that test trees are built in the test and nothing binary is checked in.
enum ContainerBuilder {
    enum Kind {
        case zip, tar, tarGzip, tarBzip2
    }

    /// What a member holds.
    enum Content {
        case data(Data)
        /// A file on disk, copied in.
        case file(String)
        /// `prefix`, then zeros up to `size` bytes in all, written piece by piece (a zip bomb
        /// compresses to almost nothing).
        case zeros(size: Int, prefix: Data)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes a container at `path` holding `members` in order.
    static func write(_ kind: Kind, to path: String, members: [(name: String, content: Content)]) throws {
        guard let archive = archive_write_new() else { throw Failure(description: "archive_write_new failed") }
        defer { archive_write_free(archive) }
        func check(_ status: Int32, _ what: String) throws {
            guard status == ARCHIVE_OK else {
                throw Failure(description: "\(what): " + (archive_error_string(archive).map { String(cString: $0) } ?? "error \(status)"))
            }
        }
        switch kind {
        case .zip:
            try check(archive_write_set_format_zip(archive), "zip format")
        case .tar:
            try check(archive_write_set_format_pax_restricted(archive), "tar format")
        case .tarGzip:
            try check(archive_write_set_format_pax_restricted(archive), "tar format")
            try check(archive_write_add_filter_gzip(archive), "gzip filter")
        case .tarBzip2:
            try check(archive_write_set_format_pax_restricted(archive), "tar format")
            try check(archive_write_add_filter_bzip2(archive), "bzip2 filter")
        }
        try check(archive_write_open_filename(archive, path), "open \(path)")
        for member in members {
            guard let entry = archive_entry_new() else { throw Failure(description: "archive_entry_new failed") }
            defer { archive_entry_free(entry) }
            let size: Int
            switch member.content {
            case .data(let data): size = data.count
            case .file(let file): size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            case .zeros(let total, _): size = total
            }
            archive_entry_set_pathname_utf8(entry, member.name)
            archive_entry_set_filetype(entry, 0o100000)
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_size(entry, la_int64_t(size))
            archive_entry_set_mtime(entry, 1_700_000_000, 0)
            try check(archive_write_header(archive, entry), "header of \(member.name)")
            func put(_ data: Data) throws {
                let written = data.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
                guard written == data.count else { throw Failure(description: "data of \(member.name)") }
            }
            switch member.content {
            case .data(let data):
                try put(data)
            case .file(let file):
                try put(try Data(contentsOf: URL(fileURLWithPath: file)))
            case .zeros(let total, let prefix):
                try put(prefix)
                let chunk = Data(count: 1 << 20)
                var left = total - prefix.count
                while left > 0 {
                    try put(chunk.prefix(min(left, chunk.count)))
                    left -= min(left, chunk.count)
                }
            }
        }
        try check(archive_write_close(archive), "close")
    }

    /// Writes every regular file under `folder` into a container at `path`, named relative to
    /// `folder`, in sorted order.
    static func pack(_ folder: String, as kind: Kind, to path: String) throws {
        let base = URL(fileURLWithPath: folder).standardizedFileURL.path
        var files: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: base) else { throw Failure(description: "cannot walk \(folder)") }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(relative)
            }
        }
        try write(kind, to: path, members: files.sorted().map { ($0, .file(base + "/" + $0)) })
    }
}
