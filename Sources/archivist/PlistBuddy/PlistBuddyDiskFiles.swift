import Foundation
import PlistBuddy

/// The files of a PlistBuddy run, read and written as every archivist verb does: a file over
/// the size limit is refused before it is read, and a save is written beside the file, synced
/// and renamed over it, keeping its mode (through a symbolic link to the file it names).
/// `-` is a file of that name, as on a Mac, not standard input.
struct PlistBuddyDiskFiles: PlistBuddyFileSystem {
    static func onDisk(_ path: String) -> String { path == "-" ? "./-" : path }

    func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(Self.onDisk(path), &info) == 0
    }

    func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(Self.onDisk(path), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    func read(_ path: String, limit: Int) throws(PlistBuddyFileError) -> Data {
        do throws(CommandFailure) {
            return try InputFile(path: Self.onDisk(path)).read(limit: limit)
        } catch {
            throw PlistBuddyFileError(error.message)
        }
    }

    func write(_ data: Data, to path: String) throws(PlistBuddyFileError) {
        do throws(CommandFailure) {
            try OutputFile(path: Self.onDisk(path)).write(data)
        } catch {
            throw PlistBuddyFileError(error.message)
        }
    }
}
