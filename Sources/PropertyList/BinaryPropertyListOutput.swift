import Foundation

/// A growing byte buffer with the encodings of each scalar.
struct BinaryPropertyListOutput: ~Copyable {
    var bytes: OutputBuffer

    init(capacity: Int) {
        bytes = OutputBuffer(capacity: capacity)
    }

    consuming func finish() -> Data {
        bytes.data()
    }

    @inline(__always)
    mutating func writeBigEndian(_ v: UInt64, size: Int) {
        bytes.reserve(size)
        writeBigEndianUnchecked(v, size: size)
    }

    /// `size` bytes of `v`, most significant first, after `reserve` made room.
    @inline(__always)
    mutating func writeBigEndianUnchecked(_ v: UInt64, size: Int) {
        switch size {
        case 1: bytes.appendUnchecked(UInt8(truncatingIfNeeded: v))
        case 2: withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian) { if let p = $0.baseAddress { bytes.appendUnchecked(p, count: 2) } }
        case 4: withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian) { if let p = $0.baseAddress { bytes.appendUnchecked(p, count: 4) } }
        case 8: withUnsafeBytes(of: v.bigEndian) { if let p = $0.baseAddress { bytes.appendUnchecked(p, count: 8) } }
        default:
            var shift = (size - 1) * 8
            while shift >= 0 {
                bytes.appendUnchecked(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
                shift -= 8
            }
        }
    }

    /// The trailer that ends a file: 5 unused bytes, the sort version, the offset and reference
    /// widths, the object count, the top object (0) and where the offset table starts.
    mutating func writeTrailer(offsetSize: Int, refSize: Int, objectCount: Int, tableOffset: Int) {
        bytes.append(repeating: 0, count: 6)
        bytes.append(UInt8(offsetSize))
        bytes.append(UInt8(refSize))
        writeBigEndian(UInt64(objectCount), size: 8)
        writeBigEndian(0, size: 8)
        writeBigEndian(UInt64(tableOffset), size: 8)
    }

    /// The bytes `writeHeader` takes for `count`.
    static func headerSize(count: Int) -> Int {
        guard count >= 15 else { return 1 }
        if count <= 0xFF { return 3 }
        if count <= 0xFFFF { return 4 }
        if count <= 0xFFFF_FFFF { return 6 }
        return 10
    }

    /// `writeHeader` after `reserve` made room for `headerSize(count:)` bytes.
    @inline(__always)
    mutating func writeHeaderUnchecked(_ marker: UInt8, count: Int) {
        if count < 15 {
            bytes.appendUnchecked(marker << 4 | UInt8(count))
            return
        }
        bytes.appendUnchecked(marker << 4 | 0x0F)
        let size = count <= 0xFF ? 1 : count <= 0xFFFF ? 2 : count <= 0xFFFF_FFFF ? 4 : 8
        bytes.appendUnchecked(0x10 | UInt8(size.trailingZeroBitCount))
        writeBigEndianUnchecked(UInt64(count), size: size)
    }

    /// A marker with its count in the low nibble, or 0xF and an integer object for 15 and above.
    mutating func writeHeader(_ marker: UInt8, count: Int) {
        if count < 15 {
            bytes.append(marker << 4 | UInt8(count))
        } else {
            bytes.append(marker << 4 | 0x0F)
            writeInteger(PropertyListInteger(count))
        }
    }

    /// Integers as CF writes them: non-negative values in 1, 2 or 4 bytes when they fit,
    /// other Int64 values in 8, and everything else in 16.
    mutating func writeInteger(_ i: PropertyListInteger) {
        if let v = i.int64Value {
            if v >= 0 && v <= 0xFF {
                bytes.append(0x10); writeBigEndian(UInt64(v), size: 1)
            } else if v >= 0 && v <= 0xFFFF {
                bytes.append(0x11); writeBigEndian(UInt64(v), size: 2)
            } else if v >= 0 && v <= 0xFFFF_FFFF {
                bytes.append(0x12); writeBigEndian(UInt64(v), size: 4)
            } else {
                bytes.append(0x13); writeBigEndian(UInt64(bitPattern: v), size: 8)
            }
        } else {
            bytes.append(0x14)
            writeBigEndian(UInt64(bitPattern: i.high), size: 8)
            writeBigEndian(i.low, size: 8)
        }
    }

    mutating func writeScalar(_ value: PropertyListValue) {
        switch value {
        case .null: bytes.append(0x00)
        case .bool(let b): bytes.append(b ? 0x09 : 0x08)
        case .integer(let i): writeInteger(i)
        case .real(let r):
            bytes.append(0x23)
            writeBigEndian(r.bitPattern, size: 8)
        case .date(let d):
            bytes.append(0x33)
            writeBigEndian(d.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let d):
            writeHeader(0x4, count: d.count)
            d.withUnsafeBytes { bytes.append($0) }
        case .string(var s):
            // ASCII when every byte is, as CF chooses; otherwise UTF-16BE.
            let isASCII = s.withUTF8 { utf8 in
                var high: UInt8 = 0
                for b in utf8 { high |= b }
                return high < 0x80
            }
            if isASCII {
                s.withUTF8 { utf8 in
                    writeHeader(0x5, count: utf8.count)
                    bytes.append(UnsafeRawBufferPointer(utf8))
                }
            } else {
                writeUTF16(Array(s.utf16))
            }
        case .invalidUTF16String(let units):
            writeUTF16(units)
        case .uid(let u):
            let size = BinaryPropertyListObjectTable.width(for: Int(clamping: u))
            bytes.append(0x80 | UInt8(size - 1))
            writeBigEndian(u, size: size)
        case .array, .dictionary, .set:
            break // collections are written by the object table
        }
    }

    mutating func writeUTF16(_ units: [UInt16]) {
        writeHeader(0x6, count: units.count)
        bytes.reserve(units.count * 2)
        for u in units { writeBigEndianUnchecked(UInt64(u), size: 2) }
    }
}
