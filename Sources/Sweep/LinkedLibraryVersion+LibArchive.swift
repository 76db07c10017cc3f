import PropertyList
internal import CLibArchive

extension LinkedLibraryVersion {
    /// libarchive, which reads the zips and tars that sweep walks; reading its version loads it
    /// (`LibArchive`), and a libarchive that is not installed has none.
    public static var libarchive: LinkedLibraryVersion {
        LinkedLibraryVersion(
            name: "libarchive",
            compiledVersion: ARCHIVE_VERSION_ONLY_STRING,
            loadedVersion: LibArchive.loadFailure() == nil ? dotted(Int(archive_version_number()), base: 1000) : nil
        )
    }
}
