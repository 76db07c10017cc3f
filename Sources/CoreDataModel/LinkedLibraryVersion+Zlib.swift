import PropertyList
internal import CZlib

extension LinkedLibraryVersion {
    /// zlib, which inflates the model cache of Core Data stores.
    public static var zlib: LinkedLibraryVersion {
        LinkedLibraryVersion(name: "zlib", compiledVersion: ZLIB_VERSION, loadedVersion: String(cString: zlibVersion()))
    }
}
