import Foundation

/// The state of one read. It borrows the input buffer and must not outlive the closure that lent it.
struct BinaryPropertyListParser {
    /// How shared objects are handled.
    enum Sharing {
        /// Objects referenced more than once are found up front and read once (`read`).
        case memoized
        /// Nothing is memoized; a collection, or a string or data of more than
        /// `largeScalarBytes`, met a second time stops the read with `sharedObject`. A caller
        /// that meets that error reads the file again with `.memoized`, so work stays
        /// proportional to the file however it shares objects.
        case refused
    }
    static let largeScalarBytes = 64

    let bytes: UnsafeRawBufferPointer
    let base: UnsafeRawPointer
    let options: PropertyListReadOptions
    let trailer: BinaryPropertyListTrailer
    /// Per object: 0 or 1 when referenced at most once, otherwise 2 + its slot in `shared`.
    /// Only shared objects are memoized, which keeps memory at a few bytes per object.
    var sharing: [Int32]
    /// Shared objects already read, with the expanded size they stand for.
    var shared: [(value: PropertyListValue, weight: Weight)?] = []
    /// Objects whose reading has begun and not finished: meeting one again is a cycle.
    var inProgress: [UInt64]
    /// The expanded size of everything read so far, shared copies counted each time.
    var expanded = Weight(values: 0, bytes: 0)
    /// The expanded size allowed: the absolute limits, or less for a small file.
    let expansionValues: Int
    let expansionBytes: Int
    var scratchUTF16: [UInt16] = []
    /// The keys of the last dictionary read with each key count, by the raw bytes of their
    /// references. Dictionaries of the same shape (CF uniques their keys) then share one keys
    /// array, which saves most of the memory a large array of records would otherwise take.
    var recentKeys: [Int: RecentKeys] = [:]
    /// With `Sharing.refused`, the collections and large scalars read so far, one bit each.
    var seen: [UInt64] = []
    /// Whether each object's offset is checked when a reference to it is first followed,
    /// rather than the whole offset table up front: a lookup then touches only the objects
    /// on its path (see `lookUp(_:)`).
    let checksOffsetsOnUse: Bool
    /// Whether collections are checked and then dropped: each array, set and dictionary comes
    /// back empty (of its kind), after everything in it was read, checked and counted exactly
    /// as a full read does. Validating a file then allocates no tree.
    var discardsCollections = false

    struct RecentKeys {
        var refsStart: Int
        var keys: [PropertyListValue]
        var weight: Weight
    }

    struct Weight {
        var values: Int
        var bytes: Int
    }

    /// - Parameter checksOffsetsOnUse: check each offset when it is first needed instead of
    ///   the whole table now; only with `.refused` sharing, which reads no object up front.
    init(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions, sharing mode: Sharing = .memoized,
         checksOffsetsOnUse: Bool = false) throws(PropertyListError) {
        self.bytes = bytes
        self.checksOffsetsOnUse = checksOffsetsOnUse && mode == .refused
        self.options = options
        expansionValues = min(options.maximumObjectCount, options.expansionLimit.values(forInputSize: bytes.count))
        expansionBytes = min(options.maximumDecodedSize, options.expansionLimit.contentBytes(forInputSize: bytes.count))
        // The magic "bplist" and the version "00"; other versions are other formats.
        guard let base = bytes.baseAddress, bytes.count >= 8, bytes.starts(with: "bplist".utf8) else {
            throw PropertyListError(.unrecognizedFormat, "not a binary property list", at: .byteOffset(0))
        }
        guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
            let version = String(decoding: bytes[6..<8], as: UTF8.self)
            throw PropertyListError(.unrecognizedFormat, "unsupported binary property list version \"\(version)\"; only bplist00 is defined", at: .byteOffset(6))
        }
        let trailer = try BinaryPropertyListTrailer(bytes, maximumObjectCount: options.maximumObjectCount)
        self.trailer = trailer
        self.base = base
        sharing = []
        inProgress = []
        // Every offset points into the object area, between the header and the offset table.
        if !self.checksOffsetsOnUse {
            for index in 0..<trailer.objectCount {
                try checkOffset(of: index)
            }
        }
        inProgress = Array(repeating: 0, count: (trailer.objectCount + 63) / 64)
        switch mode {
        case .memoized:
            sharing = Array(repeating: 0, count: trailer.objectCount)
            countReferences()
        case .refused:
            seen = inProgress
        }
    }

    /// A parser over bytes whose trailer and offset table a parser has already validated
    /// (`FlatScalarReader`, reading scalars the flat scan checked). Nothing is memoized.
    init?(validated bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions, trailer: BinaryPropertyListTrailer) {
        // A validated buffer holds at least a header and a trailer.
        guard let base = bytes.baseAddress else { return nil }
        self.bytes = bytes
        self.base = base
        self.options = options
        self.trailer = trailer
        expansionValues = options.maximumObjectCount
        expansionBytes = options.maximumDecodedSize
        sharing = []
        inProgress = []
        checksOffsetsOnUse = false
    }

    /// Scalar object `index`, already checked: `.null` should reading it fail after all.
    mutating func scalar(_ index: Int) -> PropertyListValue {
        (try? readScalar(index, at: offset(index))) ?? .null
    }

    /// Checks that object `index`'s offset points into the object area, between the header
    /// and the offset table.
    @inline(__always)
    func checkOffset(of index: Int) throws(PropertyListError) {
        let at = trailer.offsetTableOffset + index * trailer.offsetIntSize
        let v = be(at, trailer.offsetIntSize)
        guard v >= UInt64(BinaryPropertyListTrailer.headerSize), v < UInt64(trailer.offsetTableOffset) else {
            throw PropertyListError(.malformed, "offset \(v) of object \(index) is outside the object area 8..<\(trailer.offsetTableOffset)", at: .byteOffset(at))
        }
    }

    /// The byte offset of object `index`, from the offset table validated in `init` (or, with
    /// `checksOffsetsOnUse`, when the reference to it was checked).
    @inline(__always)
    func offset(_ index: Int) -> Int {
        Int(truncatingIfNeeded: be(trailer.offsetTableOffset + index * trailer.offsetIntSize, trailer.offsetIntSize))
    }

    /// Finds the objects referenced more than once, so that only they are memoized.
    /// Malformed collections are skipped here; reading them reports the error if they are reachable.
    mutating func countReferences() {
        let refSize = trailer.objectRefSize
        let objectCount = trailer.objectCount
        // Counted in a local array, which the closure below updates without going through self.
        var counts = sharing
        sharing = []
        defer { sharing = counts }
        for index in 0..<objectCount {
            let start = offset(index)
            let marker = bytes[start]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { continue }
            guard let (count, body) = try? count(Int(marker & 0x0F), at: start, index: index) else { continue }
            let total = kind == 0xD ? count &* 2 : count
            guard total >= 0, total <= (trailer.offsetTableOffset - body) / refSize else { continue }
            Self.forEachRef(base + body, count: total, size: refSize) { r in
                if r < UInt64(objectCount), counts[Int(r)] < 2 { counts[Int(r)] += 1 }
            }
        }
        var next: Int32 = 2
        for i in 0..<objectCount where counts[i] == 2 {
            counts[i] = next
            next += 1
        }
        shared = Array(repeating: nil, count: Int(next - 2))
    }

    mutating func parseTop() throws(PropertyListError) -> PropertyListValue {
        try object(trailer.topObject, depth: 0)
    }

    // MARK: Objects

    func fail(_ code: PropertyListError.Code, _ message: String, object index: Int) -> PropertyListError {
        PropertyListError(code, message, at: .object(index: index, byteOffset: offset(index)))
    }

    /// The value of object `index`. A shared object is read once; every later reference reuses
    /// it but still counts its expanded size against the limits.
    mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard !sharing.isEmpty else { return try read(index, depth: depth) }
        let slot = Int(sharing[index]) - 2
        guard slot >= 0 else { return try read(index, depth: depth) }
        if let (value, weight) = shared[slot] {
            try grow(by: weight, index: index)
            return value
        }
        let before = expanded
        let value = try read(index, depth: depth)
        shared[slot] = (value, Weight(values: expanded.values - before.values, bytes: expanded.bytes - before.bytes))
        return value
    }

    /// Adds to the expanded size, against the limits.
    @inline(__always)
    mutating func grow(by w: Weight, index: Int) throws(PropertyListError) {
        let (values, o1) = expanded.values.addingReportingOverflow(w.values)
        let (bytes, o2) = expanded.bytes.addingReportingOverflow(w.bytes)
        guard !o1, values <= expansionValues else {
            throw expansionFailure(values: true, index: index)
        }
        guard !o2, bytes <= expansionBytes else {
            throw expansionFailure(values: false, index: index)
        }
        expanded = Weight(values: values, bytes: bytes)
    }

    /// The error for an expanded size past `expansionValues` or `expansionBytes`, naming the
    /// limit that set it.
    @inline(never)
    func expansionFailure(values: Bool, index: Int) -> PropertyListError {
        let limit = values ? expansionValues : expansionBytes
        let what = values ? "values" : "bytes of content"
        let absolute = values ? options.maximumObjectCount : options.maximumDecodedSize
        if limit < absolute {
            return fail(.limitExceeded, "expands to more than \(limit) \(what) through shared references, the most a \(bytes.count)-byte file may stand for (the expansion limit)", object: index)
        }
        return fail(.limitExceeded, "expands to more than \(limit) \(what) through shared references", object: index)
    }

    /// Marks a collection as being read; meeting it again before it is done is a cycle.
    @inline(__always)
    mutating func enter(_ index: Int) throws(PropertyListError) {
        let word = index >> 6, bit = UInt64(1) << UInt64(index & 63)
        guard inProgress[word] & bit == 0 else {
            throw fail(.cycle, "object \(index) contains itself", object: index)
        }
        inProgress[word] |= bit
    }

    /// With `Sharing.refused`, stops at an object read before (see `Sharing`).
    @inline(__always)
    mutating func firstVisit(_ index: Int) throws(PropertyListError) {
        guard !seen.isEmpty else { return }
        let word = index >> 6, bit = UInt64(1) << UInt64(index & 63)
        guard seen[word] & bit == 0 else { throw Self.sharedObject(index) }
        seen[word] |= bit
    }

    static func sharedObject(_ index: Int) -> PropertyListError {
        PropertyListError(.limitExceeded, "object \(index) is shared; read it with memoized sharing", at: .none)
    }

    /// Whether `error` is the one `sharedObject` makes, wherever in the tree it was met.
    static func isSharedObject(_ error: PropertyListError) -> Bool {
        error.code == .limitExceeded && error.location == .none && error.message.hasSuffix("is shared; read it with memoized sharing")
    }

    @inline(__always)
    mutating func leave(_ index: Int) {
        inProgress[index >> 6] &= ~(UInt64(1) << UInt64(index & 63))
    }

    mutating func read(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let start = offset(index)
        let kind = bytes[start] >> 4
        if kind == 0xA || kind == 0xC {
            return try readArray(index, marker: bytes[start], depth: depth)
        }
        if kind == 0xD {
            return try readDictionary(index, marker: bytes[start], depth: depth)
        }
        let value = try readScalar(index, at: start)
        let weight = Self.weight(of: value)
        if weight.bytes > Self.largeScalarBytes { try firstVisit(index) }
        try grow(by: weight, index: index)
        return value
    }

    /// What a scalar adds to the expanded size.
    @inline(__always)
    static func weight(of value: PropertyListValue) -> Weight {
        switch value {
        case .string(let s): Weight(values: 1, bytes: s.utf8.count)
        case .data(let d): Weight(values: 1, bytes: d.count)
        case .invalidUTF16String(let u): Weight(values: 1, bytes: u.count * 2)
        default: Weight(values: 1, bytes: 0)
        }
    }

    mutating func readScalar(_ index: Int, at start: Int) throws(PropertyListError) -> PropertyListValue {
        let end = trailer.offsetTableOffset
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default:
                throw fail(.malformed, "unknown marker 0x\(String(marker, radix: 16, uppercase: true))", object: index)
            }
        case 0x1:
            // 1, 2 and 4 bytes are unsigned, 8 signed, 16 a signed 128-bit value.
            guard low <= 4 else { throw fail(.malformed, "integer of 2^\(low) bytes; only 1 to 16 bytes are defined", object: index) }
            let size = 1 << low
            guard start + 1 + size <= end else { throw fail(.truncated, "integer runs past the object area", object: index) }
            if size == 16 {
                return .integer(PropertyListInteger(high: Int64(bitPattern: be(start + 1, 8)), low: be(start + 9, 8)))
            }
            let v = be(start + 1, size)
            return .integer(size == 8 ? PropertyListInteger(Int64(bitPattern: v)) : PropertyListInteger(v))
        case 0x2:
            guard low == 2 || low == 3 else { throw fail(.malformed, "real of 2^\(low) bytes; only 4 and 8 are defined", object: index) }
            let size = 1 << low
            guard start + 1 + size <= end else { throw fail(.truncated, "real runs past the object area", object: index) }
            let v = be(start + 1, size)
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: v))) : Double(bitPattern: v))
        case 0x3:
            guard marker == 0x33 else { throw fail(.malformed, "date marker 0x\(String(marker, radix: 16)) must be 0x33", object: index) }
            guard start + 9 <= end else { throw fail(.truncated, "date runs past the object area", object: index) }
            let seconds = Double(bitPattern: be(start + 1, 8))
            guard PropertyListDateRange.contains(seconds) else {
                throw fail(.invalidValue, "date of \(seconds) seconds since 2001 is outside years 1 to 9999", object: index)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, body) = try count(low, at: start, index: index)
            guard count <= end - body else { throw fail(.truncated, "data of \(count) bytes runs past the object area", object: index) }
            return .data(Data(UnsafeRawBufferPointer(rebasing: bytes[body..<body + count])))
        case 0x5:
            let (count, body) = try count(low, at: start, index: index)
            guard count <= end - body else { throw fail(.truncated, "ASCII string of \(count) bytes runs past the object area", object: index) }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[body..<body + count])
            var high: UInt8 = 0
            for b in slice { high |= b }
            if high >= 0x80 {
                // CF never writes this, but real files from other writers put UTF-8 in ASCII
                // strings; accept it when it is valid UTF-8, and refuse any other high byte.
                if let s = String(validating: slice, as: UTF8.self) { return .string(s) }
                let bad = slice.firstIndex { $0 >= 0x80 } ?? 0
                throw PropertyListError(.invalidValue, "ASCII string holds the byte 0x\(String(slice[bad], radix: 16, uppercase: true)), which is neither ASCII nor part of valid UTF-8", at: .byteOffset(body + bad))
            }
            return .string(String(decoding: slice, as: UTF8.self))
        case 0x6:
            let (count, body) = try count(low, at: start, index: index)
            guard count <= (end - body) / 2 else { throw fail(.truncated, "UTF-16 string of \(count) units runs past the object area", object: index) }
            if let s = Self.utf16String(UnsafeRawBufferPointer(rebasing: bytes[body..<body + 2 * count])) { return .string(s) }
            // A lone surrogate: refused, or kept as the units it is.
            scratchUTF16.removeAll(keepingCapacity: true)
            scratchUTF16.reserveCapacity(count)
            var at = body
            for _ in 0..<count {
                scratchUTF16.append(UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]))
                at += 2
            }
            if let s = String(validating: scratchUTF16, as: UTF16.self) { return .string(s) }
            guard options.preservesInvalidUTF16 else {
                throw fail(.invalidValue, "UTF-16 string holds a lone surrogate (read with preservesInvalidUTF16 to keep it)", object: index)
            }
            return .invalidUTF16String(scratchUTF16)
        case 0x8:
            // 0x8n holds n+1 bytes.
            let size = low + 1
            guard size <= 8 else { throw fail(.malformed, "UID of \(size) bytes; at most 8 are supported", object: index) }
            guard start + 1 + size <= end else { throw fail(.truncated, "UID runs past the object area", object: index) }
            return .uid(be(start + 1, size))
        default:
            throw fail(.malformed, "unknown marker 0x\(String(marker, radix: 16, uppercase: true))", object: index)
        }
    }

    /// Big-endian UTF-16 as a string, transcoded to UTF-8 in one pass; nil when a surrogate
    /// is unpaired (`String(validating:as: UTF16.self)` goes unit by unit through generic
    /// code, several thousand instructions for a short title).
    static func utf16String(_ units: UnsafeRawBufferPointer) -> String? {
        let count = units.count / 2
        var valid = true
        let s = String(unsafeUninitializedCapacity: count * 3) { out in
            guard let base = out.baseAddress, let written = transcodeUTF16(units, into: base) else {
                valid = false
                return 0
            }
            return written
        }
        return valid ? s : nil
    }

    /// Writes big-endian UTF-16 `units` as UTF-8 at `out`, which has room for three bytes per
    /// unit; returns how many it wrote, or nil when a surrogate is unpaired.
    static func transcodeUTF16(_ units: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        let count = units.count / 2
        var at = 0
        var i = 0
        while i < count {
            let u = UInt32(units[2 * i]) << 8 | UInt32(units[2 * i + 1])
            i += 1
            if u < 0x80 {
                out[at] = UInt8(truncatingIfNeeded: u)
                at += 1
            } else if u < 0x800 {
                out[at] = UInt8(truncatingIfNeeded: 0xC0 | u >> 6)
                out[at + 1] = UInt8(truncatingIfNeeded: 0x80 | u & 0x3F)
                at += 2
            } else if u & 0xF800 != 0xD800 {
                out[at] = UInt8(truncatingIfNeeded: 0xE0 | u >> 12)
                out[at + 1] = UInt8(truncatingIfNeeded: 0x80 | u >> 6 & 0x3F)
                out[at + 2] = UInt8(truncatingIfNeeded: 0x80 | u & 0x3F)
                at += 3
            } else {
                // A high surrogate and the low one after it make one scalar of four bytes.
                guard u < 0xDC00, i < count else { return nil }
                let low = UInt32(units[2 * i]) << 8 | UInt32(units[2 * i + 1])
                guard low & 0xFC00 == 0xDC00 else { return nil }
                i += 1
                let scalar = 0x10000 + ((u - 0xD800) << 10 | (low - 0xDC00))
                out[at] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
                out[at + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
                out[at + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
                out[at + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
                at += 4
            }
        }
        return at
    }

    /// Starts reading collection `index` at `depth`: within the depth limit, not already being
    /// read (a cycle), and counted as one value.
    @inline(__always)
    mutating func open(_ index: Int, depth: Int) throws(PropertyListError) {
        guard depth < options.maximumDepth else {
            throw fail(.limitExceeded, "nesting deeper than \(options.maximumDepth)", object: index)
        }
        try enter(index)
        try firstVisit(index)
        try grow(by: Weight(values: 1, bytes: 0), index: index)
    }

    /// Reading collections apart from scalars keeps each recursive frame small, which deep
    /// files need.
    @inline(never)
    mutating func readArray(_ index: Int, marker: UInt8, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let start = offset(index)
        let (count, body) = try count(Int(marker & 0x0F), at: start, index: index)
        let refs = try refs(count, at: body, index: index)
        try open(index, depth: depth)
        let refSize = trailer.objectRefSize
        if discardsCollections {
            for i in 0..<count {
                do throws(PropertyListError) {
                    _ = try object(ref(refs + i * refSize), depth: depth + 1)
                } catch {
                    throw error.inside("[\(i)]")
                }
            }
            leave(index)
            return marker >> 4 == 0xA ? .array([]) : .set([])
        }
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        for i in 0..<count {
            do throws(PropertyListError) {
                elements.append(try object(ref(refs + i * refSize), depth: depth + 1))
            } catch {
                throw error.inside("[\(i)]")
            }
        }
        leave(index)
        return marker >> 4 == 0xA ? .array(elements) : .set(elements)
    }

    /// Reading collections apart from scalars keeps each recursive frame small, which deep
    /// files need.
    @inline(never)
    mutating func readDictionary(_ index: Int, marker: UInt8, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let start = offset(index)
        let (count, body) = try count(Int(marker & 0x0F), at: start, index: index)
        // Keys and values: two references per entry.
        let (pairs, overflow) = count.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw fail(.malformed, "dictionary count \(count) is too large", object: index) }
        let refs = try refs(pairs, at: body, index: index)
        try open(index, depth: depth)
        let refSize = trailer.objectRefSize
        var keys: [PropertyListValue] = []
        if let recent = recentKeys[count],
           memcmp(base + recent.refsStart, base + refs, count * refSize) == 0 {
            keys = recent.keys
            try grow(by: recent.weight, index: index)
        } else {
            keys.reserveCapacity(count)
            let before = expanded
            for i in 0..<count {
                let key = try object(ref(refs + i * refSize), depth: depth + 1)
                guard !key.isCollection else {
                    throw fail(.invalidValue, "dictionary key \(i) is \(key.typeName == "array" ? "an" : "a") \(key.typeName); keys must be scalars", object: index)
                }
                keys.append(key)
            }
            let weight = Weight(values: expanded.values - before.values, bytes: expanded.bytes - before.bytes)
            recentKeys[count] = RecentKeys(refsStart: refs, keys: keys, weight: weight)
        }
        if discardsCollections {
            for i in 0..<count {
                do throws(PropertyListError) {
                    _ = try object(ref(refs + (count + i) * refSize), depth: depth + 1)
                } catch {
                    throw error.inside(Self.pathComponent(for: keys[i]))
                }
            }
            leave(index)
            return .dictionary(PropertyListDictionary())
        }
        var values: [PropertyListValue] = []
        values.reserveCapacity(count)
        for i in 0..<count {
            do throws(PropertyListError) {
                values.append(try object(ref(refs + (count + i) * refSize), depth: depth + 1))
            } catch {
                throw error.inside(Self.pathComponent(for: keys[i]))
            }
        }
        leave(index)
        return .dictionary(PropertyListDictionary(keys: keys, values: values))
    }

    static func pathComponent(for key: PropertyListValue) -> String {
        switch key {
        case .string(let s): s
        case .integer(let i): "{\(i)}"
        default: "{\(key.typeName)}"
        }
    }

    // MARK: Primitives

    /// A big-endian unsigned integer of `size` bytes (at most 8), already bounds-checked.
    @inline(__always)
    func be(_ at: Int, _ size: Int) -> UInt64 {
        // The common widths as one load each; callers have checked that `at..<at + size` is inside `bytes`.
        let p = base + at
        switch size {
        case 1: return UInt64(p.load(as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: p.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: p.loadUnaligned(as: UInt32.self)))
        case 8: return UInt64(bigEndian: p.loadUnaligned(as: UInt64.self))
        default:
            var v: UInt64 = 0
            for i in 0..<size { v = v << 8 | UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
            return v
        }
    }

    /// The count in a marker's low nibble, or the integer object after it when the nibble is 0xF.
    ///
    /// - Returns: the count and the offset of the first byte after it.
    func count(_ low: Int, at start: Int, index: Int) throws(PropertyListError) -> (Int, Int) {
        if low != 0x0F { return (low, start + 1) }
        let end = trailer.offsetTableOffset
        guard start + 2 <= end else { throw fail(.truncated, "count runs past the object area", object: index) }
        let intMarker = bytes[start + 1]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
            throw PropertyListError(.malformed, "count must be an integer of 1 to 8 bytes, found marker 0x\(String(intMarker, radix: 16, uppercase: true))", at: .byteOffset(start + 1))
        }
        let size = 1 << Int(intMarker & 0x0F)
        guard start + 2 + size <= end else { throw fail(.truncated, "count runs past the object area", object: index) }
        let v = be(start + 2, size)
        guard v <= UInt64(Int.max) else {
            throw PropertyListError(.malformed, "count \(Int64(bitPattern: v)) is negative", at: .byteOffset(start + 1))
        }
        return (Int(v), start + 2 + size)
    }

    /// Checks that `count` references fit before the offset table and each names an object.
    ///
    /// - Returns: the offset of the first reference.
    func refs(_ count: Int, at body: Int, index: Int) throws(PropertyListError) -> Int {
        let size = trailer.objectRefSize
        guard count <= (trailer.offsetTableOffset - body) / size else {
            throw fail(.truncated, "\(count) object references run past the object area", object: index)
        }
        // The largest reference, checked once: any reference past the count fails. A lookup
        // that checks offsets on use goes through each reference below instead.
        if !checksOffsetsOnUse {
            var largest: UInt64 = 0
            Self.forEachRef(base + body, count: count, size: size) { largest = max(largest, $0) }
            guard largest >= UInt64(trailer.objectCount) else { return body }
        }
        for i in 0..<count {
            let r = be(body + i * size, size)
            guard r < UInt64(trailer.objectCount) else {
                throw PropertyListError(.malformed, "reference \(r) in object \(index) is not below the object count \(trailer.objectCount)", at: .byteOffset(body + i * size))
            }
            if checksOffsetsOnUse { try checkOffset(of: Int(r)) }
        }
        return body
    }

    @inline(__always)
    func ref(_ at: Int) -> Int { Int(truncatingIfNeeded: be(at, trailer.objectRefSize)) }

    /// Calls `body` with each of `count` big-endian references of `size` bytes at `start`
    /// (already bounds-checked), with the width chosen once rather than per reference.
    @inline(__always)
    static func forEachRef(_ start: UnsafeRawPointer, count: Int, size: Int, _ body: (UInt64) -> Void) {
        switch size {
        case 1:
            for i in 0..<count { body(UInt64(start.load(fromByteOffset: i, as: UInt8.self))) }
        case 2:
            for i in 0..<count { body(UInt64(UInt16(bigEndian: start.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))) }
        case 4:
            for i in 0..<count { body(UInt64(UInt32(bigEndian: start.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))) }
        case 8:
            for i in 0..<count { body(UInt64(bigEndian: start.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))) }
        default:
            for i in 0..<count {
                var v: UInt64 = 0
                for j in 0..<size { v = v << 8 | UInt64(start.load(fromByteOffset: i * size + j, as: UInt8.self)) }
                body(v)
            }
        }
    }
}
