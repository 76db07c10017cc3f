internal import CLibXML2
import PropertyList

extension LinkedLibraryVersion {
    /// libxml2, which reads XML property lists.
    public static var libxml2: LinkedLibraryVersion {
        // xmlParserVersion is the loaded library's LIBXML_VERSION as text ("20914").
        let loaded = archivist_libxml2_loaded_version().flatMap { Int(String(cString: $0)) }
        return LinkedLibraryVersion(
            name: "libxml2",
            compiledVersion: LIBXML_DOTTED_VERSION,
            loadedVersion: loaded.map { dotted($0, base: 100) } ?? "unknown"
        )
    }
}
