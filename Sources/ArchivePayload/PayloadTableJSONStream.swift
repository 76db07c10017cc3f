import Foundation
import KeyedArchive
@_spi(Writers) import PropertyList

extension PayloadMapper {
    /// The payload of the archive's root object as JSON, written from `table` without decoding
    /// its objects: the bytes `json(of:options:)` gives for the decoded archive.
    ///
    /// Nil when the root, or an object on the way, is not in a layout the table describes
    /// (`KeyedArchiveObjectTable.Content.undecoded`), holds a nested payload to expand, or when
    /// the walk meets anything the ordinary one reports (a cycle, a limit, a key that is not a
    /// string): the caller then decodes the archive and writes it the ordinary way.
    public func json(of table: KeyedArchiveObjectTable, options jsonOptions: JSONWriteOptions = .init()) -> Data? {
        var written: Data?
        _ = writeJSON(of: table, options: jsonOptions, capacity: min(table.count, 1 << 24) * 24 + 4096, drain: nil) { written = $0 }
        return written
    }

    /// Writes the JSON `json(of:options:)` gives to `drain` a chunk of about `chunkSize` bytes
    /// at a time, as the table is walked, so that it is never held whole. Returns false when
    /// the walk does not take the archive (see `json(of:options:)`), which it may find after
    /// some chunks were handed on: the caller must then drop them.
    public func writeJSON(of table: KeyedArchiveObjectTable, options jsonOptions: JSONWriteOptions = .init(), chunkSize: Int = 1 << 20,
                          to drain: (UnsafeRawBufferPointer) -> Void) -> Bool {
        withoutActuallyEscaping(drain) { drain in
            writeJSON(of: table, options: jsonOptions, capacity: chunkSize + 64 << 10, chunkSize: chunkSize, drain: drain) { _ in }
        }
    }

    /// The walk of `json(of:options:)` and `writeJSON(of:options:chunkSize:to:)`: the output
    /// handed to `drain` as it passes `chunkSize`, or without a drain given whole to `finished`.
    func writeJSON(of table: KeyedArchiveObjectTable, options jsonOptions: JSONWriteOptions, capacity: Int, chunkSize: Int = 1 << 20,
                   drain: ((UnsafeRawBufferPointer) -> Void)?, finished: (Data) -> Void) -> Bool {
        guard case .object(let root)? = table.root else { return false }
        var mapping = options
        mapping.target = .json
        return table.withReader { reader -> Bool in
            var stream = TableJSONStream(options: mapping, objectCount: table.count, chunkSize: chunkSize, drain: drain)
            return Self.emitJSON(options: jsonOptions, capacity: capacity, drain: drain, finished: finished) { emitter in
                do throws(TableJSONStream.Stop) {
                    try stream.writeReference(root, depth: 0, level: 0, reader: &reader, into: &emitter)
                    return true
                } catch {
                    return false
                }
            }
        }
    }

    /// An emitter of `jsonOptions` for `write`; when that writes the whole value (true), what it
    /// left in the emitter goes to `drain`, or without a drain the whole JSON to `finished`.
    static func emitJSON(options jsonOptions: JSONWriteOptions, capacity: Int, drain: ((UnsafeRawBufferPointer) -> Void)?,
                         finished: (Data) -> Void, _ write: (inout JSONEmitter) -> Bool) -> Bool {
        var emitter = JSONEmitter(options: jsonOptions, capacity: capacity)
        guard write(&emitter) else { return false }
        if let drain {
            emitter.out.drain(drain)
        } else {
            finished(emitter.data())
        }
        return true
    }

    /// `JSONStream` over a `KeyedArchiveObjectTable`: each function writes what its counterpart
    /// there writes for the decoded object, with the same counts and checks, and stops where
    /// that one would throw or would take a path this one does not follow.
    struct TableJSONStream {
        /// Thrown to give the archive back to the ordinary walk.
        struct Stop: Error {}

        let options: PayloadOptions
        /// `Walk.ancestors`: per UID, whether the object is on the way to the current value.
        var ancestors: [Bool]
        /// With `breaksCycles`: per UID on the way, how many of `path`'s tokens lead to it; and
        /// the JSON Pointer tokens of the value being written. Empty otherwise.
        var depthOnPath: [Int32] = []
        var path: [String] = []
        /// `Walk.produced`.
        var produced = 0
        /// The keys of the last dictionary written, by their UIDs: each as written as a JSON key
        /// (the string and the colon), kept apart from the output (which may have been handed
        /// on since) in `lastKeyBytes` at `lastKeyTexts`, and the writing order when keys are
        /// sorted.
        var lastKeyUIDs: [UInt32] = []
        var lastKeyBytes: [UInt8] = []
        var lastKeyTexts: [Range<Int>] = []
        var lastKeyOrder: [Int] = []
        /// Where the output goes once it passes `chunkSize` bytes; nil keeps it all.
        let drain: ((UnsafeRawBufferPointer) -> Void)?
        let chunkSize: Int

        init(options: PayloadOptions, objectCount: Int, chunkSize: Int = 1 << 20, drain: ((UnsafeRawBufferPointer) -> Void)? = nil) {
            self.options = options
            self.chunkSize = chunkSize
            self.drain = drain
            ancestors = [Bool](repeating: false, count: objectCount)
            if options.breaksCycles { depthOnPath = [Int32](repeating: 0, count: objectCount) }
        }

        /// Hands the output on once it passes the chunk size.
        @inline(__always)
        func drainIfFull(_ e: inout JSONEmitter) {
            e.out.drain(ifAtLeast: chunkSize, to: drain)
        }

        /// `Walk.count`.
        @inline(__always)
        mutating func count(_ n: Int) throws(Stop) {
            produced += n
            guard produced <= options.maximumValueCount else { throw Stop() }
        }

        /// `JSONStream.write(.object(uid))` and `.null` for UID 0.
        mutating func writeReference(_ uid: Int, depth: Int, level: Int, reader: inout KeyedArchiveObjectTable.Reader,
                                     into e: inout JSONEmitter) throws(Stop) {
            guard depth <= options.maximumDepth else { throw Stop() }
            try count(1)
            guard uid != 0 else { return e.out.append("null") }
            switch reader.content(of: uid) {
            case .string:
                guard reader.withUTF8(ofElement: uid, { e.writeString(utf8: $0) }) != nil else { throw Stop() }
            case .number:
                do { try e.write(reader.element(uid), level: level) } catch { throw Stop() }
            case .date:
                do { try e.write(reader.element(uid), level: level) } catch { throw Stop() }
            case .data:
                guard case .data(let d) = reader.element(uid) else { throw Stop() }
                // A nested payload to expand takes the ordinary walk.
                if options.expandsNestedPayloads, NestedPayload.identify(d) != nil { throw Stop() }
                e.writeData(d, level: level)
            case .dateObject(let date):
                do { try e.write(.date(date), level: level) } catch { throw Stop() }
            case .array(let range), .set(let range):
                guard try enter(uid) else { return try writeCycleReference(to: uid, level: level, into: &e) }
                try writeElements(range, depth: depth, level: level, reader: &reader, into: &e)
                ancestors[uid] = false
            case .dictionary(let keys, let values):
                guard try enter(uid) else { return try writeCycleReference(to: uid, level: level, into: &e) }
                try writeDictionary(keys: keys, values: values, depth: depth, level: level, reader: &reader, into: &e)
                ancestors[uid] = false
            case .url(let base, let relative):
                // A URL without a base is its relative string; a chain of bases takes the ordinary walk.
                guard case .null = base, reader.withUTF8(of: relative, { e.writeString(utf8: $0) }) != nil else { throw Stop() }
            case .uuid(let uuid):
                e.writeString(uuid.uppercaseText)
            case .null:
                // NSNull holds nothing to enter: `Walk.map` makes it null.
                e.out.append("null")
            case .undecoded, .notDecoded:
                throw Stop()
            }
        }

        /// `Walk.enter`: false for a cycle that is broken (a reference is written instead); any
        /// other cycle is reported by the ordinary walk.
        @inline(__always)
        mutating func enter(_ uid: Int) throws(Stop) -> Bool {
            guard !ancestors[uid] else {
                guard options.breaksCycles else { throw Stop() }
                return false
            }
            ancestors[uid] = true
            if options.breaksCycles { depthOnPath[uid] = Int32(truncatingIfNeeded: path.count) }
            return true
        }

        /// `Walk.reference`: the reference to object `uid`, which is on the way here.
        mutating func writeCycleReference(to uid: Int, level: Int, into e: inout JSONEmitter) throws(Stop) {
            let target = Array(path.prefix(Int(depthOnPath[uid])))
            do { try e.write(PayloadReference.object(to: target), level: level) } catch { throw Stop() }
        }

        /// `JSONStream.writeElements`.
        mutating func writeElements(_ range: Range<Int>, depth: Int, level: Int, reader: inout KeyedArchiveObjectTable.Reader,
                                    into e: inout JSONEmitter) throws(Stop) {
            guard !range.isEmpty else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            let uids = reader.uids
            e.out.append(UInt8(ascii: "["))
            for i in range {
                if i > range.lowerBound { e.out.append(UInt8(ascii: ",")) }
                e.newline(level + 1)
                if options.breaksCycles { path.append(String(i - range.lowerBound)) }
                try writeReference(Int(uids[i]), depth: depth + 1, level: level + 1, reader: &reader, into: &e)
                if options.breaksCycles { path.removeLast() }
                drainIfFull(&e)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        /// `JSONStream.writeDictionary` of a dictionary whose keys are all strings: the keys
        /// counted at `depth + 1`, then each value under its key. The keys of a dictionary with
        /// the key UIDs of the one before are copied from where that one's were written.
        mutating func writeDictionary(keys: Range<Int>, values: Range<Int>, depth: Int, level: Int,
                                      reader: inout KeyedArchiveObjectTable.Reader, into e: inout JSONEmitter) throws(Stop) {
            let uids = reader.uids
            let count = keys.count
            guard depth + 1 <= options.maximumDepth else { throw Stop() }
            try self.count(count)
            // With cycles broken, each value's key is a token of the path: the names are needed.
            let same = !options.breaksCycles && lastKeyUIDs.count == count && uids.withUnsafeBufferPointer { u in
                lastKeyUIDs.withUnsafeBufferPointer { last in
                    UnsafeBufferPointer(rebasing: u[keys]).elementsEqual(last)
                }
            }
            var names: [String] = []
            var order: [Int] = []
            var texts: [Range<Int>] = []
            // The dictionaries inside replace the last keys with their own: these stay here.
            var keyBytes: [UInt8] = []
            if same {
                order = lastKeyOrder
                texts = lastKeyTexts
                keyBytes = lastKeyBytes
            } else {
                names = try keyNames(keys, reader: &reader)
                if e.sortsKeys { order = JSONEmitter.sortedKeyOrder(names.map { Array($0.utf8) }) }
                texts = Array(repeating: 0..<0, count: count)
            }
            guard count > 0 else { return e.writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: level) }
            e.out.append(UInt8(ascii: "{"))
            for n in 0..<count {
                let i = e.sortsKeys ? order[n] : n
                if n > 0 { e.out.append(UInt8(ascii: ",")) }
                e.newline(level + 1)
                if same {
                    keyBytes.withUnsafeBytes { e.out.append(UnsafeRawBufferPointer(rebasing: $0[texts[i]])) }
                } else {
                    let start = e.out.length
                    e.writeString(names[i])
                    e.writeColon()
                    let from = keyBytes.count
                    keyBytes.append(contentsOf: e.out.bytes(start..<e.out.length))
                    texts[i] = from..<keyBytes.count
                }
                if options.breaksCycles { path.append(names[i]) }
                try writeReference(Int(uids[values.lowerBound + i]), depth: depth + 1, level: level + 1, reader: &reader, into: &e)
                if options.breaksCycles { path.removeLast() }
                drainIfFull(&e)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
            if !same {
                lastKeyUIDs = Array(uids[keys])
                lastKeyBytes = keyBytes
                lastKeyTexts = texts
                lastKeyOrder = order
            }
        }

        /// The strings of the keys at `uids[keys]`; each must be a string object, as the ordinary
        /// walk requires of a dictionary it streams.
        mutating func keyNames(_ keys: Range<Int>, reader: inout KeyedArchiveObjectTable.Reader) throws(Stop) -> [String] {
            let uids = reader.uids
            var names: [String] = []
            names.reserveCapacity(keys.count)
            for i in keys {
                let uid = Int(uids[i])
                guard case .string = reader.content(of: uid), case .string(let name) = reader.element(uid) else { throw Stop() }
                names.append(name)
            }
            return names
        }
    }
}
