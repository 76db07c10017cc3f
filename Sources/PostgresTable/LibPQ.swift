internal import CLibPQ

/// libpq, opened the first time a command reaches a PostgreSQL table rather than linked, so that
/// no other command pays for loading it and what it pulls in (OpenSSL, Kerberos, LDAP…); see
/// docs/architecture.md, "Libraries loaded on first use".
package enum LibPQ {
    /// The library Archivist opens: the one Debian's `libpq5` ships.
    package static let soname = ARCHIVIST_LIBPQ_SONAME
    /// The Debian package to install when it is missing.
    package static let debianPackage = ARCHIVIST_LIBPQ_PACKAGE

    /// Opens libpq from `soname` unless it is open already; every connection calls it first.
    ///
    /// - Throws: `PostgresError` `.libraryMissing`, naming the package to install, when the
    ///   library cannot be opened or lacks a function Archivist calls.
    package static func load(soname: String = soname) throws(PostgresError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard !archivist_libpq_load(soname, &reason, reason.count) else { return }
        let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw PostgresError(.libraryMissing, "PostgreSQL tables are read with libpq, which cannot be loaded (\(text)); "
                                + "install it: apt install \(debianPackage)")
    }

    /// Whether libpq can be loaded; for `--version`, which reports it rather than fail.
    static var isLoadable: Bool {
        (try? load()) != nil
    }
}
