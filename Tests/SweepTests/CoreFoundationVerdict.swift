import Foundation

/// Whether Core Foundation reads some bytes as a property list: the call
/// `PropertyListSerialization.propertyList(from:options:format:)` makes on Linux
/// (`CFPropertyListCreateWithData`), without its bridge to Swift values, which crashes on some
/// values CF reads (a set whose members Swift cannot hash). Looked up by name in Foundation.
enum CoreFoundationVerdict {
    private typealias Create = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer, UInt, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeRawPointer?>?) -> UnsafeRawPointer?
    private typealias DataCreate = @convention(c) (UnsafeRawPointer?, UnsafePointer<UInt8>?, Int) -> UnsafeRawPointer?
    private typealias Release = @convention(c) (UnsafeRawPointer) -> Void

    private static let functions: (create: Create, dataCreate: DataCreate, release: Release)? = {
        _ = PropertyListSerialization.self
        guard let handle = dlopen(nil, RTLD_NOW), let c = dlsym(handle, "CFPropertyListCreateWithData"),
              let d = dlsym(handle, "CFDataCreate"), let r = dlsym(handle, "CFRelease") else { return nil }
        return (unsafeBitCast(c, to: Create.self), unsafeBitCast(d, to: DataCreate.self), unsafeBitCast(r, to: Release.self))
    }()

    /// Whether CF reads `data`; nil when CF's functions are not in the process.
    static func reads(_ data: Data) -> Bool? {
        guard let f = functions else { return nil }
        return data.withUnsafeBytes { raw -> Bool in
            guard let cfData = f.dataCreate(nil, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count) else { return false }
            defer { f.release(cfData) }
            var error: UnsafeRawPointer?
            let plist = f.create(nil, cfData, 0, nil, &error)
            if let error { f.release(error) }
            guard let plist else { return false }
            f.release(plist)
            return true
        }
    }
}
