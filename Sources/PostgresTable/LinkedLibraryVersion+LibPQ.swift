import PropertyList
internal import CLibPQ

extension LinkedLibraryVersion {
    /// libpq, PostgreSQL's client library, which scan and migrate use for tables; reading its
    /// version loads it (`LibPQ`), and a libpq that is not installed has none.
    public static var libpq: LinkedLibraryVersion {
        LinkedLibraryVersion(
            name: "libpq",
            compiledVersion: postgresVersion(Int(PG_VERSION_NUM)),
            loadedVersion: LibPQ.isLoadable ? postgresVersion(Int(PQlibVersion())) : nil
        )
    }

    /// PostgreSQL packs its version as major * 10000 + minor since version 10 (150018 is 15.18),
    /// and as major * 10000 + minor * 100 + patch before (90624 is 9.6.24).
    static func postgresVersion(_ number: Int) -> String {
        number >= 100_000 ? "\(number / 10000).\(number % 10000)" : dotted(number, base: 100)
    }
}
