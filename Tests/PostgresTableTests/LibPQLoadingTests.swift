import PropertyList
@testable import PostgresTable
import Testing

/// libpq is opened on first use, not linked (docs/architecture.md, "Libraries loaded on first
/// use"): a missing or wrong library is a typed error naming the package to install.
@Suite struct LibPQLoadingTests {
    @Test func libpqLoadsFromItsSonameAndReportsItsVersion() throws {
        try LibPQ.load()
        let loaded = try #require(LinkedLibraryVersion.libpq.loadedVersion)
        #expect(loaded.split(separator: ".").count == 2, "\(loaded)")
    }

    @Test func aLibpqThatIsNotInstalledIsATypedErrorNamingThePackageToInstall() {
        let error = #expect(throws: PostgresError.self) { try LibPQ.load(soname: "libpq.so.0-not-installed") }
        #expect(error?.code == .libraryMissing)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("PostgreSQL tables are read with libpq, which cannot be loaded (libpq.so.0-not-installed: "), "\(message)")
        #expect(message.hasSuffix("); install it: apt install libpq5"), "\(message)")
    }

    @Test func aLibraryWithoutLibpqsFunctionsIsRefusedNamingTheFirstOneItLacks() {
        // zlib is in every process that reads a Core Data model; it has none of libpq's functions.
        let error = #expect(throws: PostgresError.self) { try LibPQ.load(soname: "libz.so.1") }
        #expect(error?.code == .libraryMissing)
        #expect(error?.message.contains("(libz.so.1 has no function PQclear (too old a version?))") == true, "\(error?.message ?? "")")
    }

    @Test func aFailedLoadOfAnotherSonameLeavesTheLoadedLibpqInUse() throws {
        try LibPQ.load()
        #expect(throws: PostgresError.self) { try LibPQ.load(soname: "libpq.so.0-not-installed") }
        try LibPQ.load()
        #expect(LinkedLibraryVersion.libpq.loadedVersion != nil)
    }

    @Test func theLibraryOpenedIsTheOneDebiansLibpq5Ships() {
        #expect(LibPQ.soname == "libpq.so.5")
        #expect(LibPQ.debianPackage == "libpq5")
    }
}
