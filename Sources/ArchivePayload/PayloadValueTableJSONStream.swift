import Foundation
import KeyedArchive
@_spi(Writers) import PropertyList

extension PayloadMapper {
    /// The payload of a typedstream's root as JSON, written from its `TypedStreamValueTable`
    /// without decoding its objects: the bytes `json(of:options:)` gives for the archive
    /// `table.archive(options:)` decodes. The output goes to `drain` a chunk of about
    /// `chunkSize` bytes at a time, or without a drain whole to `finished`.
    ///
    /// False when the table's objects are not all decoded as read
    /// (`TypedStreamValueTable.decodesAsWritten(options:)`), the root is nil, or the walk meets
    /// anything the ordinary one reports or takes another path for (a cycle, a limit, a key that
    /// is not a string, a nested payload to expand), which it may find after chunks were handed
    /// on: the caller must then drop them.
    package func writeJSON(of table: TypedStreamValueTable, readOptions: KeyedArchiveReadOptions, options jsonOptions: JSONWriteOptions,
                           capacity: Int, chunkSize: Int = 1 << 20, drain: ((UnsafeRawBufferPointer) -> Void)?,
                           finished: (Data) -> Void) -> Bool {
        guard table.root >= 0, table.decodesAsWritten(options: readOptions) else { return false }
        var mapping = options
        mapping.target = .json
        var stream = ValueTableJSONStream(table: table, options: mapping, jsonOptions: jsonOptions, chunkSize: chunkSize, drain: drain)
        return Self.emitJSON(options: jsonOptions, capacity: capacity, drain: drain, finished: finished) { emitter in
            table.source.withUnsafeBytes { bytes -> Bool in
                do throws(ValueTableJSONStream.Stop) {
                    try stream.write(table.root, depth: 0, level: 0, bytes: bytes, into: &emitter)
                    return true
                } catch {
                    return false
                }
            }
        }
    }

    /// `JSONStream` over a `TypedStreamValueTable`: each function writes what its counterpart
    /// there writes for the decoded object, with the same counts and checks, and stops where
    /// that one would throw or take a path this one does not follow. Objects are stream object
    /// numbers (-1: nil).
    struct ValueTableJSONStream {
        /// Thrown to give the stream back to the ordinary walk.
        struct Stop: Error {}

        let table: TypedStreamValueTable
        let options: PayloadOptions
        /// `Walk.ancestors`: per object, whether it is on the way to the current value.
        var ancestors: [Bool]
        /// `Walk.produced`.
        var produced = 0
        /// The keys of the last dictionary written, which the next one most often has too.
        var lastKeys: KeyTexts?
        /// The spelling of the JSON, for writing keys apart.
        let jsonOptions: JSONWriteOptions

        /// A dictionary's keys: their objects, each one's JSON text (the string and the colon) as
        /// a range of `bytes`, and the order they are written in (empty: as read).
        struct KeyTexts {
            let objects: [Int32]
            let bytes: [UInt8]
            let texts: [Range<Int>]
            let order: [Int]
        }
        /// Color components' texts and values, and their payload spellings, worked out once per
        /// component.
        var colorComponents = TypedStreamColorComponents()
        var components: [UInt64: Double] = [:]
        let drain: ((UnsafeRawBufferPointer) -> Void)?
        let chunkSize: Int

        init(table: TypedStreamValueTable, options: PayloadOptions, jsonOptions: JSONWriteOptions, chunkSize: Int,
             drain: ((UnsafeRawBufferPointer) -> Void)?) {
            self.table = table
            self.options = options
            self.jsonOptions = jsonOptions
            self.chunkSize = chunkSize
            self.drain = drain
            ancestors = [Bool](repeating: false, count: table.objectCount)
        }

        @inline(__always)
        mutating func count(_ n: Int) throws(Stop) {
            produced += n
            guard produced <= options.maximumValueCount else { throw Stop() }
        }

        /// `JSONStream.write` of the object `number`, or null for nil.
        mutating func write(_ number: Int32, depth: Int, level: Int, bytes: UnsafeRawBufferPointer, into e: inout JSONEmitter) throws(Stop) {
            guard depth <= options.maximumDepth else { throw Stop() }
            try count(1)
            guard number >= 0 else { return e.out.append("null") }
            let index = Int(number)
            switch table.object(index) {
            case .pending:
                throw Stop()
            case .string(let range), .mutableString(_, let range):
                TypedStreamValueTable.writeString(range, bytes: bytes, into: &e)
            case .number(let n):
                do { try e.write(n, level: level) } catch { throw Stop() }
            case .date(_, let seconds):
                do { try e.write(.date(Date(timeIntervalSinceReferenceDate: seconds)), level: level) } catch { throw Stop() }
            case .data(let range), .mutableData(_, let range):
                // A nested payload to expand takes the ordinary walk.
                if options.expandsNestedPayloads, NestedPayload.identify(table.data(range)) != nil { throw Stop() }
                e.writeData(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]), level: level)
            case .array(_, let range):
                try enter(index)
                try writeElements(range, depth: depth, level: level, bytes: bytes, into: &e)
                ancestors[index] = false
            case .dictionary(_, let keys, let values):
                try enter(index)
                try writeDictionary(keys: keys, values: values, depth: depth, level: level, bytes: bytes, into: &e)
                ancestors[index] = false
            case .color(_, let kind, let range):
                guard let color = colorComponents.decodedColor(kind: kind, table.components[range]) else { throw Stop() }
                try writeColor(color, level: level, into: &e)
            }
        }

        /// The emitter's writing of `Walk.color(color)`: each component as `Walk.component` spells
        /// it (worked out once per value), the color space unless sRGB, keys sorted when asked.
        mutating func writeColor(_ color: ArchivedColor, level: Int, into e: inout JSONEmitter) throws(Stop) {
            func spelled(_ v: Double) -> Double {
                if let known = components[v.bitPattern] { return known }
                guard case .real(let r) = Walk.component(v) else { return v }
                components[v.bitPattern] = r
                return r
            }
            let reals = [spelled(color.red), spelled(color.green), spelled(color.blue), spelled(color.alpha)]
            let withSpace = color.space != .sRGB
            // red, green, blue, alpha, colorSpace; sorted by their bytes: alpha, blue, colorSpace, green, red.
            let order: [Int] = e.sortsKeys ? (withSpace ? [3, 2, 4, 1, 0] : [3, 2, 1, 0]) : (withSpace ? [0, 1, 2, 3, 4] : [0, 1, 2, 3])
            e.out.append(UInt8(ascii: "{"))
            for (n, member) in order.enumerated() {
                let first = n == 0
                switch member {
                case 0: e.writeKey("red", first: first, level: level + 1)
                case 1: e.writeKey("green", first: first, level: level + 1)
                case 2: e.writeKey("blue", first: first, level: level + 1)
                case 3: e.writeKey("alpha", first: first, level: level + 1)
                default: e.writeKey("colorSpace", first: first, level: level + 1)
                }
                if member == 4 {
                    e.writeString(color.space.rawValue)
                } else {
                    do { try e.writeReal(reals[member], what: "real") } catch { throw Stop() }
                }
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// `Walk.enter`: a cycle, which the ordinary walk reports or breaks, stops this one.
        @inline(__always)
        mutating func enter(_ index: Int) throws(Stop) {
            guard !ancestors[index] else { throw Stop() }
            ancestors[index] = true
        }

        /// Hands the output on once it passes the chunk size.
        @inline(__always)
        func drainIfFull(_ e: inout JSONEmitter) {
            e.out.drain(ifAtLeast: chunkSize, to: drain)
        }

        /// `JSONStream.writeElements`.
        mutating func writeElements(_ range: Range<Int>, depth: Int, level: Int, bytes: UnsafeRawBufferPointer, into e: inout JSONEmitter) throws(Stop) {
            guard !range.isEmpty else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            e.out.append(UInt8(ascii: "["))
            for i in range {
                if i > range.lowerBound { e.out.append(UInt8(ascii: ",")) }
                e.newline(level + 1)
                try write(table.elements[i], depth: depth + 1, level: level + 1, bytes: bytes, into: &e)
                drainIfFull(&e)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        /// `JSONStream.writeDictionary` of a dictionary whose keys are all strings: the keys
        /// counted at `depth + 1`, then each value under its key. The keys of a dictionary with
        /// the same key objects as the one before are copied from where that one's were kept.
        mutating func writeDictionary(keys: Range<Int>, values: Range<Int>, depth: Int, level: Int, bytes: UnsafeRawBufferPointer,
                                      into e: inout JSONEmitter) throws(Stop) {
            guard depth + 1 <= options.maximumDepth else { throw Stop() }
            try count(keys.count)
            // The dictionaries inside replace the last keys with their own: these stay here.
            let written: KeyTexts
            if let last = lastKeys, last.objects.elementsEqual(table.elements[keys]) {
                written = last
            } else {
                written = try keyTexts(keys, bytes: bytes, sorted: e.sortsKeys)
            }
            guard !keys.isEmpty else { return e.writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: level) }
            e.out.append(UInt8(ascii: "{"))
            for n in 0 ..< keys.count {
                let i = written.order.isEmpty ? n : written.order[n]
                if n > 0 { e.out.append(UInt8(ascii: ",")) }
                e.newline(level + 1)
                written.bytes.withUnsafeBytes { e.out.append(UnsafeRawBufferPointer(rebasing: $0[written.texts[i]])) }
                try write(table.elements[values.lowerBound + i], depth: depth + 1, level: level + 1, bytes: bytes, into: &e)
                drainIfFull(&e)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
            lastKeys = written
        }

        /// A dictionary's keys as written, each string and its colon, with the order they are
        /// written in when sorted; stops unless every key is a string.
        func keyTexts(_ keys: Range<Int>, bytes: UnsafeRawBufferPointer, sorted: Bool) throws(Stop) -> KeyTexts {
            var names: [Range<Int>] = []
            names.reserveCapacity(keys.count)
            for i in keys {
                let number = table.elements[i]
                guard number >= 0 else { throw Stop() }
                switch table.object(Int(number)) {
                case .string(let range), .mutableString(_, let range): names.append(range)
                default: throw Stop()
                }
            }
            var scratch = JSONEmitter(options: jsonOptions, capacity: 64)
            var texts: [Range<Int>] = []
            texts.reserveCapacity(names.count)
            for range in names {
                let start = scratch.out.length
                TypedStreamValueTable.writeString(range, bytes: bytes, into: &scratch)
                scratch.writeColon()
                texts.append(start..<scratch.out.length)
            }
            // Sorted by the decoded strings' bytes, which repair any invalid UTF-8.
            let order = sorted ? JSONEmitter.sortedKeyOrder(names.map { Array(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[$0]), as: UTF8.self).utf8) }) : []
            return KeyTexts(objects: Array(table.elements[keys]), bytes: Array(scratch.out.bytes(0..<scratch.out.length)), texts: texts, order: order)
        }
    }
}
