import Foundation

/// Walks that write a binary property list in another form as they read it, without building
/// its tree: what `BinaryPropertyListConverter` runs.
///
/// Each walk reads the objects `read` reads, in the order the writer of that form visits them,
/// with `read`'s checks (offsets, markers, sizes, depth, cycles, the expansion limits), and
/// writes what that writer writes for the value `read` would give. A walk stops with
/// `needsTree` on anything it does not take; it is then the reader and the writer that run,
/// and report any error as they always do.
///
/// Walks read with `Sharing.refused`: a collection or a large scalar met a second time stops
/// them. A small scalar is read again at each reference, as the writers write it again, so a
/// walk's work and output stay within 64 bytes per reference of the file, and no file can make
/// it write gigabytes before a limit stops it (a file of shared arrays is left to the tree,
/// which reads each once).
extension BinaryPropertyListParser {
    /// Thrown to give up a walk: the caller reads the tree and writes it the ordinary way.
    static let needsTree = PropertyListError(.malformed, "the transcoder gave up; read the tree")

    // MARK: Collections, as readArray and readDictionary check them

    /// Array or set `index` (at byte `start`), checked and opened as `readArray` does: its
    /// element count and where its references start.
    @inline(__always)
    mutating func openArray(_ index: Int, at start: Int, depth: Int) throws(PropertyListError) -> (count: Int, refs: Int) {
        let (count, body) = try self.count(Int(bytes[start] & 0x0F), at: start, index: index)
        let refs = try self.refs(count, at: body, index: index)
        try open(index, depth: depth, count: count)
        return (count, refs)
    }

    /// Dictionary `index` (at byte `start`), checked and opened as `readDictionary` does: its
    /// entry count and where its references start (keys, then values).
    @inline(__always)
    mutating func openDictionary(_ index: Int, at start: Int, depth: Int) throws(PropertyListError) -> (count: Int, refs: Int) {
        let (count, body) = try self.count(Int(bytes[start] & 0x0F), at: start, index: index)
        let (pairs, overflow) = count.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw Self.needsTree }
        let refs = try self.refs(pairs, at: body, index: index)
        try open(index, depth: depth, count: count)
        return (count, refs)
    }

    /// Gives up (`needsTree`) on a set with two members CF holds equal, which the reader keeps
    /// one of: sets are rare, so their scalar members are read and compared here.
    mutating func checkDistinctMembers(_ count: Int, refs: Int) throws(PropertyListError) {
        guard count > 1 else { return }
        var members: [PropertyListValue] = []
        members.reserveCapacity(count)
        for i in 0..<count {
            let member = ref(refs + i * trailer.objectRefSize)
            switch bytes[offset(member)] >> 4 {
            case 0xA, 0xC, 0xD:
                // Collections are compared by what they hold: left to the reader.
                throw Self.needsTree
            default:
                members.append(scalar(member))
            }
        }
        guard CoreFoundationKeyEquality.repeats(in: members, object: { i in offset(ref(refs + i * trailer.objectRefSize)) }).isEmpty else {
            throw Self.needsTree
        }
    }

    /// Whether the `count` key references at `refs` are those at `earlier`: dictionaries of one
    /// shape (CF uniques their keys) have the same bytes there.
    @inline(__always)
    func sameKeys(at refs: Int, as earlier: Int, count: Int) -> Bool {
        refs == earlier || memcmp(base + earlier, base + refs, count * trailer.objectRefSize) == 0
    }

    /// What has been added to the expanded size since it was `before`.
    @inline(__always)
    func grown(since before: Weight) -> Weight {
        Weight(values: expanded.values - before.values, bytes: expanded.bytes - before.bytes)
    }

    /// Checks and counts scalar object `index` (at byte `start`) as `read` does.
    @inline(__always)
    mutating func checkScalar(_ index: Int, at start: Int) throws(PropertyListError) -> FlatElementKind {
        var kind = FlatElementKind.other
        let weight = try scalarWeight(index, at: start, kind: &kind)
        if weight.bytes > Self.largeScalarBytes { try firstVisit(index) }
        try grow(by: weight, index: index)
        return kind
    }

    /// The integer at byte `start`, checked, as `readScalar` reads it.
    @inline(__always)
    func integer(at start: Int) -> PropertyListInteger {
        let size = 1 << Int(bytes[start] & 0x0F)
        if size == 16 {
            // CF keeps the last eight bytes, unsigned, and drops the first eight.
            return PropertyListInteger(high: 0, low: be(start + 9, 8))
        }
        let v = be(start + 1, size)
        return size == 8 ? PropertyListInteger(Int64(bitPattern: v)) : PropertyListInteger(v)
    }

    /// The real at byte `start`, checked, as `readScalar` reads it.
    @inline(__always)
    func real(at start: Int) -> Double {
        let size = 1 << Int(bytes[start] & 0x0F)
        let v = be(start + 1, size)
        return size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: v))) : Double(bitPattern: v)
    }

    /// The bytes of a data or string object at byte `start`, checked: its count and body.
    @inline(__always)
    func contents(at start: Int) -> (count: Int, body: Int) {
        // Checked by `scalarWeight`, so it cannot fail here.
        (try? count(Int(bytes[start] & 0x0F), at: start, index: 0)) ?? (0, start + 1)
    }

    // MARK: Reading checked scalars in place

    /// `body` with the UTF-8 of string object `index`, which a walk or scan has checked: an
    /// ASCII string's bytes where they are (valid UTF-8 in an ASCII string too), UTF-16
    /// transcoded into `scratch`. Nil for anything else, or a lone surrogate.
    func withStringUTF8<R>(_ index: Int, scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let start = offset(index)
        let marker = bytes[start]
        let kind = marker >> 4
        guard kind == 0x5 || kind == 0x6, let (count, body0) = try? count(Int(marker & 0x0F), at: start, index: index) else { return nil }
        if kind == 0x5 {
            guard count <= trailer.offsetTableOffset - body0 else { return nil }
            return body(UnsafeBufferPointer(start: (base + body0).assumingMemoryBound(to: UInt8.self), count: count))
        }
        guard count <= (trailer.offsetTableOffset - body0) / 2 else { return nil }
        if scratch.count < count * 3 { scratch = [UInt8](repeating: 0, count: count * 3) }
        let units = UnsafeRawBufferPointer(start: base + body0, count: count * 2)
        return scratch.withUnsafeMutableBufferPointer { out -> R? in
            guard let to = out.baseAddress, let written = Self.transcodeUTF16(units, into: to) else { return nil }
            return body(UnsafeBufferPointer(start: to, count: written))
        }
    }

    /// `body` with the bytes of data object `index`, checked, where they are; nil for anything else.
    func withDataBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        let start = offset(index)
        let marker = bytes[start]
        guard marker >> 4 == 0x4, let (count, body0) = try? count(Int(marker & 0x0F), at: start, index: index),
              count <= trailer.offsetTableOffset - body0 else { return nil }
        return body(UnsafeRawBufferPointer(start: base + body0, count: count))
    }

    // MARK: Checking

    /// The dictionaries' keys met most recently, by where their references are and how many,
    /// with what reading them adds to the expanded size and what a walk made of them:
    /// dictionaries of one shape (CF uniques their keys) have the same key references.
    struct KnownKeys<Made> {
        var refs: Int
        var count: Int
        var weight: Weight
        var made: Made
    }

    /// Whether `recent` has the keys whose `count` references start at `refs`.
    @inline(__always)
    func hasKeys<Made>(_ recent: KnownKeys<Made>, at refs: Int, count: Int) -> Bool {
        recent.count == count && sameKeys(at: refs, as: recent.refs, count: count)
    }

    /// Checks object `index` as `read` does, building nothing: the walk of `validate`.
    mutating func check(_ index: Int, depth: Int, recent: inout RecentRing<KnownKeys<Void>>) throws(PropertyListError) {
        let start = offset(index)
        let marker = bytes[start]
        let refSize = trailer.objectRefSize
        switch marker >> 4 {
        case 0xA, 0xC:
            let (count, refs) = try openArray(index, at: start, depth: depth)
            for i in 0..<count { try check(ref(refs + i * refSize), depth: depth + 1, recent: &recent) }
            leave(index)
        case 0xD:
            let (count, refs) = try openDictionary(index, at: start, depth: depth)
            if let known = recent.first(where: { hasKeys($0, at: refs, count: count) }) {
                try grow(by: known.weight, index: index)
            } else {
                let before = expanded
                for i in 0..<count {
                    let key = ref(refs + i * refSize)
                    let at = offset(key)
                    // A collection as a key: the reader's error.
                    let kind = bytes[at] >> 4
                    guard kind != 0xA, kind != 0xC, kind != 0xD else { throw Self.needsTree }
                    _ = try checkScalar(key, at: at)
                }
                recent.remember(KnownKeys(refs: refs, count: count, weight: grown(since: before), made: ()))
            }
            for i in 0..<count { try check(ref(refs + (count + i) * refSize), depth: depth + 1, recent: &recent) }
            leave(index)
        default:
            _ = try checkScalar(index, at: start)
        }
    }

    // MARK: XML

    /// What the XML walk keeps: the output, and the key orders of recent dictionaries.
    struct XMLTranscoding: ~Copyable {
        var out: OutputBuffer
        /// Where the output goes a chunk at a time; nil keeps it all in `out`.
        let drain: ((UnsafeRawBufferPointer) -> Void)?
        let chunkSize: Int
        /// UTF-8 of the UTF-16 string being written.
        var scratch: [UInt8] = []
        var recentKeys = RecentRing<KnownKeys<XMLPropertyListText.SortedKeys>>()

        init(capacity: Int, chunkSize: Int = 1 << 20, drain: ((UnsafeRawBufferPointer) -> Void)?) {
            out = OutputBuffer(capacity: drain == nil ? capacity : chunkSize + 4096)
            self.drain = drain
            self.chunkSize = chunkSize
        }

        /// Hands the output on once it passes the chunk size.
        @inline(__always)
        mutating func drainIfFull() {
            out.drain(ifAtLeast: chunkSize, to: drain)
        }
    }

    /// Writes object `index` as `XMLPropertyListWriter` writes the value `read` gives for it,
    /// at `indent`.
    mutating func transcodeXML(_ index: Int, depth: Int, indent: Int, into t: inout XMLTranscoding) throws(PropertyListError) {
        let start = offset(index)
        let marker = bytes[start]
        XMLPropertyListText.tabs(indent, into: &t.out)
        let refSize = trailer.objectRefSize
        switch marker >> 4 {
        case 0xA, 0xC:
            let (count, refs) = try openArray(index, at: start, depth: depth)
            if marker >> 4 == 0xC { try checkDistinctMembers(count, refs: refs) }
            if count == 0 {
                t.out.append("<array/>\n")
            } else {
                t.out.append("<array>\n")
                for i in 0..<count {
                    try transcodeXML(ref(refs + i * refSize), depth: depth + 1, indent: indent + 1, into: &t)
                    t.drainIfFull()
                }
                XMLPropertyListText.tabs(indent, into: &t.out)
                t.out.append("</array>\n")
            }
            leave(index)
        case 0xD:
            let (count, refs) = try openDictionary(index, at: start, depth: depth)
            let keys = try xmlKeys(count: count, refs: refs, depth: depth, into: &t)
            if count == 0 {
                t.out.append("<dict/>\n")
            } else {
                t.out.append("<dict>\n")
                for position in 0..<count {
                    XMLPropertyListText.tabs(indent + 1, into: &t.out)
                    keys.appendLine(position, into: &t.out)
                    let entry = keys.order[position]
                    try transcodeXML(ref(refs + (count + entry) * refSize), depth: depth + 1, indent: indent + 1, into: &t)
                }
                XMLPropertyListText.tabs(indent, into: &t.out)
                t.out.append("</dict>\n")
            }
            leave(index)
        default:
            try transcodeXMLScalar(index, at: start, indent: indent, into: &t)
        }
    }

    /// The keys of the dictionary whose references start at `refs`, read and counted as
    /// `readDictionary` reads them, in XML's order: from a recent dictionary with the same key
    /// references when there is one.
    mutating func xmlKeys(count: Int, refs: Int, depth: Int, into t: inout XMLTranscoding) throws(PropertyListError) -> XMLPropertyListText.SortedKeys {
        if let recent = t.recentKeys.first(where: { hasKeys($0, at: refs, count: count) }) {
            try grow(by: recent.weight, index: 0)
            return recent.made
        }
        let before = expanded
        var names: [String] = []
        names.reserveCapacity(count)
        for i in 0..<count {
            let key = try object(ref(refs + i * trailer.objectRefSize), depth: depth + 1)
            // Keys of other types: the reader's error, or the writer's.
            guard case .string(let name) = key else { throw Self.needsTree }
            names.append(name)
        }
        let sorted = XMLPropertyListText.SortedKeys(names: names)
        // A key written twice: the reader keeps the entry CF keeps.
        guard !sorted.hasRepeats else { throw Self.needsTree }
        t.recentKeys.remember(KnownKeys(refs: refs, count: count, weight: grown(since: before), made: sorted))
        return sorted
    }

    /// Writes scalar object `index` (at byte `start`), its first tabs written, as
    /// `XMLPropertyListWriter` writes the value `readScalar` gives.
    mutating func transcodeXMLScalar(_ index: Int, at start: Int, indent: Int, into t: inout XMLTranscoding) throws(PropertyListError) {
        let kind = try checkScalar(index, at: start)
        let marker = bytes[start]
        switch marker >> 4 {
        case 0x0:
            // Null has no XML form.
            guard marker != 0x00 else { throw Self.needsTree }
            t.out.append(marker == 0x09 ? "<true/>\n" : "<false/>\n")
        case 0x1:
            XMLPropertyListText.appendInteger(integer(at: start), into: &t.out)
        case 0x2:
            XMLPropertyListText.appendReal(real(at: start), into: &t.out)
        case 0x3:
            let date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: be(start + 1, 8)))
            guard XMLPropertyListText.appendDate(date, into: &t.out) else { throw Self.needsTree }
        case 0x4:
            let (count, body) = contents(at: start)
            XMLPropertyListText.appendData(UnsafeRawBufferPointer(start: base + body, count: count), indent: indent, into: &t.out)
        case 0x5:
            // ASCII, or UTF-8 that `scalarWeight` found valid: the string's own UTF-8.
            let (count, body) = contents(at: start)
            XMLPropertyListText.appendString(UnsafeBufferPointer(start: (base + body).assumingMemoryBound(to: UInt8.self), count: count), into: &t.out)
        case 0x6:
            // A lone surrogate has no XML form.
            guard kind == .string else { throw Self.needsTree }
            let (count, body) = contents(at: start)
            if t.scratch.count < count * 3 { t.scratch = [UInt8](repeating: 0, count: count * 3) }
            let units = UnsafeRawBufferPointer(start: base + body, count: count * 2)
            let written = t.scratch.withUnsafeMutableBufferPointer { scratch in
                scratch.baseAddress.flatMap { Self.transcodeUTF16(units, into: $0) }
            }
            guard let written else { throw Self.needsTree }
            t.scratch.withUnsafeBufferPointer { XMLPropertyListText.appendString(UnsafeBufferPointer(rebasing: $0[..<written]), into: &t.out) }
        case 0x8:
            XMLPropertyListText.appendUID(be(start + 1, Int(marker & 0x0F) + 1), indent: indent, into: &t.out)
        default:
            throw Self.needsTree
        }
    }

    // MARK: Binary

    /// What the binary walk keeps: the file being written, the output index of each input
    /// scalar, and the key indexes of recent dictionaries.
    struct BinaryTranscoding: ~Copyable {
        var file: BinaryPropertyListFileBuilder
        /// Per input object from `firstObject` on: the output index of the scalar it holds, once
        /// numbered, or -1.
        /// Without uniquing, each input object is one output object, as CF writes again what it
        /// read: its reader makes one object of each object of the file, and its writer stores
        /// the same object once (strings, numbers, dates, data) or refers each place that holds
        /// it to its first copy (booleans, UIDs).
        var scalarIndexes: [Int32]
        /// 0; for a walk that continues a file on speculation (see
        /// `BinaryPropertyListConverter+Continuation`), the input index of its first object.
        /// An input scalar before it is taken to be numbered already, at its own index, by the
        /// walk of the part before (`assumedBefore` says which), to be checked when the two
        /// are joined.
        let firstObject: Int
        /// One bit per input object before `firstObject`: the scalars (not booleans) this walk
        /// took to be numbered already at their own index.
        var assumedBefore: [UInt64] = []
        /// Whether the walk took the second half of the top collection laid out by a second
        /// thread (`BinaryPropertyListConverter.transcodeBinaryTop`).
        var joinedSecondHalf = false
        /// The output index of the first `false` and `true` written, or -1: CF's booleans are two
        /// objects in all, which its writer writes again at each place but refers to the first.
        var booleanIndexes: (Int32, Int32) = (-1, -1)
        /// Recent dictionaries' keys, with their output indexes.
        var recentKeys = RecentRing<KnownKeys<[Int]>>()

        /// For a walk of `trailer`'s file, writing references of `refSize` bytes: without
        /// expansion, the output holds no more objects and hardly more bytes than the input.
        /// With `progressive`, the file is handed on there as it is written (see
        /// `BinaryPropertyListFileBuilder`). With `source`, the input file, the builder compares
        /// with it until the output differs, and writes nothing of its own before.
        init(_ trailer: BinaryPropertyListTrailer, refSize: Int,
             progressive: (any PositionedOutput)? = nil, handOnEvery: Int = 4 << 20,
             source: UnsafeRawBufferPointer? = nil) {
            scalarIndexes = HugePages.array(repeating: -1, count: trailer.objectCount)
            firstObject = 0
            file = BinaryPropertyListFileBuilder(expectedOffsets: trailer.objectCount,
                                                 expectedBytes: trailer.offsetTableOffset + trailer.offsetTableOffset / 16,
                                                 refSize: refSize, progressive: progressive, handOnEvery: handOnEvery,
                                                 source: source, sourceTrailer: trailer)
        }

        /// For a walk that lays out, on speculation, the part of `source` from object
        /// `firstObject` on, which starts at byte `byte` (see `BinaryPropertyListFileBuilder`'s
        /// continuing builder).
        init(continuing source: UnsafeRawBufferPointer, trailer: BinaryPropertyListTrailer, refSize: Int,
             fromObject firstObject: Int, atByte byte: Int) {
            let count = max(trailer.objectCount - firstObject, 0)
            scalarIndexes = HugePages.array(repeating: -1, count: count)
            self.firstObject = firstObject
            assumedBefore = [UInt64](repeating: 0, count: (firstObject + 63) >> 6)
            file = BinaryPropertyListFileBuilder(continuing: source, fromObject: firstObject, atByte: byte,
                                                 refSize: refSize, expectedOffsets: count)
        }

        /// Input scalar `index`, before `firstObject`: taken to be numbered already at its own
        /// index, and noted so (`assumedBefore`).
        @inline(__always)
        mutating func assumeNumberedBefore(_ index: Int) -> Int {
            assumedBefore[index >> 6] |= UInt64(1) << UInt64(index & 63)
            return index
        }
    }

    /// Numbers and writes object `index` as `BinaryPropertyListFlattener` numbers and
    /// `BinaryPropertyListObjectTable` writes the value `read` gives for it; returns its output
    /// index.
    mutating func transcodeBinary(_ index: Int, depth: Int, into t: inout BinaryTranscoding) throws(PropertyListError) -> Int {
        let start = offset(index)
        let marker = bytes[start]
        switch marker >> 4 {
        case 0xA, 0xC, 0xD:
            let (output, entries) = try openBinaryCollection(index, at: start, depth: depth, into: &t)
            try transcodeBinaryChildren(entries, depth: depth + 1, into: &t)
            leave(index)
            return output
        default:
            return try transcodeBinaryScalar(index, at: start, into: &t)
        }
    }

    /// Where a collection's entries are, once `openBinaryCollection` opened it: their count,
    /// their input references (an array's or set's members, a dictionary's values) and where
    /// their output references go.
    struct CollectionEntries {
        let count: Int
        let refs: Int
        let to: Int
    }

    /// Opens collection `index` (at byte `start`) as `readArray` or `readDictionary` does, and
    /// numbers and writes it with room for its references, a dictionary's keys numbered and
    /// written too: what is left is its entries, walked by the caller.
    @inline(__always)
    mutating func openBinaryCollection(_ index: Int, at start: Int, depth: Int,
                                       into t: inout BinaryTranscoding) throws(PropertyListError) -> (output: Int, entries: CollectionEntries) {
        let kind = bytes[start] >> 4
        if kind == 0xD {
            let (count, refs) = try openDictionary(index, at: start, depth: depth)
            guard let (output, to) = t.file.beginCollection(0xD, entries: count, references: 2 * count) else { throw Self.needsTree }
            try addBinaryKeys(count: count, refs: refs, to: to, into: &t)
            return (output, CollectionEntries(count: count, refs: refs + count * trailer.objectRefSize, to: to + count * t.file.refSize))
        }
        let (count, refs) = try openArray(index, at: start, depth: depth)
        if kind == 0xC { try checkDistinctMembers(count, refs: refs) }
        guard let (output, to) = t.file.beginCollection(kind, entries: count, references: count) else { throw Self.needsTree }
        return (output, CollectionEntries(count: count, refs: refs, to: to))
    }

    /// Numbers and writes every entry of a collection `openBinaryCollection` opened, at `depth`.
    @inline(__always)
    mutating func transcodeBinaryChildren(_ entries: CollectionEntries, depth: Int, into t: inout BinaryTranscoding) throws(PropertyListError) {
        for i in 0..<entries.count { try transcodeBinaryEntry(i, of: entries, depth: depth, into: &t) }
    }

    /// Numbers and writes entry `i` of a collection `openBinaryCollection` opened, at `depth`,
    /// and its reference.
    @inline(__always)
    mutating func transcodeBinaryEntry(_ i: Int, of entries: CollectionEntries, depth: Int, into t: inout BinaryTranscoding) throws(PropertyListError) {
        t.file.setReference(try transcodeBinary(ref(entries.refs + i * trailer.objectRefSize), depth: depth, into: &t),
                            at: entries.to + i * t.file.refSize)
    }

    /// Numbers the keys of the dictionary whose references start at `refs`, read and counted as
    /// `readDictionary` reads them, and writes their references at `to`: from a recent
    /// dictionary with the same key references when there is one.
    mutating func addBinaryKeys(count: Int, refs: Int, to: Int, into t: inout BinaryTranscoding) throws(PropertyListError) {
        let width = t.file.refSize
        if let recent = t.recentKeys.first(where: { hasKeys($0, at: refs, count: count) }) {
            try grow(by: recent.weight, index: 0)
            for (i, key) in recent.made.enumerated() { t.file.setReference(key, at: to + i * width) }
            return
        }
        let before = expanded
        var indexes: [Int] = []
        indexes.reserveCapacity(count)
        for i in 0..<count {
            let key = ref(refs + i * trailer.objectRefSize)
            let at = offset(key)
            // Keys other than strings (a collection is the reader's error; CF compares numbers
            // across integer and real) are left to the reader.
            let kind = bytes[at] >> 4
            guard kind == 0x5 || kind == 0x6 else { throw Self.needsTree }
            let output = try transcodeBinaryScalar(key, at: at, into: &t)
            indexes.append(output)
            t.file.setReference(output, at: to + i * width)
        }
        // A key written twice, as one object or as two equal ones (each input object is an
        // output object of its own), is left to the reader, which keeps the entry CF keeps.
        // Compared as CF compares keys, once per set of key references (`recentKeys`).
        if count > 1 {
            var names: [PropertyListValue] = []
            names.reserveCapacity(count)
            for i in 0..<count { names.append(scalar(ref(refs + i * trailer.objectRefSize))) }
            guard CoreFoundationKeyEquality.repeats(in: names, object: { i in offset(ref(refs + i * trailer.objectRefSize)) }).isEmpty else {
                throw Self.needsTree
            }
        }
        t.recentKeys.remember(KnownKeys(refs: refs, count: count, weight: grown(since: before), made: indexes))
    }

    /// Numbers scalar object `index` (at byte `start`): its encoding as `BinaryPropertyListOutput`
    /// writes the value `readScalar` gives, written once.
    mutating func transcodeBinaryScalar(_ index: Int, at start: Int, into t: inout BinaryTranscoding) throws(PropertyListError) -> Int {
        let kind = try checkScalar(index, at: start)
        let marker = bytes[start]
        if marker == 0x08 || marker == 0x09 || marker >> 4 == 0x8 {
            return try transcodeRepeatedScalar(index, at: start, kind: kind, into: &t)
        }
        let slot = index &- t.firstObject
        if slot < 0 { return t.assumeNumberedBefore(index) }
        let known = t.scalarIndexes[slot]
        if known >= 0 { return Int(known) }
        // More objects than references can name: the writer's own limit, far past any real file.
        guard !t.file.isFull else { throw Self.needsTree }
        let output: Int
        if t.file.isMirroring, let mirrored = mirrorBinaryScalar(at: start, kind: kind, into: &t.file) {
            output = mirrored
        } else {
            let from = t.file.scalarStart
            try writeBinaryScalar(at: start, kind: kind, into: &t.file.out)
            output = t.file.numberScalar(from: from)
        }
        if output <= Int(Int32.max) { t.scalarIndexes[slot] = Int32(truncatingIfNeeded: output) }
        return output
    }

    /// A boolean or a UID, as CF's writer lays them out (`_flattenPlist`, which uniques only
    /// strings, numbers, dates and data): a new copy at each place that holds one, every place
    /// referring to the first copy of the same object (one `true` and one `false` in all; a UID
    /// object of the file).
    ///
    /// A walk that continues a file on speculation takes a boolean or UID object of the part
    /// before, met first, to have its first copy there, at its own index: for a boolean, its
    /// `booleanIndexes` then hold that index, to be checked when the two walks are joined.
    mutating func transcodeRepeatedScalar(_ index: Int, at start: Int, kind: FlatElementKind, into t: inout BinaryTranscoding) throws(PropertyListError) -> Int {
        guard !t.file.isFull else { throw Self.needsTree }
        let marker = bytes[start]
        let slot = index &- t.firstObject
        var first: Int32 = switch marker {
        case 0x08: t.booleanIndexes.0
        case 0x09: t.booleanIndexes.1
        default: slot < 0 ? Int32(truncatingIfNeeded: t.assumeNumberedBefore(index)) : t.scalarIndexes[slot]
        }
        if first < 0, slot < 0 {
            // A boolean of the part before, met first here.
            first = Int32(truncatingIfNeeded: index)
            if marker == 0x08 { t.booleanIndexes.0 = first } else { t.booleanIndexes.1 = first }
        }
        let from = t.file.scalarStart
        try writeBinaryScalar(at: start, kind: kind, into: &t.file.out)
        let output = t.file.numberScalar(from: from)
        if first >= 0 { return Int(first) }
        guard output <= Int(Int32.max) else { throw Self.needsTree }
        let numbered = Int32(truncatingIfNeeded: output)
        switch marker {
        case 0x08: t.booleanIndexes.0 = numbered
        case 0x09: t.booleanIndexes.1 = numbered
        default: t.scalarIndexes[slot] = numbered
        }
        return output
    }

    /// While the file builder mirrors the input: numbers the scalar at byte `start` (checked,
    /// of `kind`) without writing its body, when `writeBinaryScalar` would write it as its
    /// header and the body the input holds (a real of 4 or 8 bytes, a date, data, an ASCII
    /// string, a UTF-16 string kept so) and the builder finds that header at `start`
    /// (`BinaryPropertyListFileBuilder.mirrorScalar`). Nil otherwise: the caller writes it.
    @inline(__always)
    func mirrorBinaryScalar(at start: Int, kind: FlatElementKind, into file: inout BinaryPropertyListFileBuilder) -> Int? {
        let marker = bytes[start]
        switch marker {
        case 0x22, 0x23, 0x33:
            let from = file.scalarStart
            file.out.bytes.append(marker)
            return file.mirrorScalar(at: start, headerFrom: from, bodyLength: marker == 0x22 ? 4 : 8)
        case 0x40...0x6F:
            let type = marker >> 4
            let (count, body) = contents(at: start)
            if type == 0x5 {
                // UTF-8 in an ASCII string is written as UTF-16.
                guard Self.isASCII(UnsafeRawBufferPointer(start: base + body, count: count)) else { return nil }
            } else if type == 0x6 {
                // Valid UTF-16 of ASCII characters only is written as ASCII.
                guard kind != .string || !Self.isASCIIUTF16(UnsafeRawBufferPointer(start: base + body, count: count * 2)) else { return nil }
            }
            let from = file.scalarStart
            file.out.writeHeader(type, count: count)
            return file.mirrorScalar(at: start, headerFrom: from, bodyLength: type == 0x6 ? count * 2 : count)
        default:
            return nil
        }
    }

    /// Appends the encoding `BinaryPropertyListOutput` gives the value `readScalar` reads from
    /// the scalar at byte `start`, which `scalarWeight` checked and found of `kind`.
    @inline(__always)
    func writeBinaryScalar(at start: Int, kind: FlatElementKind, into out: inout BinaryPropertyListOutput) throws(PropertyListError) {
        let marker = bytes[start]
        switch marker >> 4 {
        case 0x0:
            out.bytes.append(marker)
        case 0x1 where marker == 0x14:
            // A 16-byte integer stays one: CF reads it as a 128-bit number of its last eight
            // bytes (the first eight zero), and writes that back in 16 bytes.
            out.bytes.append(0x14)
            out.writeBigEndian(0, size: 8)
            out.writeBigEndian(be(start + 9, 8), size: 8)
        case 0x1:
            out.writeInteger(integer(at: start))
        case 0x2 where marker & 0x0F == 2:
            // A 4-byte real stays one: CF reads it as a float32 number and writes that back so.
            out.bytes.append(0x22)
            out.writeBigEndian(be(start + 1, 4), size: 4)
        case 0x2:
            out.bytes.append(0x23)
            out.writeBigEndian(real(at: start).bitPattern, size: 8)
        case 0x3:
            out.bytes.append(0x33)
            out.writeBigEndian(be(start + 1, 8), size: 8)
        case 0x4:
            let (count, body) = contents(at: start)
            out.writeHeader(0x4, count: count)
            out.bytes.append(UnsafeRawBufferPointer(start: base + body, count: count))
        case 0x5:
            let (count, body) = contents(at: start)
            let text = UnsafeRawBufferPointer(start: base + body, count: count)
            if Self.isASCII(text) {
                out.writeHeader(0x5, count: count)
                out.bytes.append(text)
            } else {
                // UTF-8 in an ASCII string (`scalarWeight` found it valid) is written as UTF-16.
                out.writeScalar(.string(String(decoding: text, as: UTF8.self)))
            }
        case 0x6:
            // Valid UTF-16 is written as ASCII when every unit is; a string kept with its lone
            // surrogates (`kind` .other) is written as the units it is.
            let (count, body) = contents(at: start)
            let units = UnsafeRawBufferPointer(start: base + body, count: count * 2)
            if kind == .string, Self.isASCIIUTF16(units) {
                out.writeHeader(0x5, count: count)
                out.bytes.reserve(count)
                for i in 0..<count { out.bytes.appendUnchecked(units[2 * i + 1]) }
            } else {
                out.writeHeader(0x6, count: count)
                out.bytes.append(units)
            }
        case 0x8:
            out.writeScalar(.uid(be(start + 1, Int(marker & 0x0F) + 1)))
        default:
            throw Self.needsTree
        }
    }

    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var high: UInt8 = 0
        for b in bytes { high |= b }
        return high < 0x80
    }

    /// Whether every big-endian UTF-16 unit is below 0x80.
    @inline(__always)
    static func isASCIIUTF16(_ units: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 1 < units.count {
            if units[i] != 0 || units[i + 1] >= 0x80 { return false }
            i += 2
        }
        return true
    }
}
