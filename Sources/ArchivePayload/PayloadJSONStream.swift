import Foundation
import KeyedArchive
@_spi(Writers) import PropertyList

extension PayloadMapper {
    /// The payload of the archive's root object as JSON: the bytes of
    /// `JSONPropertyListWriter(options:).write(payload(of:))`, written as the archive is walked,
    /// without building the payload first.
    ///
    /// Arrays, dictionaries with string keys, strings, numbers, dates, URLs and UUIDs stream;
    /// rarer content is mapped as `payload(of:)` maps it and written whole. Should anything go
    /// wrong (a cycle, a limit, a real JSON cannot hold), the payload is mapped and written the
    /// ordinary way, which reports the error as it always does.
    ///
    /// - Throws: `PayloadError` as `payload(of:)` throws it, or `PropertyListError` as the JSON
    ///   writer throws it.
    public func json(of archive: KeyedArchive, options jsonOptions: JSONWriteOptions = .init()) throws -> Data {
        var mapping = options
        mapping.target = .json
        let mapper = PayloadMapper(options: mapping)
        guard let root = archive.root else { return try mapper.jsonWritingPayload(of: archive, jsonOptions) }
        var stream = JSONStream(walk: Walk(archive: archive, options: mapping))
        var emitter = JSONEmitter(options: jsonOptions, capacity: min(archive.objects.count, 1 << 24) * 32 + 4096)
        do {
            try stream.write(root, depth: 0, level: 0, into: &emitter)
        } catch {
            return try mapper.jsonWritingPayload(of: archive, jsonOptions)
        }
        return emitter.data()
    }

    /// The ordinary way: the payload, then the JSON writer.
    func jsonWritingPayload(of archive: KeyedArchive, _ jsonOptions: JSONWriteOptions) throws -> Data {
        try JSONPropertyListWriter(options: jsonOptions).write(payload(of: archive))
    }

    /// The walk of `payload(of:)` with the JSON writer at its end: each function writes what
    /// its counterpart in `Walk` returns, and shares its state (ancestors, counts). It keeps
    /// no path unless cycles are broken (references then point at places on it): any error
    /// makes `json(of:options:)` map the payload the ordinary way, which reports it with its
    /// path, so the path would only be rendered for nothing.
    struct JSONStream {
        var walk: Walk
        /// Whether `walk.components` follows the writing, for references to point along.
        let keepsPath: Bool

        init(walk: Walk) {
            self.walk = walk
            keepsPath = walk.options.breaksCycles
        }

        mutating func write(_ value: ArchivedValue, depth: Int, level: Int, into e: inout JSONEmitter) throws {
            // `Walk.map(_:depth:)`, whose nil is written as null.
            guard depth <= walk.options.maximumDepth else { throw PayloadError(.tooDeep, "objects nest too deep") }
            try walk.count(1)
            switch value {
            case .null:
                e.out.append("null")
            case .inline(let v):
                if v.isCollection { try walk.count(Walk.valueCount(v, upTo: walk.options.maximumValueCount - walk.produced + 2) - 1) }
                try e.write(walk.inline(v), level: level)
            case .array(let elements):
                try writeElements(elements, depth: depth, level: level, into: &e)
            case .object(let uid):
                guard uid < walk.archive.objects.count else { return e.out.append("null") }
                let content: ArchivedContent? = walk.archive.objects.withUnsafeBufferPointer { $0[uid]?.content }
                switch content {
                case nil: e.out.append("null")
                case .string(let s)?: e.writeString(s)
                case .number(let n)?: try e.write(n, level: level)
                case .date(let d)?: try e.write(.date(d), level: level)
                case .array(let a)?:
                    if let reference = try walk.enter(uid) { return try e.write(reference, level: level) }
                    defer { walk.ancestors[uid] = -1 }
                    try writeElements(a, depth: depth, level: level, into: &e)
                case .dictionary(let keys, let values)?:
                    if let reference = try walk.enter(uid) { return try e.write(reference, level: level) }
                    defer { walk.ancestors[uid] = -1 }
                    try writeDictionary(keys: keys, values: values, depth: depth, level: level, into: &e)
                default:
                    guard let object = walk.archive.object(value) else { return e.out.append("null") }
                    if let reference = try walk.enter(uid) { return try e.write(reference, level: level) }
                    defer { walk.ancestors[uid] = -1 }
                    try writeObject(object, depth: depth, level: level, into: &e)
                }
            }
        }

        /// `Walk.map(_ object:depth:)`: the common contents written directly, the rest mapped.
        mutating func writeObject(_ object: ArchivedObject, depth: Int, level: Int, into e: inout JSONEmitter) throws {
            switch object.content {
            case .array(let a), .set(let a), .orderedSet(let a), .oldStyleArray(let a), .countedSet(let a, _):
                try writeElements(a, depth: depth, level: level, into: &e)
            case .dictionary(let keys, let values):
                try writeDictionary(keys: keys, values: values, depth: depth, level: level, into: &e)
            case .url:
                e.writeString(walk.archive.absoluteURLString(of: object) ?? "")
            case .uuid(let u):
                e.writeString(u.uppercaseText)
            default:
                try e.write(try walk.map(object, depth: depth) ?? .null, level: level)
            }
        }

        /// `Walk.elements`, written as `JSONEmitter` writes an array.
        mutating func writeElements(_ values: [ArchivedValue], depth: Int, level: Int, into e: inout JSONEmitter) throws {
            guard !values.isEmpty else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            e.out.append(UInt8(ascii: "["))
            for i in values.indices {
                if i > 0 { e.out.append(UInt8(ascii: ",")) }
                e.newline(level + 1)
                if keepsPath { walk.components.append(.index(i)) }
                try write(values[i], depth: depth + 1, level: level + 1, into: &e)
                if keepsPath { walk.components.removeLast() }
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        /// `Walk.dictionary`: the keys mapped first; with string keys, the values stream into a
        /// JSON object, as `JSONEmitter` writes one; otherwise the values are mapped and the
        /// dictionary written whole.
        mutating func writeDictionary(keys: [ArchivedValue], values: [ArchivedValue], depth: Int, level: Int,
                                      into e: inout JSONEmitter) throws {
            let count = min(keys.count, values.count)
            let reusesKeys = depth + 1 <= walk.options.maximumDepth && walk.lastKeys.count == count
                && walk.lastArchivedKeys.map { Walk.sameStorage($0, keys) } == true
            var mappedKeys: [PropertyListValue] = []
            if reusesKeys {
                try walk.count(count)
                mappedKeys = walk.lastKeys
            } else {
                mappedKeys.reserveCapacity(count)
                for i in 0..<count { mappedKeys.append(try walk.map(keys[i], at: .dictionaryKey(i), depth: depth + 1) ?? walk.null) }
            }
            let allStrings = mappedKeys.allSatisfy { if case .string = $0 { true } else { false } }
            guard allStrings else {
                // Integer or other keys: as `Walk.dictionary` builds them, written whole.
                var mappedValues: [PropertyListValue] = []
                for i in 0..<count {
                    let step: Walk.PathComponent = keepsPath ? Walk.valueStep(i, keys: mappedKeys) : .index(i)
                    mappedValues.append(try walk.map(values[i], at: step, depth: depth + 1) ?? walk.null)
                }
                return try e.write(Walk.codableDictionary(mappedKeys, mappedValues), level: level)
            }
            if !reusesKeys {
                if mappedKeys == walk.lastKeys {
                    walk.lastArchivedKeys = walk.plainStrings(keys) ? keys : nil
                } else {
                    walk.lastKeys = mappedKeys
                    walk.lastArchivedKeys = walk.plainStrings(keys) ? keys : nil
                }
            }
            guard count > 0 else { return e.writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: level) }
            e.out.append(UInt8(ascii: "{"))
            if e.sortsKeys {
                let order = JSONEmitter.sortedKeyOrder(mappedKeys.map { key -> [UInt8] in
                    if case .string(let s) = key { return Array(s.utf8) }
                    return []
                })
                for (n, i) in order.enumerated() {
                    try writeMember(mappedKeys[i], values[i], first: n == 0, depth: depth, level: level, into: &e)
                }
            } else {
                // In the order read: no order array to allocate for each dictionary.
                for i in 0..<count {
                    try writeMember(mappedKeys[i], values[i], first: i == 0, depth: depth, level: level, into: &e)
                }
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// One member of a dictionary `writeDictionary` writes: its mapped key, a string, and its value.
        @inline(__always)
        mutating func writeMember(_ key: PropertyListValue, _ value: ArchivedValue, first: Bool, depth: Int, level: Int,
                                  into e: inout JSONEmitter) throws {
            if !first { e.out.append(UInt8(ascii: ",")) }
            e.newline(level + 1)
            guard case .string(let name) = key else { return }
            e.writeString(name)
            e.writeColon()
            if keepsPath { walk.components.append(.key(name)) }
            try write(value, depth: depth + 1, level: level + 1, into: &e)
            if keepsPath { walk.components.removeLast() }
        }
    }
}
