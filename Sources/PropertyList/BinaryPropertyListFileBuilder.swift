import Foundation

/// A binary property list written object by object where each object stays in the file, for
/// the binary transcoder: one pass, with no table of objects to lay out and copy afterwards.
///
/// The transcoder numbers objects in file order (a collection before its children, depth
/// first, as CF does), and knows a collection's entry count when it opens it, so the collection
/// is written then with room for its references, which are filled in as its children are
/// numbered. Scalars are written as `BinaryPropertyListOutput` encodes them, and an equal scalar
/// already written is found by a hash of the encoding and the copy dropped again, so the file is
/// byte for byte the one `BinaryPropertyListObjectTable` gives.
///
/// The reference width must be known before the first collection is written: the builder is
/// given one (the width of the input's object count, which the output never exceeds when
/// nothing is expanded) and `fitsReferenceSize` says afterwards whether the objects numbered
/// need exactly that width; when not, the caller writes again with the right one.
struct BinaryPropertyListFileBuilder: ~Copyable {
    /// The file so far: the header, then the objects numbered so far.
    var out: BinaryPropertyListOutput
    /// Where each object numbered so far starts in `out`.
    var offsets: [UInt32]
    /// The scalars written, by the hash of their encoding.
    let places: ScalarTable
    /// The bytes of each reference.
    let refSize: Int

    /// A builder for about `expectedOffsets` objects, `expectedObjects` of them looked up in the
    /// uniquing table (none when the caller numbers scalars with `numberScalar`), in about
    /// `expectedBytes` bytes, with references of `refSize` bytes (1, 2, 4 or 8).
    init(expectedObjects: Int, expectedOffsets: Int, expectedBytes: Int, refSize: Int) {
        self.refSize = refSize
        places = ScalarTable(expected: expectedObjects)
        out = BinaryPropertyListOutput(capacity: max(expectedBytes, 1 << 16))
        out.bytes.append("bplist00")
        offsets = []
        offsets.reserveCapacity(expectedOffsets)
        HugePages.advise(&offsets)
    }

    var objectCount: Int { offsets.count }

    /// Whether another object could not be numbered or placed: past what references and
    /// offsets of 32 bits name. The transcoder then leaves the file to the tree writer.
    var isFull: Bool { offsets.count >= Int(UInt32.max) - 1 || out.bytes.length > Int(UInt32.max) }

    /// Whether the objects numbered need references of exactly `refSize` bytes, the smallest
    /// of CF's widths that names every object.
    var fitsReferenceSize: Bool { BinaryPropertyListObjectTable.width(for: offsets.count - 1) == refSize }

    /// Numbers and writes collection `marker` (0xA, 0xC or 0xD) of `entries` entries, before its
    /// children; returns its index and where its `references` references start, for
    /// `setReference`. Nil when the builder is full (`isFull`) or the references would not fit
    /// in memory.
    @inline(__always)
    mutating func beginCollection(_ marker: UInt8, entries: Int, references: Int) -> (index: Int, refs: Int)? {
        let (refBytes, overflow) = references.multipliedReportingOverflow(by: refSize)
        guard !isFull, !overflow, refBytes <= Int(UInt32.max) else { return nil }
        let index = offsets.count
        offsets.append(UInt32(truncatingIfNeeded: out.bytes.length))
        out.bytes.reserve(BinaryPropertyListOutput.headerSize(count: entries))
        out.writeHeaderUnchecked(marker, count: entries)
        let refs = out.bytes.length
        out.bytes.append(repeating: 0, count: refBytes)
        return (index, refs)
    }

    /// Writes reference `child` at `position` of the references `beginCollection` made room for.
    @inline(__always)
    mutating func setReference(_ child: Int, at position: Int) {
        let to = UnsafeMutableRawPointer(out.bytes.base + position)
        let v = UInt64(truncatingIfNeeded: child)
        switch refSize {
        case 1: to.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
        case 2: to.storeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian, as: UInt16.self)
        case 4: to.storeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, as: UInt32.self)
        default: to.storeBytes(of: v.bigEndian, as: UInt64.self)
        }
    }

    /// Where the next scalar's encoding begins.
    @inline(__always)
    var scalarStart: Int { out.bytes.length }

    /// Ends the scalar whose encoding was appended from `start` on: the index of an equal
    /// scalar already written, this copy dropped again, or of this one, numbered now.
    ///
    /// Encodings are prefix-free (the marker and count give the length), so an earlier scalar
    /// whose bytes begin with the whole of this encoding is this very encoding; and its bytes
    /// lie before `start`, so as many bytes from it are all written.
    @inline(__always)
    mutating func finishScalar(from start: Int) -> Int {
        let length = out.bytes.length - start
        let encoded = UnsafeRawPointer(out.bytes.base + start)
        let hash = ScalarTable.hash(UnsafeRawBufferPointer(start: encoded, count: length))
        let (found, at) = places.lookUp(hash) { index in
            memcmp(out.bytes.base + Int(offsets[index]), encoded, length) == 0
        }
        if let found {
            out.bytes.truncate(to: start)
            return found
        }
        let index = offsets.count
        offsets.append(UInt32(truncatingIfNeeded: start))
        places.insert(index, hash: hash, at: at)
        return index
    }

    /// Numbers the scalar whose encoding was appended from `start` on as an object of its own,
    /// without looking for an equal one: for a walk that knows no two are equal.
    @inline(__always)
    mutating func numberScalar(from start: Int) -> Int {
        offsets.append(UInt32(truncatingIfNeeded: start))
        return offsets.count - 1
    }

    /// The whole file: the objects, the offset table with the smallest offset width, and the
    /// trailer, object 0 at the top.
    consuming func finish() -> OutputBuffer {
        let tableOffset = out.bytes.length
        let offsetSize = BinaryPropertyListObjectTable.width(for: tableOffset)
        out.bytes.reserve(offsets.count * offsetSize + 32)
        for offset in offsets { out.writeBigEndianUnchecked(UInt64(offset), size: offsetSize) }
        out.writeTrailer(offsetSize: offsetSize, refSize: refSize, objectCount: offsets.count, tableOffset: tableOffset)
        return out.bytes
    }
}
