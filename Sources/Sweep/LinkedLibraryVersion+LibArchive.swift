import PropertyList
internal import CLibArchive

extension LinkedLibraryVersion {
    /// libarchive, which reads the zips and tars that sweep walks.
    public static var libarchive: LinkedLibraryVersion {
        LinkedLibraryVersion(
            name: "libarchive",
            compiledVersion: ARCHIVE_VERSION_ONLY_STRING,
            loadedVersion: dotted(Int(archive_version_number()), base: 1000)
        )
    }
}
