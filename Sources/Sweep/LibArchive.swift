internal import CLibArchive

/// libarchive, opened the first time a sweep meets a zip or a tar rather than linked, so that no
/// other command pays for loading it and what it pulls in (lzma, zstd, lz4, bzip2, nettle…); see
/// docs/architecture.md, "Libraries loaded on first use".
package enum LibArchive {
    /// The library Archivist opens: the one Debian's `libarchive13` ships.
    package static let soname = ARCHIVIST_LIBARCHIVE_SONAME
    /// The Debian package to install when it is missing.
    package static let debianPackage = ARCHIVIST_LIBARCHIVE_PACKAGE

    /// Opens libarchive from `soname` unless it is open already: nil once its functions can be
    /// called, else why not, in our words, naming the package to install. Every container is
    /// opened after it.
    package static func loadFailure(soname: String = soname) -> String? {
        var reason = [CChar](repeating: 0, count: 512)
        guard !archivist_libarchive_load(soname, &reason, reason.count) else { return nil }
        let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "libarchive, which reads zips and tars, cannot be loaded (\(text)); install it: apt install \(debianPackage)"
    }
}
