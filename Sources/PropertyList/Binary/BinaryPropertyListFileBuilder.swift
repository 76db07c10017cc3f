import Foundation

/// A binary property list written object by object where each object stays in the file, for
/// the binary transcoder: one pass, with no table of objects to lay out and copy afterwards.
///
/// The transcoder numbers objects in file order (a collection before its children, depth
/// first, as CF does), and knows a collection's entry count when it opens it, so the collection
/// is written then with room for its references, which are filled in as its children are
/// numbered. Scalars are written as `BinaryPropertyListOutput` encodes them, one object for each
/// input object (see `BinaryPropertyListParser.BinaryTranscoding`), so the file is byte for byte
/// the one `BinaryPropertyListLayoutWriter` gives for the tree read.
///
/// The reference width must be known before the first collection is written: the builder is
/// given one (CF's width for the input's object count) and `fitsReferenceSize` says afterwards
/// whether the objects numbered need exactly that width; when not, the caller writes again with
/// the right one.
///
/// Given the input file (`source`), the builder first compares instead of writing: a file CF
/// wrote comes back byte for byte, so while every byte laid out equals the input's at the same
/// place, nothing is kept but the offsets, and what is handed on is the input's own bytes. The
/// first object, reference or table entry that differs copies the input's bytes so far into
/// the file (`diverge`), and the builder writes as usual from there; the bytes are the same
/// either way. A file that matches to its trailer costs no output buffer at all.
///
/// A builder may also lay out the second part of a file on speculation (`init(continuing:…)`):
/// from a given object and byte of the input on, mirroring only. It is then the input's
/// layout or nothing: the first difference abandons it (`isAbandoned`), and from there it
/// writes nothing at all, so that its walk can end safely and be dropped.
struct BinaryPropertyListFileBuilder: ~Copyable {
    /// The file so far: the header, then the objects numbered so far. While the builder
    /// mirrors its source, one object's encoding at a time, to be compared.
    var out: BinaryPropertyListOutput
    /// The input file while every byte laid out so far is its own (its first `mirrored` bytes);
    /// nil once something differed, or when no input was given.
    private var source: UnsafeRawBufferPointer?
    /// The input's trailer, for comparing the offset table and trailer at the end.
    private let sourceTrailer: BinaryPropertyListTrailer?
    /// The bytes laid out so far while mirroring.
    private var mirrored = 0
    /// The size `out` is given when the builder starts writing.
    private let expectedBytes: Int
    /// Where each object numbered so far starts in `out`, from object `firstIndex` on.
    var offsets: [UInt32]
    /// The index of the first object this builder numbers: 0, or for a builder that continues
    /// a file, the index its first object has in the input.
    private let firstIndex: Int
    /// Whether the builder, continuing a file on speculation, met a difference from the input:
    /// it then writes nothing more, and what it laid out is to be dropped.
    private(set) var isAbandoned = false
    /// Whether a difference from the input abandons the builder rather than making it write.
    private let abandonsOnDifference: Bool
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

    /// A builder for about `expectedOffsets` objects in about `expectedBytes` bytes, with
    /// references of `refSize` bytes (1, 2, 4 or 8).
    /// With `progressive`, the file is also written there as it grows, every `handOnEvery`
    /// bytes or so, and whole by `finish()`.
    /// With `source` (the input file) and its `sourceTrailer`, the builder compares with it
    /// before it writes anything (see above).
    init(expectedOffsets: Int, expectedBytes: Int, refSize: Int,
         progressive: (any PositionedOutput)? = nil, handOnEvery: Int = 4 << 20,
         source: UnsafeRawBufferPointer? = nil, sourceTrailer: BinaryPropertyListTrailer? = nil) {
        self.refSize = refSize
        self.progressive = progressive
        self.handOnEvery = max(handOnEvery, 1)
        self.expectedBytes = max(expectedBytes, 1 << 16)
        self.sourceTrailer = sourceTrailer
        firstIndex = 0
        abandonsOnDifference = false
        if let source, let sourceTrailer, let start = source.baseAddress, sourceTrailer.objectRefSize == refSize,
           source.count >= 8, memcmp(start, "bplist00", 8) == 0 {
            self.source = source
            mirrored = 8
            out = BinaryPropertyListOutput(capacity: 4096)
        } else {
            out = BinaryPropertyListOutput(capacity: self.expectedBytes)
            out.bytes.append("bplist00")
        }
        offsets = []
        offsets.reserveCapacity(expectedOffsets)
        HugePages.advise(&offsets)
    }

    /// A builder that lays out, on speculation, the part of the input `source` from object
    /// `index` on, which starts at byte `byte`: mirroring only, with references of `refSize`
    /// bytes, for about `expectedOffsets` objects. Nothing is handed on; the first difference
    /// from the input abandons it (see above).
    init(continuing source: UnsafeRawBufferPointer, fromObject index: Int, atByte byte: Int, refSize: Int, expectedOffsets: Int) {
        self.refSize = refSize
        progressive = nil
        handOnEvery = 1 << 30
        expectedBytes = 1 << 16
        sourceTrailer = nil
        firstIndex = index
        abandonsOnDifference = true
        self.source = source
        mirrored = byte
        out = BinaryPropertyListOutput(capacity: 4096)
        offsets = []
        offsets.reserveCapacity(expectedOffsets)
        HugePages.advise(&offsets)
    }

    /// Takes over what `continuation` laid out after this builder's objects: its objects
    /// become this file's next ones. Only where both mirror the input, `continuation` was not
    /// abandoned, and it starts at this builder's next object and byte (`continues(at:_:)`).
    /// Its bytes are handed on as the walk hands on what it lays out, `handOnEvery` bytes at a
    /// time, the last piece by `finish()`.
    mutating func append(_ continuation: borrowing BinaryPropertyListFileBuilder) {
        offsets.append(contentsOf: continuation.offsets)
        if progressive != nil {
            while continuation.mirrored - handedOn > handOnEvery {
                mirrored = handedOn + handOnEvery
                handOn()
            }
        }
        mirrored = continuation.mirrored
    }

    /// Whether this builder still mirrors its input, has numbered exactly the objects before
    /// `index`, and has laid out exactly its bytes before `byte`: where a continuation starting
    /// at that object and byte takes up.
    func continues(at index: Int, _ byte: Int) -> Bool {
        source != nil && !isAbandoned && objectCount == index && mirrored == byte
    }

    var objectCount: Int { firstIndex + offsets.count }

    /// Whether another object could not be numbered or placed: past what references and
    /// offsets of 32 bits name. The transcoder then leaves the file to the tree writer.
    var isFull: Bool { objectCount >= Int(UInt32.max) - 1 || length > Int(UInt32.max) }

    /// The bytes laid out so far.
    private var length: Int { source == nil ? out.bytes.length : mirrored }

    /// The start of the file laid out so far: the input's bytes while mirroring them.
    private var fileBase: UnsafeRawPointer { source?.baseAddress ?? UnsafeRawPointer(out.bytes.base) }

    /// Whether the bytes laid out so far are the input's own.
    var isMirroring: Bool { source != nil }

    /// Whether the objects numbered need references of exactly `refSize` bytes: the width CF
    /// gives the object count (`_byteCount(cnt)`, the smallest of 1, 2, 4 and 8 bytes that holds
    /// the count itself).
    var fitsReferenceSize: Bool { BinaryPropertyListObjectTable.width(for: objectCount) == refSize }

    /// Numbers and writes collection `marker` (0xA, 0xC or 0xD) of `entries` entries, before its
    /// children; returns its index and where its `references` references start, for
    /// `setReference`. Nil when the builder is full (`isFull`) or the references would not fit
    /// in memory.
    @inline(__always)
    mutating func beginCollection(_ marker: UInt8, entries: Int, references: Int) -> (index: Int, refs: Int)? {
        let (refBytes, overflow) = references.multipliedReportingOverflow(by: refSize)
        guard !isFull, !overflow, refBytes <= Int(UInt32.max) else { return nil }
        if source != nil {
            if let refs = mirrorCollection(marker, entries: entries, refBytes: refBytes) { return (objectCount - 1, refs) }
            diverge()
            if isAbandoned { return (0, 0) }
        }
        // Between objects, every byte so far is final but for references still to be set,
        // which `setReference` marks: a place to hand the file on.
        if progressive != nil, out.bytes.length &- handedOn >= handOnEvery { handOn() }
        let index = objectCount
        offsets.append(UInt32(truncatingIfNeeded: out.bytes.length))
        out.bytes.reserve(BinaryPropertyListOutput.headerSize(count: entries))
        out.writeHeaderUnchecked(marker, count: entries)
        let refs = out.bytes.length
        out.bytes.append(repeating: 0, count: refBytes)
        return (index, refs)
    }

    /// While mirroring: numbers collection `marker` when its header is the input's at the same
    /// place and its references fit in the input, and gives where they start; nil otherwise.
    @inline(__always)
    private mutating func mirrorCollection(_ marker: UInt8, entries: Int, refBytes: Int) -> Int? {
        guard let source, let start = source.baseAddress else { return nil }
        out.bytes.reserve(BinaryPropertyListOutput.headerSize(count: entries))
        out.writeHeaderUnchecked(marker, count: entries)
        let header = out.bytes.length
        out.bytes.truncate(to: 0)
        guard source.count - mirrored >= header, source.count - mirrored - header >= refBytes,
              Self.same(start + mirrored, UnsafeRawPointer(out.bytes.base), header) else { return nil }
        if progressive != nil, mirrored &- handedOn >= handOnEvery { handOn() }
        offsets.append(UInt32(truncatingIfNeeded: mirrored))
        let refs = mirrored + header
        mirrored = refs + refBytes
        return refs
    }

    /// Writes reference `child` at `position` of the references `beginCollection` made room for.
    @inline(__always)
    mutating func setReference(_ child: Int, at position: Int) {
        if let source {
            if readReference(source, at: position) == UInt64(truncatingIfNeeded: child) { return }
            diverge()
            if isAbandoned { return }
        }
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

    /// The reference of `refSize` bytes at `position` of the input, which lies before `mirrored`.
    @inline(__always)
    private func readReference(_ source: UnsafeRawBufferPointer, at position: Int) -> UInt64 {
        let from = UnsafeRawPointer(source.baseAddress.unsafelyUnwrapped) + position
        switch refSize {
        case 1: return UInt64(from.load(as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: from.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: from.loadUnaligned(as: UInt32.self)))
        default: return UInt64(bigEndian: from.loadUnaligned(as: UInt64.self))
        }
    }

    /// Whether the `n` bytes at `a` and `b` are the same: short runs (most scalars, every
    /// header) by a few overlapping word loads rather than a call to `memcmp`.
    @inline(__always)
    static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
        switch n {
        case 8...16:
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
        case 0..<4:
            for i in 0..<n where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            return true
        default:
            return memcmp(a, b, n) == 0
        }
    }

    /// Stops mirroring: the input's bytes so far become the file's, followed by the encoding
    /// waiting in `out` to be compared, and the builder writes from there on.
    /// A builder that continues a file on speculation is abandoned instead, keeping its source
    /// (so that every later step compares, fails and does nothing) and writing nothing.
    @inline(never)
    private mutating func diverge() {
        if abandonsOnDifference {
            isAbandoned = true
            return
        }
        guard let source, let start = source.baseAddress else { return }
        var file = BinaryPropertyListOutput(capacity: max(expectedBytes, mirrored + out.bytes.length + 4096))
        file.bytes.append(UnsafeRawBufferPointer(start: start, count: mirrored))
        if out.bytes.length > 0 { file.bytes.append(UnsafeRawBufferPointer(start: out.bytes.base, count: out.bytes.length)) }
        out = file
        self.source = nil
    }

    /// Hands the bytes written since the last time on to `progressive`.
    @inline(never)
    private mutating func handOn() {
        guard let progressive else { return }
        let length = self.length
        progressive.write(UnsafeRawBufferPointer(start: fileBase + handedOn, count: length - handedOn), at: handedOn)
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

    /// Numbers the scalar whose encoding was appended from `start` on as an object of its own:
    /// the walk writes each input object once (see `BinaryTranscoding.scalarIndexes`).
    @inline(__always)
    mutating func numberScalar(from start: Int) -> Int {
        var start = start
        if let source, let base = source.baseAddress {
            let n = out.bytes.length - start
            if !isAbandoned, source.count - mirrored >= n, Self.same(base + mirrored, UnsafeRawPointer(out.bytes.base + start), n) {
                offsets.append(UInt32(truncatingIfNeeded: mirrored))
                mirrored += n
                out.bytes.truncate(to: start)
                return objectCount - 1
            }
            // The encoding follows the input's bytes so far in the file.
            let before = mirrored
            diverge()
            if isAbandoned {
                out.bytes.truncate(to: start)
                return 0
            }
            start += before
        }
        offsets.append(UInt32(truncatingIfNeeded: start))
        return objectCount - 1
    }

    /// While mirroring, with the input's next object at `start`: numbers it as a scalar whose
    /// encoding is the header just appended to `out` from `from` on, followed by `bodyLength`
    /// bytes the encoding takes from the input as they are (a real, a date, data, a string kept
    /// in its encoding). Only the header is compared: when it is the input's, so is the body,
    /// which is then neither copied nor compared. Nil, with `out` as it was before the header,
    /// when not mirroring, the object is not the next in the input, or the header differs:
    /// the caller then writes the scalar the ordinary way.
    @inline(__always)
    mutating func mirrorScalar(at start: Int, headerFrom from: Int, bodyLength: Int) -> Int? {
        let header = out.bytes.length - from
        out.bytes.truncate(to: from)
        guard let source, let base = source.baseAddress, !isAbandoned, start == mirrored, source.count - mirrored >= header,
              source.count - mirrored - header >= bodyLength,
              Self.same(base + mirrored, UnsafeRawPointer(out.bytes.base + from), header) else { return nil }
        offsets.append(UInt32(truncatingIfNeeded: mirrored))
        mirrored += header + bodyLength
        return objectCount - 1
    }

    /// The whole file: the objects, the offset table with the smallest offset width, and the
    /// trailer, object 0 at the top.
    /// The file is the input's bytes when the builder is still mirroring them and the offset
    /// table and trailer it would write are the input's too; without `keepingWhole` (the file
    /// was handed on), it then returns an empty buffer rather than a copy.
    consuming func finish(keepingWhole: Bool = true) -> OutputBuffer {
        if source != nil {
            if let whole = finishMirrored(keepingWhole: keepingWhole) { return whole }
            out.bytes.truncate(to: 0)
            diverge()
        }
        let tableOffset = out.bytes.length
        let offsetSize = BinaryPropertyListObjectTable.width(for: tableOffset)
        out.bytes.reserve(offsets.count * offsetSize + 32)
        for offset in offsets { out.writeBigEndianUnchecked(UInt64(offset), size: offsetSize) }
        out.writeTrailer(offsetSize: offsetSize, refSize: refSize, objectCount: offsets.count, tableOffset: tableOffset)
        if let progressive { handOnTheRest(to: progressive) }
        return out.bytes
    }

    /// The end of `finish` while mirroring: nil when the offset table or trailer this file would
    /// have differs from the input's.
    private mutating func finishMirrored(keepingWhole: Bool) -> OutputBuffer? {
        guard let source, let start = source.baseAddress, let trailer = sourceTrailer else { return nil }
        let tableOffset = mirrored
        let offsetSize = BinaryPropertyListObjectTable.width(for: tableOffset)
        guard trailer.offsetTableOffset == tableOffset, trailer.offsetIntSize == offsetSize,
              trailer.objectCount == offsets.count, trailer.objectRefSize == refSize,
              source.count == tableOffset + offsets.count * offsetSize + BinaryPropertyListTrailer.size else { return nil }
        // The trailer, written as `finish` writes it, against the input's.
        out.bytes.truncate(to: 0)
        out.writeTrailer(offsetSize: offsetSize, refSize: refSize, objectCount: offsets.count, tableOffset: tableOffset)
        let trailerStart = source.count - BinaryPropertyListTrailer.size
        guard out.bytes.length == BinaryPropertyListTrailer.size,
              memcmp(start + trailerStart, out.bytes.base, BinaryPropertyListTrailer.size) == 0 else { return nil }
        var at = start + tableOffset
        if offsetSize == 4 {
            for offset in offsets {
                guard UInt32(bigEndian: at.loadUnaligned(as: UInt32.self)) == offset else { return nil }
                at += 4
            }
        } else {
            for offset in offsets {
                var v: UInt64 = 0
                for i in 0..<offsetSize { v = v << 8 | UInt64(at.load(fromByteOffset: i, as: UInt8.self)) }
                guard v == UInt64(offset) else { return nil }
                at += offsetSize
            }
        }
        if let progressive {
            progressive.write(UnsafeRawBufferPointer(start: start + handedOn, count: source.count - handedOn), at: handedOn)
        }
        var whole = OutputBuffer(capacity: keepingWhole ? source.count : 64)
        if keepingWhole { whole.append(source) }
        return whole
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
