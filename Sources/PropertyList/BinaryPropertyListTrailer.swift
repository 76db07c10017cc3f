/// The last 32 bytes of a bplist00 file, validated.
///
/// Every rule Apple's CFBinaryPList.c applies is checked here, with overflow-checked arithmetic,
/// so that the object reader can rely on the table fitting inside the file.
struct BinaryPropertyListTrailer: Equatable, Sendable {
    static let size = 32
    static let headerSize = 8

    var offsetIntSize: Int
    var objectRefSize: Int
    var objectCount: Int
    var topObject: Int
    var offsetTableOffset: Int

    /// Reads and validates the trailer of `bytes`.
    ///
    /// - Throws: `.truncated` ("the file ends at byte N") when the file was cut short, which
    ///   is what a trailer that breaks these rules usually means; otherwise the rule it breaks.
    init(_ bytes: UnsafeRawBufferPointer, maximumObjectCount: Int) throws(PropertyListError) {
        do {
            try self.init(validating: bytes, maximumObjectCount: maximumObjectCount)
        } catch {
            throw BinaryPropertyListTruncation.diagnose(bytes) ?? error
        }
    }

    private init(validating bytes: UnsafeRawBufferPointer, maximumObjectCount: Int) throws(PropertyListError) {
        let length = bytes.count
        // The header, at least one object byte and the trailer must all fit.
        guard length >= Self.headerSize + 1 + Self.size else {
            throw PropertyListError(.truncated, "binary property list is only \(length) bytes, too short for a header and trailer", at: .byteOffset(0))
        }
        let t = length - Self.size
        func be(_ at: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v = v << 8 | UInt64(bytes[at + i]) }
            return v
        }
        let offsetIntSize = Int(bytes[t + 6])
        let objectRefSize = Int(bytes[t + 7])
        let objectCount = be(t + 8, 8)
        let topObject = be(t + 16, 8)
        let tableOffset = be(t + 24, 8)

        // Offsets and references are 1 to 8 bytes wide.
        guard (1...8).contains(offsetIntSize) else {
            throw PropertyListError(.malformed, "trailer gives an offset size of \(offsetIntSize) bytes; it must be 1 to 8", at: .byteOffset(t + 6))
        }
        guard (1...8).contains(objectRefSize) else {
            throw PropertyListError(.malformed, "trailer gives an object reference size of \(objectRefSize) bytes; it must be 1 to 8", at: .byteOffset(t + 7))
        }
        // There is at least one object, and no more than the options allow.
        guard objectCount >= 1 else {
            throw PropertyListError(.malformed, "trailer says the file holds no objects", at: .byteOffset(t + 8))
        }
        guard objectCount <= UInt64(maximumObjectCount) else {
            throw PropertyListError(.limitExceeded, "trailer claims \(objectCount) objects, over the limit of \(maximumObjectCount)", at: .byteOffset(t + 8))
        }
        // The top object is one of them.
        guard topObject < objectCount else {
            throw PropertyListError(.malformed, "top object \(topObject) is not below the object count \(objectCount)", at: .byteOffset(t + 16))
        }
        // The offset table starts after the header and ends at or before the trailer.
        let (tableSize, o1) = objectCount.multipliedReportingOverflow(by: UInt64(offsetIntSize))
        let (tableEnd, o2) = tableOffset.addingReportingOverflow(tableSize)
        guard tableOffset >= UInt64(Self.headerSize + 1), !o1, !o2, tableEnd <= UInt64(t) else {
            throw PropertyListError(.malformed, "offset table of \(objectCount) entries of \(offsetIntSize) bytes at offset \(tableOffset) does not fit between the header and the trailer", at: .byteOffset(t + 24))
        }
        // A reference must be wide enough to name every object.
        guard objectRefSize >= 8 || objectCount <= (UInt64(1) << (8 * UInt64(objectRefSize))) else {
            throw PropertyListError(.malformed, "object references of \(objectRefSize) bytes cannot address \(objectCount) objects", at: .byteOffset(t + 7))
        }
        // An offset must be wide enough to reach the start of the offset table.
        guard offsetIntSize >= 8 || tableOffset < (UInt64(1) << (8 * UInt64(offsetIntSize))) else {
            throw PropertyListError(.malformed, "offsets of \(offsetIntSize) bytes cannot reach the offset table at \(tableOffset)", at: .byteOffset(t + 6))
        }
        self.offsetIntSize = offsetIntSize
        self.objectRefSize = objectRefSize
        // Both fit in Int: they are bounded by the file length checked above.
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTableOffset = Int(tableOffset)
    }
}
