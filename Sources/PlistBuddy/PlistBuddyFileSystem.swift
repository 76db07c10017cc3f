import Foundation

/// Why a file could not be read or written, in words for a message.
public struct PlistBuddyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// The files a session reads and writes: the document, and the files `Merge` and `Import` name.
/// The command line supplies one that writes as every archivist verb writes (synced, renamed
/// into place, mode kept); `PlistBuddyLocalFiles` is the plain one.
public protocol PlistBuddyFileSystem: Sendable {
    /// Whether anything is at `path`, symbolic links followed (what `stat` finds).
    func exists(_ path: String) -> Bool
    /// Whether `path` itself is a symbolic link.
    func isSymbolicLink(_ path: String) -> Bool
    /// The bytes of the file at `path`, refusing a file over `limit` bytes before reading it.
    func read(_ path: String, limit: Int) throws(PlistBuddyFileError) -> Data
    /// Replaces the file at `path` with `data`, whole or not at all.
    func write(_ data: Data, to path: String) throws(PlistBuddyFileError)
}

/// Files through Foundation: reads whole, writes atomically beside the file and renames it
/// into place, keeping the permissions of the file it replaces.
public struct PlistBuddyLocalFiles: PlistBuddyFileSystem {
    /// The folder relative paths start from; nil is the process's current directory.
    public var directory: String?

    public init(directory: String? = nil) {
        self.directory = directory
    }

    /// `path` on disk: relative paths under `directory`.
    func resolved(_ path: String) -> String {
        guard let directory, !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: directory).appendingPathComponent(path).path
    }

    public func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: resolved(path))
    }

    public func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: resolved(path))) != nil
    }

    public func read(_ path: String, limit: Int) throws(PlistBuddyFileError) -> Data {
        let path = resolved(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw PlistBuddyFileError("No such file or directory") }
        guard !isDirectory.boolValue else { throw PlistBuddyFileError("Is a directory") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limit {
            throw PlistBuddyFileError("the file is \(size) bytes, over the limit of \(limit)")
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= limit else { throw PlistBuddyFileError("the file is \(data.count) bytes, over the limit of \(limit)") }
            return data
        } catch let error as PlistBuddyFileError {
            throw error
        } catch {
            throw PlistBuddyFileError((error as NSError).localizedDescription)
        }
    }

    public func write(_ data: Data, to path: String) throws(PlistBuddyFileError) {
        let path = resolved(path)
        let url = URL(fileURLWithPath: path)
        let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions]
        do {
            try data.write(to: url, options: .atomic)
            if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path) }
        } catch {
            throw PlistBuddyFileError((error as NSError).localizedDescription)
        }
    }
}
