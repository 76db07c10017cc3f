import Foundation

/// The objects of one binary property list being written from a `PropertyListValue` tree, numbered
/// as CF numbers them, and their serialization.
///
/// `BinaryPropertyListFlattener` fills it. Scalars are kept as the bytes they are written as
/// (`BinaryPropertyListOutput`'s encodings), and equal scalars are stored once by comparing
/// those bytes: two scalars have the same encoding exactly when CF stores them as one object
/// (same kind, and strings with the same code points, numbers and dates with the same bits, data
/// with the same bytes). The binary transcoder numbers and encodes objects the same way but
/// writes them straight into the file (`BinaryPropertyListFileBuilder`), so the two give the
/// same bytes.
///
/// Collections are numbered before their children (depth first, as CF does), and their
/// references are known only once the children are: their children are gathered on one stack
/// shared by all open collections, so that a million small collections allocate nothing each.
struct BinaryPropertyListObjectTable: ~Copyable {
    /// One object: a scalar's encoding at `start` in `scalarBytes`, `info` bytes long; or a
    /// collection, whose marker nibble is the high byte of `info`, its entry count the rest,
    /// and whose references start at `start` in `refs` (a dictionary's keys, then its values).
    struct Slot {
        var start: Int
        var info: UInt64

        /// A scalar's marker byte is 0 here; collections are 0xA, 0xC and 0xD.
        var marker: UInt8 { UInt8(truncatingIfNeeded: info >> 56) }
        var count: Int { Int(truncatingIfNeeded: info & 0x00FF_FFFF_FFFF_FFFF) }
    }

    var slots: [Slot] = []
    /// References, as object indexes. A table holds fewer than 2^32 objects: more would be a
    /// file of over 4 billion objects, which no tree in memory comes near.
    var refs: [UInt32] = []
    /// The encodings of the distinct scalars, one after another.
    var scalarBytes: BinaryPropertyListOutput
    /// The children numbered so far of every collection still open, innermost last.
    var pendingChildren: [UInt32] = []
    let places: ScalarTable

    /// A table for about `expectedObjects` objects, `expectedReferences` references and
    /// `expectedScalarBytes` bytes of scalars, as far as those are known (the size of a binary
    /// input bounds them when it is rewritten without expansion), so that it need not grow.
    init(expectedObjects: Int = 0, expectedReferences: Int = 0, expectedScalarBytes: Int = 1 << 16) {
        places = ScalarTable(expected: expectedObjects)
        scalarBytes = BinaryPropertyListOutput(capacity: max(expectedScalarBytes, 1 << 16))
        slots.reserveCapacity(expectedObjects)
        refs.reserveCapacity(expectedReferences)
        HugePages.advise(&slots)
        HugePages.advise(&refs)
    }

    /// Whether the table has numbered as many objects as references can name.
    var isFull: Bool { slots.count >= Int(UInt32.max) - 1 }

    /// Stops a write of a tree of more than 4 billion values, which could not be held in
    /// memory to be written.
    @inline(__always)
    func checkRoom() {
        if isFull { preconditionFailure("a binary property list holds fewer than 2^32 objects") }
    }

    /// Numbers a collection before its children; returns its index and where its children
    /// begin on the pending stack, for `endCollection`.
    @inline(__always)
    mutating func beginCollection() -> (index: Int, childrenStart: Int) {
        checkRoom()
        slots.append(Slot(start: 0, info: 0))
        return (slots.count - 1, pendingChildren.count)
    }

    /// Adds the next child (or key) of the innermost open collection.
    @inline(__always)
    mutating func addChild(_ index: Int) {
        pendingChildren.append(UInt32(truncatingIfNeeded: index))
    }

    /// Closes collection `index` of kind `marker` (0xA, 0xC or 0xD) with `entries` entries,
    /// whose references are the children added since `childrenStart`.
    @inline(__always)
    mutating func endCollection(_ index: Int, marker: UInt8, childrenStart: Int, entries: Int) {
        let start = refs.count
        refs.append(contentsOf: pendingChildren[childrenStart...])
        pendingChildren.removeSubrange(childrenStart...)
        slots[index] = Slot(start: start, info: UInt64(marker) << 56 | UInt64(entries))
    }

    /// Where the next scalar's encoding begins in `scalarBytes`.
    @inline(__always)
    var scalarStart: Int { scalarBytes.bytes.length }

    /// The scalar appended to `scalarBytes` from `start` on: its length, its hash, the index of
    /// an equal scalar already numbered, and where in `places` a new one goes.
    @inline(__always)
    func lookUpScalar(from start: Int) -> (length: Int, hash: UInt64, found: Int?, at: Int) {
        let length = scalarBytes.bytes.length - start
        let encoded = UnsafeRawPointer(scalarBytes.bytes.base + start)
        let hash = ScalarTable.hash(UnsafeRawBufferPointer(start: encoded, count: length))
        let (found, at) = places.lookUp(hash) { index in
            let existing = slots[index]
            return existing.count == length && memcmp(scalarBytes.bytes.base + existing.start, encoded, length) == 0
        }
        return (length, hash, found, at)
    }

    /// Ends the scalar whose encoding was appended to `scalarBytes` from `start` on: the index
    /// of an equal scalar already numbered, whose bytes are kept and this copy dropped, or of
    /// this one, numbered now.
    mutating func finishScalar(from start: Int) -> Int {
        let (length, hash, found, at) = lookUpScalar(from: start)
        if let found {
            scalarBytes.bytes.truncate(to: start)
            return found
        }
        checkRoom()
        let index = slots.count
        slots.append(Slot(start: start, info: UInt64(length)))
        places.insert(index, hash: hash, at: at)
        return index
    }

    /// Numbers the scalar appended from `start` on as an object of its own, not looked up or
    /// found by later look-ups: an object of the original that `BinaryPropertyListLayoutWriter`
    /// keeps apart from equal new ones.
    mutating func numberScalar(from start: Int) -> Int {
        checkRoom()
        slots.append(Slot(start: start, info: UInt64(scalarBytes.bytes.length - start)))
        return slots.count - 1
    }

    /// Numbers the scalar appended from `start` on as an object of its own, and returns the index
    /// of the first equal one (itself when it is the first): CF's layout of booleans and UIDs,
    /// written again at each place but referred to by their first copy.
    mutating func finishRepeatedScalar(from start: Int) -> Int {
        let (length, hash, found, at) = lookUpScalar(from: start)
        checkRoom()
        let index = slots.count
        slots.append(Slot(start: start, info: UInt64(length)))
        if let found { return found }
        places.insert(index, hash: hash, at: at)
        return index
    }

    /// The smallest of CF's widths (1, 2, 4, 8 bytes) that holds `value`.
    static func width(for value: Int) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// The file: header, objects in index order with the smallest reference width, the offset
    /// table with the smallest offset width, and the trailer, object 0 at the top.
    consuming func serialize() -> Data {
        let layout = layout()
        var out = BinaryPropertyListOutput(capacity: layout.fileSize)
        write(layout, into: &out, chunkSize: 0, drain: nil)
        return out.finish()
    }

    /// `serialize()`'s bytes handed to `drain` a chunk of about `chunkSize` bytes at a time,
    /// without holding the whole file.
    consuming func serialize(chunkSize: Int, drain: (UnsafeRawBufferPointer) -> Void) {
        var out = BinaryPropertyListOutput(capacity: chunkSize + 4096)
        withoutActuallyEscaping(drain) { drain in
            write(layout(), into: &out, chunkSize: chunkSize, drain: drain)
        }
        out.bytes.drain(drain)
    }

    /// The widths and sizes of the file, all known before anything is written.
    struct Layout {
        var refSize: Int
        var offsetSize: Int
        /// Where the offset table starts: the header and every object come before it.
        var tableOffset: Int
        var fileSize: Int
    }

    func layout() -> Layout {
        // CF's `_byteCount(cnt)`: the width that holds the object count itself.
        let refSize = Self.width(for: slots.count)
        var objectBytes = 0
        for slot in slots {
            objectBytes += size(of: slot, refSize: refSize)
        }
        let tableOffset = 8 + objectBytes
        let offsetSize = Self.width(for: tableOffset)
        return Layout(refSize: refSize, offsetSize: offsetSize, tableOffset: tableOffset,
                      fileSize: tableOffset + slots.count * offsetSize + 32)
    }

    /// The bytes object `slot` takes in the file.
    @inline(__always)
    func size(of slot: Slot, refSize: Int) -> Int {
        if slot.marker == 0 { return slot.count }
        let count = slot.count
        return BinaryPropertyListOutput.headerSize(count: count) + (slot.marker == 0xD ? 2 * count : count) * refSize
    }

    /// Writes the file into `out`, handing it on whenever it passes the chunk size when `drain`
    /// is given.
    func write(_ layout: Layout, into out: inout BinaryPropertyListOutput, chunkSize: Int,
               drain: ((UnsafeRawBufferPointer) -> Void)?) {
        let refSize = layout.refSize, offsetSize = layout.offsetSize
        out.bytes.append("bplist00")
        let arena = UnsafeRawPointer(scalarBytes.bytes.base)
        refs.withUnsafeBufferPointer { refs in
            for slot in slots {
                out.bytes.reserve(size(of: slot, refSize: refSize))
                let marker = slot.marker
                if marker == 0 {
                    out.bytes.appendUnchecked(arena + slot.start, count: slot.count)
                } else {
                    let count = slot.count
                    out.writeHeaderUnchecked(marker, count: count)
                    let total = marker == 0xD ? count * 2 : count
                    for r in slot.start..<slot.start + total { out.writeBigEndianUnchecked(UInt64(refs[r]), size: refSize) }
                }
                out.bytes.drain(ifAtLeast: chunkSize, to: drain)
            }
        }
        // The offset table: each object's offset, counted again from the sizes.
        var offset = 8
        for slot in slots {
            out.bytes.reserve(offsetSize)
            out.writeBigEndianUnchecked(UInt64(offset), size: offsetSize)
            offset += size(of: slot, refSize: refSize)
            out.bytes.drain(ifAtLeast: chunkSize, to: drain)
        }
        out.writeTrailer(offsetSize: offsetSize, refSize: refSize, objectCount: slots.count, tableOffset: layout.tableOffset)
    }
}
