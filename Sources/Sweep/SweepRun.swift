import Foundation
import PropertyList
internal import SystemInterface

/// One sweep in progress: the workers, the queue between readers and workers, and the one
/// place items are emitted and counted.
final class SweepRun: @unchecked Sendable {
    /// What a worker does.
    enum Task {
        /// Look at files of a folder: (path to open, path to report).
        case files([(path: String, display: String)])
        /// Read a document a container reader took out.
        /// A document: a property list of `format`, or a typedstream, a compiled nib or bookmark
        /// data (`format` nil).
        case document(Data, path: String, format: PropertyListFormat?, strong: Bool)
        /// Read a database copied into `slot`.
        case database(slot: String, copy: String, display: String, size: Int)
    }

    let options: SweepOptions
    let analyzer: DocumentAnalyzer
    let databases: DatabaseSweep
    let temporary: TemporaryFolder
    let queue: SweepWorkQueue<Task>
    private let emitter: (SweepItem) -> Void
    private let progress: ((SweepProgress) -> Void)?
    private let shouldStop: (() -> Bool)?
    /// Guards everything below, and makes `emit` and `progress` calls one at a time.
    private let lock = NSLock()
    private var summary = SweepSummary()
    /// Set once `shouldStop` says so: nothing more is read or emitted.
    private var stopped = false
    private var bytesDone: Int64 = 0
    private var totalBytes: Int64 = 0
    private let start = DispatchTime.now().uptimeNanoseconds

    init(options: SweepOptions, emit: @escaping (SweepItem) -> Void, progress: ((SweepProgress) -> Void)?,
         shouldStop: (() -> Bool)? = nil) throws(SweepError) {
        var options = options
        options.jobs = max(1, options.jobs)
        self.options = options
        analyzer = DocumentAnalyzer(options: options, graphs: options.capturesGraphs ? GraphBudget(bytes: options.maximumGraphBytes) : nil)
        databases = DatabaseSweep(options: options, analyzer: analyzer)
        temporary = try TemporaryFolder(parent: options.temporaryDirectory)
        queue = SweepWorkQueue(capacity: options.jobs * 8, byteLimit: options.maximumBytesWaiting)
        emitter = emit
        self.progress = progress
        self.shouldStop = shouldStop
    }

    /// Whether the caller asked the sweep to stop.
    var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    // MARK: Running

    func run(_ paths: [String]) -> SweepSummary {
        defer { temporary.removeAll() }
        if progress != nil { totalBytes = paths.reduce(0) { $0 + Self.totalSize(of: $1) } }
        WorkerThreads.run(count: options.jobs, stackSize: options.workerStackSize, { [self] _ in
            while let (task, bytes) = queue.next() {
                // Once stopped, the tasks left are only taken off the queue.
                if !isStopped { perform(task) }
                queue.done(bytes: bytes)
            }
        }, meanwhile: {
            for path in paths where !isStopped { produce(path) }
            queue.finishProducing()
        })
        lock.lock()
        defer { lock.unlock() }
        summary.seconds = elapsed
        return summary
    }

    /// Walks a folder, or reads a container given by path, on the calling thread.
    func produce(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            emit(.unreadable(path, size: 0, "cannot read: \(String(cString: strerror(errno)))"))
            return
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            var batch: [(path: String, display: String)] = []
            FolderWalker.walk(path, file: { file, display in
                batch.append((file, display))
                if batch.count == 16 {
                    queue.submit(.files(batch), bytes: 0)
                    batch.removeAll(keepingCapacity: true)
                }
            }, skipped: { skip() }, failed: { display, message in
                emit(.unreadable(display, size: 0, message))
            }, shouldContinue: { !isStopped })
            if !batch.isEmpty { queue.submit(.files(batch), bytes: 0) }
        } else if Self.isContainer(path) {
            // A container given by path is read here, so that a whole extraction in one tar is
            // read by this thread while the workers read what it takes out.
            examine(file: path, display: path, isWorker: false)
        } else {
            // Anything else is read by a worker, on the stack the options give.
            queue.submit(.files([(path, path)]), bytes: 0)
        }
    }

    /// Whether the file's head says zip, tar or compressed data.
    static func isContainer(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = Data(count: ItemSniffer.headSize)
        let got = head.withUnsafeMutableBytes { readFully(fd, into: $0, at: 0) }
        guard got > 0 else { return false }
        head.count = got
        switch ItemSniffer.sniff(head, includesJSON: false) {
        case .container, .compressed: return true
        default: return false
        }
    }

    func perform(_ task: Task) {
        switch task {
        case .files(let files):
            for file in files where !isStopped { examine(file: file.path, display: file.display, isWorker: true) }
        case .document(let data, let path, let format, let strong):
            analyzer.analyze(data, path: path, format: format, strong: strong, emit: emit)
        case .database(let slot, let copy, let display, let size):
            databases.sweep(at: copy, displayPath: display, size: size, emit: emit)
            temporary.remove(slot)
        }
    }

    /// Hands a task to the workers; a worker that finds the queue full does it itself.
    func submit(_ task: Task, bytes: Int, isWorker: Bool) {
        if isWorker {
            if !queue.trySubmit(task, bytes: bytes) { perform(task) }
        } else {
            queue.submit(task, bytes: bytes)
        }
    }

    // MARK: Emitting and counting

    func emit(_ item: SweepItem) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        summary.add(item)
        emitter(item)
        if let shouldStop, shouldStop() { stopped = true }
    }

    /// Emits the record of a zip or tar left unopened because libarchive cannot be loaded, and
    /// counts it: the sweep is then incomplete (`SweepSummary.containersNotOpened`).
    func emitUnopened(_ item: SweepItem) {
        lock.lock()
        if !stopped { summary.containersNotOpened += 1 }
        lock.unlock()
        emit(item)
    }

    func skip() {
        lock.lock()
        summary.skipped += 1
        lock.unlock()
    }

    func countContainer() {
        lock.lock()
        summary.containers += 1
        lock.unlock()
    }

    /// Counts one file or member looked at: `size` for the summary, `physical` bytes of the
    /// given paths read through, for progress.
    func examined(size: Int, physical: Int64) {
        lock.lock()
        defer { lock.unlock() }
        summary.examined += 1
        summary.examinedBytes += Int64(size)
        bytesDone += physical
        if let progress {
            progress(SweepProgress(examined: summary.examined, items: summary.items, bytes: bytesDone,
                                   totalBytes: max(totalBytes, bytesDone), elapsed: elapsed))
        }
    }

    /// The bytes a path will be read through: a file's size, or a folder's files' sizes.
    static func totalSize(of path: String) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        guard info.st_mode & S_IFMT == S_IFDIR else { return Int64(info.st_size) }
        var total: Int64 = 0
        FolderWalker.walk(path, file: { file, _ in
            var fileInfo = stat()
            if lstat(file, &fileInfo) == 0 { total += Int64(fileInfo.st_size) }
        }, skipped: {}, failed: { _, _ in })
        return total
    }

    // MARK: Files

    /// Looks at one file: sniffs its head, then reads it as a document, a database or a
    /// container, or leaves it as noise.
    func examine(file path: String, display: String, isWorker: Bool) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            examined(size: 0, physical: 0)
            emit(.unreadable(display, size: 0, "cannot open: \(String(cString: strerror(errno)))"))
            return
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            skip()
            return
        }
        let size = Int(info.st_size)
        var head = Data(count: min(ItemSniffer.headSize, max(size, 0)))
        let got = head.withUnsafeMutableBytes { Self.readFully(fd, into: $0, at: 0) }
        guard got >= 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            examined(size: size, physical: Int64(size))
            emit(.unreadable(display, size: size, "cannot read: \(reason)"))
            return
        }
        head.count = got
        let sniff = ItemSniffer.sniff(head, includesJSON: options.includesJSON)
        switch sniff {
        case .noise:
            close(fd)
            examined(size: size, physical: Int64(size))
        case .propertyList, .typedStream, .nibArchive, .bookmark:
            let (format, strong) = sniff.document ?? (nil, false)
            defer { close(fd) }
            examined(size: size, physical: Int64(size))
            guard size <= options.maximumItemSize else {
                if strong {
                    emit(.unreadable(display, format: format, size: size,
                                     "\(size) bytes, over the per-item limit of \(options.maximumItemSize) (--max-input-size); not read"))
                }
                return
            }
            guard let data = Self.readWhole(fd, size: size, head: head, limit: options.maximumItemSize) else {
                emit(.unreadable(display, format: format, size: size, "cannot read: \(String(cString: strerror(errno)))"))
                return
            }
            analyzer.analyze(data, path: display, format: format, strong: strong, emit: emit)
        case .sqlite:
            close(fd)
            examined(size: size, physical: Int64(size))
            sweepDatabase(file: path, display: display, size: size, isWorker: isWorker)
        case .container, .compressed:
            close(fd)
            if let missing = LibArchive.loadFailure() {
                examined(size: size, physical: Int64(size))
                emitUnopened(.unreadable(display, size: size, "not opened: " + missing))
                return
            }
            let reader: ContainerReader
            do {
                reader = try ContainerReader(path: path)
            } catch {
                examined(size: size, physical: Int64(size))
                if sniff == .container { emit(.unreadable(display, size: size, "damaged container: \(error.description)")) }
                return
            }
            // A path given directly is read through for progress as it goes; a container met
            // in a folder counts its whole size at once.
            let direct = !isWorker && display == path
            if !direct { examined(size: 0, physical: Int64(size)) }
            let opened = read(reader, display: display, size: size, depth: 1, mayBeNoise: sniff == .compressed,
                              isWorker: isWorker, tracksProgress: direct)
            if direct, !opened { examined(size: size, physical: Int64(size)) }
        }
    }

    /// Reads `buffer.count` bytes at `offset`, or fewer at the end of the file; -1 on error.
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        FileIO.readFully(fd, into: buffer, at: offset)
    }

    /// The whole file, `head` first; nil on a read error. A file that grew past `limit` since
    /// it was measured is cut there.
    static func readWhole(_ fd: Int32, size: Int, head: Data, limit: Int) -> Data? {
        guard size > head.count else { return head }
        var data = Data(count: min(size, limit))
        let got = data.withUnsafeMutableBytes { raw -> Int in
            raw.copyBytes(from: head)
            let rest = UnsafeMutableRawBufferPointer(rebasing: raw[head.count...])
            let n = readFully(fd, into: rest, at: head.count)
            return n < 0 ? -1 : head.count + n
        }
        guard got >= 0 else { return nil }
        data.count = got
        return data
    }

    /// Reads a database in a folder where it lies, through `StoreConnection.openForReading`
    /// (which changes nothing there, and sees the rows its `-wal` holds), after checking that it
    /// and its `-wal` and `-journal` are within `maximumDatabaseSize`.
    func sweepDatabase(file path: String, display: String, size: Int, isWorker: Bool) {
        var total = size
        for suffix in ["-wal", "-journal"] {
            var info = stat()
            if stat(path + suffix, &info) == 0 { total += Int(info.st_size) }
        }
        guard total <= options.maximumDatabaseSize else {
            emit(.unreadable(display, size: size,
                             "\(total) bytes with its journal, over the database limit of \(options.maximumDatabaseSize) (--max-database-size); not read"))
            return
        }
        databases.sweep(at: path, displayPath: display, size: size, emit: emit)
    }

    // MARK: Containers

    /// A database member copied out, waiting for the container's end, where its `-wal` or
    /// `-journal` may follow it.
    struct PendingDatabase {
        var slot: String
        var display: String
        var size: Int
    }

    /// Reads every member of a container. Returns false when a compressed file turned out to
    /// hold no container (it is then noise); true otherwise, damaged or not.
    @discardableResult
    func read(_ reader: ContainerReader, display: String, size: Int, depth: Int, mayBeNoise: Bool, isWorker: Bool,
              tracksProgress: Bool) -> Bool {
        var members = 0
        var consumed: Int64 = 0
        var databases: [String: PendingDatabase] = [:]
        var order: [String] = []
        /// `-wal` and `-journal` members, copied out by name until their database is known.
        var companions: [String: String] = [:]
        func account(_ memberSize: Int) {
            let physical = tracksProgress ? reader.bytesConsumed - consumed : 0
            if tracksProgress { consumed = reader.bytesConsumed }
            examined(size: memberSize, physical: physical)
        }
        defer {
            for (name, path) in companions {
                let base = String(name.dropLast(name.hasSuffix("-wal") ? 4 : 8))
                if let database = databases[base] {
                    let target = database.slot + "/database" + (name.hasSuffix("-wal") ? "-wal" : "-journal")
                    if rename(path, target) != 0 { try? FileManager.default.removeItem(atPath: path) }
                } else {
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
            for name in order {
                guard let database = databases[name] else { continue }
                submit(.database(slot: database.slot, copy: database.slot + "/database", display: database.display, size: database.size),
                       bytes: 0, isWorker: isWorker)
            }
            if tracksProgress { account(0) }
        }
        while !isStopped {
            let member: ContainerReader.Member
            do {
                guard let next = try reader.nextMember() else { break }
                member = next
            } catch {
                if members == 0, mayBeNoise, error.unrecognized { return false }
                emit(.unreadable(display, size: size, "damaged container: \(error.description)"
                                 + (members > 0 ? " (after \(members) \(members == 1 ? "member" : "members"))" : "")))
                break
            }
            if members == 0 { countContainer() }
            members += 1
            let path = SweepPath.member(display, member.name)
            let declared = member.declaredSize ?? 0
            if member.isEncrypted {
                account(declared)
                emit(.unreadable(path, size: declared, "encrypted; not read"))
                continue
            }
            let head: Data
            do {
                head = try reader.readHead(ItemSniffer.headSize)
            } catch {
                account(declared)
                emit(.unreadable(path, size: declared, "cannot read: \(error.description)"))
                continue
            }
            account(member.declaredSize ?? head.count)
            if member.name.hasSuffix("-wal") || member.name.hasSuffix("-journal") {
                if let copy = copyOut(reader, head: head, path: path, limit: options.maximumDatabaseSize) {
                    if let old = companions[member.name] { try? FileManager.default.removeItem(atPath: old) }
                    companions[member.name] = copy
                }
                continue
            }
            let sniff = ItemSniffer.sniff(head, includesJSON: options.includesJSON)
            switch sniff {
            case .noise:
                continue
            case .propertyList, .typedStream, .nibArchive, .bookmark:
                let (format, strong) = sniff.document ?? (nil, false)
                if let declaredSize = member.declaredSize, declaredSize > options.maximumItemSize {
                    if strong {
                        emit(.unreadable(path, format: format, size: declaredSize,
                                         "\(declaredSize) bytes, over the per-item limit of \(options.maximumItemSize) (--max-input-size); not read"))
                    }
                    continue
                }
                do {
                    let data = try reader.readRest(after: head, limit: options.maximumItemSize)
                    submit(.document(data, path: path, format: format, strong: strong), bytes: data.count, isWorker: isWorker)
                } catch {
                    if strong || !error.overLimit { emit(.unreadable(path, format: format, size: member.declaredSize ?? 0, error.description)) }
                }
            case .sqlite:
                guard let slot = try? temporary.makeSlot() else {
                    emit(.unreadable(path, size: declared, "cannot make a temporary folder for the database"))
                    continue
                }
                let copy = slot + "/database"
                let fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                guard fd >= 0 else {
                    temporary.remove(slot)
                    emit(.unreadable(path, size: declared, "cannot write a temporary copy: \(String(cString: strerror(errno)))"))
                    continue
                }
                do {
                    try reader.copyRest(after: head, to: fd, limit: options.maximumDatabaseSize)
                    close(fd)
                    if let earlier = databases[member.name] { temporary.remove(earlier.slot) } else { order.append(member.name) }
                    databases[member.name] = PendingDatabase(slot: slot, display: path, size: member.declaredSize ?? fileSize(copy))
                } catch {
                    close(fd)
                    temporary.remove(slot)
                    emit(.unreadable(path, size: declared, error.description))
                }
            case .container, .compressed:
                guard depth < options.maximumContainerDepth else {
                    emit(.unreadable(path, size: declared, "a container nested \(depth + 1) deep, past the limit of \(options.maximumContainerDepth) (--max-container-depth); not opened"))
                    continue
                }
                do {
                    let inner = try ContainerReader(member: reader, head: head)
                    read(inner, display: path, size: declared, depth: depth + 1, mayBeNoise: sniff == .compressed,
                         isWorker: isWorker, tracksProgress: false)
                } catch {
                    if sniff == .container { emit(.unreadable(path, size: declared, "damaged container: \(error.description)")) }
                }
            }
        }
        return true
    }

    /// Copies the rest of the current member to a temporary file; nil (and a record) on failure.
    func copyOut(_ reader: ContainerReader, head: Data, path: String, limit: Int) -> String? {
        guard let slot = try? temporary.makeSlot() else { return nil }
        let copy = slot + "/companion"
        let fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        do {
            try reader.copyRest(after: head, to: fd, limit: limit)
            return copy
        } catch {
            emit(.unreadable(path, size: 0, error.description))
            return nil
        }
    }

    func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
