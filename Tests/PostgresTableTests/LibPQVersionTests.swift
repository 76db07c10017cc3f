import PropertyList
@testable import PostgresTable
import Testing

@Suite struct LibPQVersionTests {
    @Test(arguments: [
        (150018, "15.18"),   // PostgreSQL 10 and later: major * 10000 + minor
        (170002, "17.2"),
        (100000, "10.0"),
        (90624, "9.6.24"),   // before 10: major * 10000 + minor * 100 + patch
    ])
    func postgresVersionNumbersReadAsPostgreSQLWritesThem(number: Int, text: String) {
        #expect(LinkedLibraryVersion.postgresVersion(number) == text)
    }

    @Test func libpqReportsAVersionForItsHeadersAndForTheLoadedLibrary() {
        let libpq = LinkedLibraryVersion.libpq
        #expect(libpq.name == "libpq")
        for version in [libpq.compiledVersion, libpq.loadedVersion ?? "not installed"] {
            #expect(version.split(separator: ".").count == 2 && version.split(separator: ".").allSatisfy { Int($0) != nil }, "\(version)")
        }
    }
}
