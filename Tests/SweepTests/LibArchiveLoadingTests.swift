import PropertyList
@testable import Sweep
import Testing

/// libarchive is opened the first time a sweep meets a zip or a tar, not linked
/// (docs/architecture.md, "Libraries loaded on first use"): a missing or wrong library is said
/// in our words, naming the package to install.
@Suite struct LibArchiveLoadingTests {
    @Test func libarchiveLoadsFromItsSonameAndReportsItsVersion() throws {
        #expect(LibArchive.loadFailure() == nil)
        let libarchive = LinkedLibraryVersion.libarchive
        let loaded = try #require(libarchive.loadedVersion)
        #expect(loaded.split(separator: ".").count == 3 && loaded.split(separator: ".").allSatisfy { Int($0) != nil }, "\(loaded)")
    }

    @Test func aLibarchiveThatIsNotInstalledIsSaidNamingThePackageToInstall() throws {
        let message = try #require(LibArchive.loadFailure(soname: "libarchive.so.0-not-installed"))
        #expect(message.hasPrefix("libarchive, which reads zips and tars, cannot be loaded (libarchive.so.0-not-installed: "), "\(message)")
        #expect(message.hasSuffix("); install it: apt install libarchive13"), "\(message)")
    }

    @Test func aLibraryWithoutLibarchivesFunctionsIsRefusedNamingTheFirstOneItLacks() throws {
        let message = try #require(LibArchive.loadFailure(soname: "libz.so.1"))
        #expect(message.contains("(libz.so.1 has no function archive_entry_filetype (too old a version?))"), "\(message)")
        #expect(LibArchive.loadFailure() == nil)
    }

    @Test func theLibraryOpenedIsTheOneDebiansLibarchive13Ships() {
        #expect(LibArchive.soname == "libarchive.so.13")
        #expect(LibArchive.debianPackage == "libarchive13")
    }
}
