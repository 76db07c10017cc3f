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
    /// Where the file is handed on as it grows, when it is: the bytes before `handedOn` have
    /// been written there, and a reference set before `handedOn` afterwards marks its page in
    /// `patchedPages`, to be written again by `finish()`.
    let progressive: (any PositionedOutput)?
    /// The file is handed on each time it has grown by this many bytes, at the next collection.
    let handOnEvery: Int
    private(set) var handedOn = 0
    /// One bit per 4 KiB page before `handedOn`: set when a reference in it changed after the
    /// page was handed on.
    private var patchedPages: [UInt64] = []
    static let pageShift = 12

    /// A builder for about `expectedOffsets` objects, `expectedObjects` of them looked up in the
    /// uniquing table (none when the caller numbers scalars with `numberScalar`), in about
    /// `expectedBytes` bytes, with references of `refSize` bytes (1, 2, 4 or 8).
    /// With `progressive`, the file is also written there as it grows, every `handOnEvery`
    /// bytes or so, and whole by `finish()`.
    init(expectedObjects: Int, expectedOffsets: Int, expectedBytes: Int, refSize: Int,
         progressive: (any PositionedOutput)? = nil, handOnEvery: Int = 4 << 20) {
        self.refSize = refSize
        self.progressive = progressive
        self.handOnEvery = max(handOnEvery, 1)
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
        // Between objects, every byte so far is final but for references still to be set,
        // which `setReference` marks: a place to hand the file on.
        if progressive != nil, out.bytes.length &- handedOn >= handOnEvery { handOn() }
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
        if position < handedOn { markPatched(position) }
    }

    /// Hands the bytes written since the last time on to `progressive`.
    @inline(never)
    private mutating func handOn() {
        guard let progressive else { return }
        let length = out.bytes.length
        progressive.write(UnsafeRawBufferPointer(start: out.bytes.base + handedOn, count: length - handedOn), at: handedOn)
        handedOn = length
        let words = ((length >> Self.pageShift) >> 6) + 1
        if patchedPages.count < words { patchedPages.append(contentsOf: repeatElement(0, count: words - patchedPages.count)) }
    }

    /// Marks the pages of the reference at `position`, already handed on, to be written again.
    @inline(never)
    private mutating func markPatched(_ position: Int) {
        // A reference lies wholly before `handedOn`, in one page or across two.
        let first = position >> Self.pageShift, last = (position + refSize - 1) >> Self.pageShift
        patchedPages[first >> 6] |= 1 << UInt64(first & 63)
        patchedPages[last >> 6] |= 1 << UInt64(last & 63)
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
        if let progressive { handOnTheRest(to: progressive) }
        return out.bytes
    }

    /// Writes what `progressive` has not had yet: the bytes after `handedOn`, and each run of
    /// pages before it whose references changed since.
    private func handOnTheRest(to progressive: any PositionedOutput) {
        let length = out.bytes.length
        progressive.write(UnsafeRawBufferPointer(start: out.bytes.base + handedOn, count: length - handedOn), at: handedOn)
        var page = 0
        let pages = (handedOn + (1 << Self.pageShift) - 1) >> Self.pageShift
        while page < pages {
            guard patchedPages[page >> 6] & (1 << UInt64(page & 63)) != 0 else {
                page += 1
                continue
            }
            var end = page + 1
            while end < pages, patchedPages[end >> 6] & (1 << UInt64(end & 63)) != 0 { end += 1 }
            let from = page << Self.pageShift, to = min(end << Self.pageShift, handedOn)
            progressive.write(UnsafeRawBufferPointer(start: out.bytes.base + from, count: to - from), at: from)
            page = end
        }
    }
}
