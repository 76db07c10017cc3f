import Foundation

/// The sweep's private folder for database copies, removed when the sweep ends.
///
/// SQLite reads only files, so a database inside a zip or tar is copied here first, with its
/// `-wal` and `-journal` beside it when the container holds them. A database in a folder is
/// copied here too, so that nothing the sweep does can change the evidence: even a read-only
/// SQLite connection creates `-shm` files and replays a `-wal` beside the database it opens.
final class TemporaryFolder: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var counter = 0

    init(parent: String) throws(SweepError) {
        let base = parent.isEmpty ? "/tmp" : parent
        var template = Array(((base.hasSuffix("/") ? base : base + "/") + "archivist-sweep-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw SweepError(path: base, message: "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// A new empty folder inside, for one database and its companions.
    func makeSlot() throws(SweepError) -> String {
        lock.lock()
        counter += 1
        let slot = path + "/\(counter)"
        lock.unlock()
        guard mkdir(slot, 0o700) == 0 else {
            throw SweepError(path: slot, message: "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        return slot
    }

    /// Removes a slot and everything in it.
    func remove(_ slot: String) {
        try? FileManager.default.removeItem(atPath: slot)
    }

    /// Removes the whole folder.
    func removeAll() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Copies the file at `source` to `destination`, reading it with a read-only descriptor
    /// that follows no link, up to `limit` bytes.
    static func copy(_ source: String, to destination: String, limit: Int) throws(SweepError) {
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw SweepError(path: source, message: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw SweepError(path: destination, message: "cannot write a temporary copy: \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw SweepError(path: source, message: "cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { return }
            total += n
            guard total <= limit else { throw SweepError(path: source, message: "more than \(limit) bytes (the database limit); not read further") }
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, n - offset) }
                if w < 0, errno == EINTR { continue }
                guard w > 0 else { throw SweepError(path: destination, message: "cannot write a temporary copy: \(String(cString: strerror(errno)))") }
                offset += w
            }
        }
    }
}
