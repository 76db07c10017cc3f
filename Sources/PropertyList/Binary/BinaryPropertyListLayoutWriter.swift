import Foundation

/// Writes an edited property list as CF writes it back after reading `original` (a binary
/// file) and making the edits: what the edits left as it was keeps the object of the original
/// it came from, so an edit changes only what it must.
///
/// CF's reader makes one object of each object of a binary file (a place that refers to an
/// object again gets the same one), and its writer (`__CFBinaryPlistWrite`) stores each string,
/// number, date and data object once however many places hold it, but equal ones that are
/// different objects apart; it writes a boolean or a UID again at each place, referring to the
/// first copy. So a file CF wrote, read and written back unchanged, is the same bytes, and an
/// edited one differs only where the edits are. A tree alone cannot say which values were one
/// object (`BinaryPropertyListWriter` stores equal scalars once); this writer finds each value's
/// object in `original` by its place: the same key of the same dictionary, the same index of
/// the same array, holding an equal value. A value found nowhere there is a new object, stored
/// once with equal new ones.
///
/// Falls back to `BinaryPropertyListWriter` when `original` is not a binary property list the
/// reader takes in one pass (no offset into its header).
public struct BinaryPropertyListLayoutWriter: Sendable {
    public var original: Data
    public var options: PropertyListReadOptions

    public init(original: Data, options: PropertyListReadOptions = .default) {
        self.original = original
        self.options = options
    }

    /// `value` as a binary property list, laid out as described above.
    public func write(_ value: PropertyListValue) -> Data {
        let written: Data? = original.withUnsafeBytes { raw -> Data? in
            guard raw.starts(with: "bplist".utf8), raw.count <= options.maximumInputSize,
                  let parser = try? BinaryPropertyListParser(raw, options: options, sharing: .refused),
                  parser.isPlainFile else { return nil }
            var layout = Layout(parser: parser)
            _ = layout.flatten(value, counterpart: parser.trailer.topObject, depth: 0)
            return layout.table.serialize()
        }
        return written ?? BinaryPropertyListWriter().write(value)
    }

    /// One write: the original's parser, the output's objects, and the output index of each
    /// original object written so far.
    struct Layout: ~Copyable {
        var parser: BinaryPropertyListParser
        var table: BinaryPropertyListObjectTable
        /// Per original object: its output index once written, or -1.
        var written: [Int32]

        init(parser: BinaryPropertyListParser) {
            self.parser = parser
            table = BinaryPropertyListObjectTable(expectedObjects: parser.trailer.objectCount)
            written = Array(repeating: -1, count: parser.trailer.objectCount)
        }

        /// Numbers `value` and everything in it, CF's way (`BinaryPropertyListFlattener`), where
        /// `counterpart` is the original object at the same place, if any.
        mutating func flatten(_ value: PropertyListValue, counterpart: Int?, depth: Int) -> Int {
            // The original's children are followed only within the reader's depth limit.
            let original = depth < parser.options.maximumDepth ? counterpart : nil
            switch value {
            case .array(let elements), .set(let elements):
                let (index, childrenStart) = table.beginCollection()
                let children = original.flatMap { collection($0, kind: value.isSet ? 0xC : 0xA) }
                for (i, e) in elements.enumerated() {
                    table.addChild(flatten(e, counterpart: children.flatMap { i < $0.count ? $0[i] : nil }, depth: depth + 1))
                }
                table.endCollection(index, marker: value.isSet ? 0xC : 0xA, childrenStart: childrenStart, entries: elements.count)
                return index
            case .dictionary(let d):
                let (index, childrenStart) = table.beginCollection()
                let entries = original.flatMap { dictionaryEntries($0) } ?? [:]
                var found: [(key: Int, value: Int)?] = []
                found.reserveCapacity(d.count)
                for key in d.keys {
                    let entry = Self.entryKey(key).flatMap { entries[$0] }
                    found.append(entry)
                    table.addChild(flatten(key, counterpart: entry?.key, depth: depth + 1))
                }
                for (i, v) in d.values.enumerated() {
                    table.addChild(flatten(v, counterpart: found[i]?.value, depth: depth + 1))
                }
                table.endCollection(index, marker: 0xD, childrenStart: childrenStart, entries: d.count)
                return index
            case .bool:
                let start = table.scalarStart
                table.scalarBytes.writeScalar(value)
                return table.finishRepeatedScalar(from: start)
            default:
                if let original, let index = sameScalar(value, as: original) { return index }
                let start = table.scalarStart
                table.scalarBytes.writeScalar(value)
                if case .uid = value { return table.finishRepeatedScalar(from: start) }
                return table.finishScalar(from: start)
            }
        }

        /// The output index of `value` as original object `index`, when that object holds an
        /// equal scalar: written once (a UID again at each place), encoded as CF encodes what it
        /// read (a 4-byte real and a 16-byte integer keep their width). Nil otherwise.
        mutating func sameScalar(_ value: PropertyListValue, as index: Int) -> Int? {
            guard index < written.count else { return nil }
            let start = parser.offset(index)
            var kind = FlatElementKind.other
            guard (try? parser.scalarWeight(index, at: start, kind: &kind)) != nil,
                  let read = try? parser.readScalar(index, at: start), Self.same(read, value) else { return nil }
            let first = written[index]
            if first >= 0, parser.bytes[start] >> 4 != 0x8 { return Int(first) }
            let from = table.scalarStart
            guard (try? parser.writeBinaryScalar(at: start, kind: kind, into: &table.scalarBytes)) != nil else {
                table.scalarBytes.bytes.truncate(to: from)
                return nil
            }
            let output = table.numberScalar(from: from)
            if first >= 0 { return Int(first) }
            written[index] = Int32(truncatingIfNeeded: output)
            return output
        }

        /// The children of collection `index` when it is a collection of marker `kind`.
        func collection(_ index: Int, kind: UInt8) -> [Int]? {
            guard index < written.count else { return nil }
            let start = parser.offset(index)
            guard parser.bytes[start] >> 4 == kind,
                  let (count, body) = try? parser.count(Int(parser.bytes[start] & 0x0F), at: start, index: index),
                  let refs = try? parser.refs(count, at: body, index: index) else { return nil }
            let size = parser.trailer.objectRefSize
            return (0..<count).map { parser.ref(refs + $0 * size) }
        }

        /// The string keys of dictionary `index`, each with its key and value objects (the first
        /// of equal keys, as the reader keeps it).
        mutating func dictionaryEntries(_ index: Int) -> [[UInt8]: (key: Int, value: Int)]? {
            guard index < written.count else { return nil }
            let start = parser.offset(index)
            guard parser.bytes[start] >> 4 == 0xD,
                  let (count, body) = try? parser.count(Int(parser.bytes[start] & 0x0F), at: start, index: index),
                  count <= Int.max / 2,
                  let refs = try? parser.refs(2 * count, at: body, index: index) else { return nil }
            let size = parser.trailer.objectRefSize
            // By their UTF-8, so that keys only canonically equivalent stay apart, as CF keeps them.
            var entries: [[UInt8]: (key: Int, value: Int)] = [:]
            for i in 0..<count {
                let key = parser.ref(refs + i * size)
                guard key < written.count, let read = try? parser.readScalar(key, at: parser.offset(key)),
                      let bytes = Self.entryKey(read) else { continue }
                guard entries[bytes] == nil else { continue }
                entries[bytes] = (key, parser.ref(refs + (count + i) * size))
            }
            return entries
        }

        /// What finds a dictionary key's entry in the original: a string's UTF-8, or the units of a
        /// UTF-16 string kept with its lone surrogates after a 0xFF, which no UTF-8 holds (such a
        /// key is one object of the original too: found by FuzzBinaryPropertyList, a UID held under
        /// it and under another key, which the walk wrote once). Nil for anything else.
        static func entryKey(_ key: PropertyListValue) -> [UInt8]? {
            switch key {
            case .string(let name): Array(name.utf8)
            case .invalidUTF16String(let units): [0xFF] + units.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
            default: nil
            }
        }

        /// Whether two scalars are the same value, strings by their characters exactly and reals
        /// and dates by their bits.
        static func same(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
            switch (a, b) {
            case (.string(let x), .string(let y)): return literallyEqual(x, y)
            case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
            case (.date(let x), .date(let y)): return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
            case (.integer, .integer), (.data, .data), (.uid, .uid), (.invalidUTF16String, .invalidUTF16String): return a == b
            // A null (marker 0x00, which no CF writer writes but its reader reads) keeps its
            // object too, as the converter's walk keeps each object of the file: two null
            // objects stay two (found by FuzzBinaryPropertyList).
            case (.null, .null): return true
            default: return false
            }
        }
    }
}

extension PropertyListValue {
    var isSet: Bool {
        if case .set = self { return true }
        return false
    }
}
