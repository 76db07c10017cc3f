import Foundation
import PropertyList

/// Writes a binary property list in a layout that shares every object it can: each scalar and
/// each collection equal, byte for byte, to one already written is stored once and referenced
/// from every place that holds it, as a writer that shares identical collections may (CPython's
/// plistlib shares an `NS.keys` array between all the dictionaries that hold it). Objects are
/// numbered children first, so the top object is the last, and references have the width asked
/// for, which may be one CF never writes (3 bytes, say): every reader must take all of it.
///
/// For tests and the benchmark: the same property list in this layout and in CF's must read
/// the same. In no product.
public struct SharedLayoutWriter: Sendable {
    /// The bytes of each reference and offset; nil for the smallest of 1, 2, 4 and 8 that
    /// addresses every object.
    public var referenceSize: Int?
    /// Whether equal collections are shared; equal scalars always are.
    public var sharesCollections: Bool

    public init(referenceSize: Int? = nil, sharesCollections: Bool = true) {
        self.referenceSize = referenceSize
        self.sharesCollections = sharesCollections
    }

    /// An object of the file: a scalar's bytes, or a collection's marker and references.
    private enum Piece: Hashable {
        case scalar([UInt8])
        case collection(marker: UInt8, count: Int, refs: [Int])
    }

    private struct Layout {
        var pieces: [Piece] = []
        var indexes: [Piece: Int] = [:]
        let sharesCollections: Bool

        mutating func add(_ piece: Piece) -> Int {
            if case .collection = piece, !sharesCollections {
                pieces.append(piece)
                return pieces.count - 1
            }
            if let index = indexes[piece] { return index }
            pieces.append(piece)
            indexes[piece] = pieces.count - 1
            return pieces.count - 1
        }

        mutating func flatten(_ value: PropertyListValue) -> Int {
            switch value {
            case .array(let elements):
                return add(.collection(marker: 0xA0, count: elements.count, refs: elements.map { flatten($0) }))
            case .set(let elements):
                return add(.collection(marker: 0xC0, count: elements.count, refs: elements.map { flatten($0) }))
            case .dictionary(let dictionary):
                let keys = dictionary.keys.map { flatten($0) }
                let values = dictionary.values.map { flatten($0) }
                return add(.collection(marker: 0xD0, count: keys.count, refs: keys + values))
            default:
                return add(.scalar(SharedLayoutWriter.scalarBytes(value)))
            }
        }
    }

    /// `value` in the shared layout.
    public func write(_ value: PropertyListValue) -> Data {
        var layout = Layout(sharesCollections: sharesCollections)
        let top = layout.flatten(value)
        let count = layout.pieces.count
        let refSize = referenceSize ?? Self.width(UInt64(count))
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for piece in layout.pieces {
            offsets.append(out.count)
            switch piece {
            case .scalar(let bytes):
                out += bytes
            case .collection(let marker, let n, let refs):
                Self.appendHeader(marker, count: n, to: &out)
                for r in refs { Self.appendBigEndian(UInt64(r), size: refSize, to: &out) }
            }
        }
        let tableOffset = out.count
        // Offsets take the width asked for when it reaches the offset table, else the smallest.
        let offsetSize = referenceSize.flatMap { $0 >= 8 || tableOffset < 1 << (8 * $0) ? $0 : nil } ?? Self.width(UInt64(tableOffset))
        for offset in offsets { Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        Self.appendBigEndian(UInt64(count), size: 8, to: &out)
        Self.appendBigEndian(UInt64(top), size: 8, to: &out)
        Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &out)
        return Data(out)
    }

    static func width(_ largest: UInt64) -> Int {
        largest < 1 << 8 ? 1 : largest < 1 << 16 ? 2 : largest < 1 << 32 ? 4 : 8
    }

    static func appendBigEndian(_ v: UInt64, size: Int, to out: inout [UInt8]) {
        for i in (0..<size).reversed() { out.append(i < 8 ? UInt8(truncatingIfNeeded: v >> UInt64(i * 8)) : 0) }
    }

    /// A marker with its count: in the low nibble, or 0xF and an integer object after it.
    static func appendHeader(_ marker: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendInteger(UInt64(count), to: &out)
        }
    }

    /// A non-negative integer object, in the fewest of 1, 2, 4 or 8 bytes.
    static func appendInteger(_ v: UInt64, to out: inout [UInt8]) {
        let size = width(v)
        out.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(v, size: size, to: &out)
    }

    /// A scalar object's bytes, as CF encodes it.
    static func scalarBytes(_ value: PropertyListValue) -> [UInt8] {
        var out: [UInt8] = []
        switch value {
        case .null:
            out.append(0x00)
        case .bool(let b):
            out.append(b ? 0x09 : 0x08)
        case .integer(let i):
            if let v = i.int64Value {
                if v < 0 {
                    out.append(0x13)
                    appendBigEndian(UInt64(bitPattern: v), size: 8, to: &out)
                } else {
                    appendInteger(UInt64(v), to: &out)
                }
            } else {
                out.append(0x14)
                appendBigEndian(UInt64(bitPattern: i.high), size: 8, to: &out)
                appendBigEndian(i.low, size: 8, to: &out)
            }
        case .real(let r):
            out.append(0x23)
            appendBigEndian(r.bitPattern, size: 8, to: &out)
        case .date(let d):
            out.append(0x33)
            appendBigEndian(d.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &out)
        case .data(let d):
            appendHeader(0x40, count: d.count, to: &out)
            out += d
        case .string(let s):
            if s.utf8.allSatisfy({ $0 < 0x80 }) {
                appendHeader(0x50, count: s.utf8.count, to: &out)
                out += s.utf8
            } else {
                let units = Array(s.utf16)
                appendHeader(0x60, count: units.count, to: &out)
                for u in units { out += [UInt8(u >> 8), UInt8(u & 0xFF)] }
            }
        case .invalidUTF16String(let units):
            appendHeader(0x60, count: units.count, to: &out)
            for u in units { out += [UInt8(u >> 8), UInt8(u & 0xFF)] }
        case .uid(let u):
            let size = width(u)
            out.append(0x80 | UInt8(size - 1))
            appendBigEndian(u, size: size, to: &out)
        case .array, .set, .dictionary:
            break
        }
        return out
    }
}
