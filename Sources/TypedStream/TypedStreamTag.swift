/// The tags a typedstream's head byte may hold; other bytes are small integers or reference
/// numbers. The stream reader and the keyed-archive layer's direct reader read the same ones;
/// all are inlinable, as the readers look at them for every byte they read.
public enum TypedStreamTag {
    @inlinable public static var integer2: Int8 { -127 }
    @inlinable public static var integer4: Int8 { -126 }
    @inlinable public static var real: Int8 { -125 }
    @inlinable public static var new: Int8 { -124 }
    @inlinable public static var null: Int8 { -123 }
    @inlinable public static var endOfObject: Int8 { -122 }
    /// An 8-byte integer follows: Foundation writes `q` and `Q` values beyond 32 bits so.
    @inlinable public static var integer8: Int8 { -121 }
    /// Tags run from -128 to -111; reference numbers start at -110.
    @inlinable public static var reserved: ClosedRange<Int8> { -128 ... -111 }
    @inlinable public static var firstReference: Int64 { -110 }
}

extension TypedStreamTag {
    /// `count` bytes at `position` as an unsigned integer, big- or little-endian; the caller has
    /// checked that they are there.
    @inlinable @inline(__always)
    package static func fixedValue(_ bytes: UnsafeRawBufferPointer, at position: Int, count: Int, bigEndian: Bool) -> UInt64 {
        var value: UInt64 = 0
        if bigEndian {
            for i in 0..<count { value = value << 8 | UInt64(bytes[position + i]) }
        } else {
            for i in (0..<count).reversed() { value = value << 8 | UInt64(bytes[position + i]) }
        }
        return value
    }

    /// An integer in the compact encoding: `head` itself, or 2, 4 or 8 bytes after their tags
    /// (`readFixed`), sign-extended as NeXT's decoder did, then taken in `width` bits as the C
    /// type would. Nil for a reserved tag, which is no integer.
    @inlinable @inline(__always)
    package static func integer<E: Error>(head: Int8, width: Int, signed: Bool, readFixed: (Int) throws(E) -> UInt64) throws(E) -> Int64? {
        let value: Int64
        switch head {
        case integer2: value = Int64(Int16(truncatingIfNeeded: try readFixed(2)))
        case integer4: value = Int64(Int32(truncatingIfNeeded: try readFixed(4)))
        case integer8: value = Int64(bitPattern: try readFixed(8))
        case reserved: return nil
        default: value = Int64(head)
        }
        guard !signed, width < 64 else { return value }
        // An unsigned type: the bit pattern in its width (a 32-bit -1 is 4294967295).
        return Int64(UInt64(bitPattern: value) & (UInt64(1) << width - 1))
    }
}
