import PropertyList
import PropertyListXML
import Testing

@Suite struct LinkedLibraryVersionTests {
    @Test(arguments: [
        (20914, 100, "2.9.14"),      // libxml2's LIBXML_VERSION for 2.9.14
        (21207, 100, "2.12.7"),
        (3006002, 1000, "3.6.2"),    // libarchive's ARCHIVE_VERSION_NUMBER for 3.6.2
        (3007004, 1000, "3.7.4"),
    ])
    func aPackedVersionNumberReadsAsDottedText(number: Int, base: Int, text: String) {
        #expect(LinkedLibraryVersion.dotted(number, base: base) == text)
    }

    @Test func theSummaryNamesTheLoadedVersionOnlyWhenItDiffersFromTheHeaders() {
        let same = LinkedLibraryVersion(name: "zlib", compiledVersion: "1.2.13", loadedVersion: "1.2.13")
        let upgraded = LinkedLibraryVersion(name: "zlib", compiledVersion: "1.2.13", loadedVersion: "1.3.1")
        #expect(same.summary == "zlib 1.2.13")
        #expect(upgraded.summary == "zlib 1.2.13 (loaded 1.3.1)")
    }

    @Test func aLibraryThatCannotBeLoadedIsSaidToBeNotInstalled() {
        let missing = LinkedLibraryVersion(name: "libpq", compiledVersion: "15.18", loadedVersion: nil)
        #expect(missing.summary == "libpq 15.18 (not installed)")
    }

    @Test func libxml2ReportsTheVersionOfItsHeadersAndOfTheLoadedLibrary() {
        let libxml2 = LinkedLibraryVersion.libxml2
        #expect(libxml2.name == "libxml2")
        #expect(libxml2.compiledVersion.split(separator: ".").count == 3, "\(libxml2.compiledVersion)")
        let loaded = libxml2.loadedVersion ?? "not installed"
        #expect(loaded.split(separator: ".").allSatisfy { Int($0) != nil }, "\(loaded)")
        #expect(loaded.split(separator: ".").count == 3, "\(loaded)")
    }
}
