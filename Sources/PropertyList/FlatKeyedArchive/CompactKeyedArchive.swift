import Foundation

/// A small binary keyed archive, checked in one pass over its bytes and then read where it
/// lies: what reading a column of small archives (an archived color per row, a million rows)
/// needs, one archive at a time.
///
/// `readFlatKeyedArchive` builds tables sized for archives of a million objects: for a
/// 400-byte archive its set-up, a `PropertyListValue` per key and the parser's bookkeeping cost
/// many times what the archive holds. This view makes the same checks, in one pass, with its
/// bookkeeping on the stack, and keeps nothing: its users read elements, keys and scalars from
/// the bytes through it, and may skip the checks it made.
///
/// It takes one layout, the one archivers write, and gives up (nil) on anything else, which the
/// caller then reads the ordinary way, where any error is reported. Where it does not give up,
/// `readFlatKeyedArchive(_:keepingValues:)` succeeds on the same bytes and reads the same values:
/// - at most `maximumBytes` bytes and `maximumObjects` objects, within every limit of the
///   options (the expanded size counted as the reader counts it, depth at most 4);
/// - the top level is a dictionary whose keys are distinct ASCII strings; `$objects` is an
///   array; every other value is a scalar, or a dictionary (keys ASCII strings) or array whose
///   values are scalars or arrays of scalars;
/// - each element of `$objects` is a scalar or a dictionary whose keys are ASCII strings and
///   whose values are scalars or arrays of scalars;
/// - no collection, and no string or data of more than 64 bytes, is reached twice (the reader
///   reads such files with memoized sharing); no UID in an array is above 2^32 - 1;
/// - strings are ASCII or valid UTF-16 (no lone surrogate, whatever the options say).
///
/// The view borrows the bytes it was made from, and tables of its own on the stack: it exists
/// only inside `read(_:options:_:)`'s closure.
package struct CompactKeyedArchive {
    /// The largest archive taken, in bytes.
    package static let maximumBytes = 16 << 10
    /// The most objects an archive taken may hold (its trailer's count).
    package static let maximumObjects = 1_024

    let bytes: UnsafeRawBufferPointer
    let base: UnsafeRawPointer
    let trailer: BinaryPropertyListTrailer
    /// Per object: its offset in the file, read from the offset table (and checked) once.
    let offsets: UnsafeBufferPointer<UInt32>
    /// Per object used as a dictionary key: what the decoder makes of it (`KeyRole`).
    let keyRoles: UnsafeBufferPointer<UInt8>
    /// Where the top dictionary's key references start, and its entry count.
    let topRefs: Int
    let topCount: Int
    /// Where `$objects`' element references start, and how many elements it has.
    let elementRefs: Int
    /// The number of elements of `$objects`.
    package let elementCount: Int

    /// A key, value or element: an object of the file, by its index.
    package typealias ObjectIndex = Int

    /// What one value of a dictionary is.
    package enum Value {
        /// A UID.
        case uid(UInt64)
        /// An array: its element references start at `refs`.
        case array(refs: Int, count: Int)
        /// A dictionary (only as a top-level value).
        case dictionary(refs: Int, count: Int)
        /// A scalar other than a UID, object `index` of the file.
        case scalar(ObjectIndex)
    }

    /// What a key is to an archive's decoder, found when the key is checked.
    package enum KeyRole: UInt8 {
        /// Any other key (or an object no dictionary uses as a key).
        case other = 0
        case `class`, className, classes, classHints
    }

    // MARK: Reading

    /// The role of key object `index`, which the check read as a key.
    @inline(__always)
    package func keyRole(_ index: ObjectIndex) -> KeyRole {
        KeyRole(rawValue: keyRoles[index]) ?? .other
    }

    /// The elements of `$objects` are dictionaries or scalars.
    package func isDictionary(element uid: Int) -> Bool {
        bytes[offset(elementObject(uid))] >> 4 == 0xD
    }

    /// The object index of element `uid` of `$objects`.
    @inline(__always)
    package func elementObject(_ uid: Int) -> ObjectIndex {
        ref(elementRefs + uid * trailer.objectRefSize)
    }

    /// What element `uid`, a scalar, is as the flat scan names it: string, number, data, date
    /// or other (a UID or the null marker).
    package func scalarKind(element uid: Int) -> FlatElementKind {
        Self.kind(ofScalarMarker: bytes[offset(elementObject(uid))])
    }

    static func kind(ofScalarMarker marker: UInt8) -> FlatElementKind {
        switch marker >> 4 {
        case 0x0: marker == 0x00 ? .other : .number
        case 0x1, 0x2: .number
        case 0x3: .date
        case 0x4: .data
        case 0x5, 0x6: .string
        default: .other
        }
    }

    /// The entries of element `uid`, a dictionary: where its key references start (its value
    /// references follow them) and how many there are.
    package func entries(ofElement uid: Int) -> (refs: Int, count: Int) {
        let (body, count) = countAndBody(offset(elementObject(uid)))
        return (body, count)
    }

    /// Key `i` of the dictionary whose references start at `refs`.
    @inline(__always)
    package func key(_ i: Int, refs: Int) -> ObjectIndex {
        ref(refs + i * trailer.objectRefSize)
    }

    /// Value `i` of the dictionary of `count` entries whose references start at `refs`.
    @inline(__always)
    package func value(_ i: Int, refs: Int, count: Int) -> Value {
        value(ofObject: ref(refs + (count + i) * trailer.objectRefSize))
    }

    /// Element `i` of the array whose references start at `refs`.
    @inline(__always)
    package func arrayElement(_ i: Int, refs: Int) -> Value {
        value(ofObject: ref(refs + i * trailer.objectRefSize))
    }

    /// What object `index` is.
    package func value(ofObject index: ObjectIndex) -> Value {
        let start = offset(index)
        let marker = bytes[start]
        switch marker >> 4 {
        case 0x8: return .uid(be(start + 1, Int(marker & 0x0F) + 1))
        case 0xA:
            let (refs, count) = countAndBody(start)
            return .array(refs: refs, count: count)
        case 0xD:
            let (refs, count) = countAndBody(start)
            return .dictionary(refs: refs, count: count)
        default: return .scalar(index)
        }
    }

    /// The bytes of string object `index` when it is an ASCII string (all keys are); nil otherwise.
    @inline(__always)
    package func asciiString(_ index: ObjectIndex) -> UnsafeRawBufferPointer? {
        let start = offset(index)
        guard bytes[start] >> 4 == 0x5 else { return nil }
        let (body, count) = countAndBody(start)
        return UnsafeRawBufferPointer(start: base + body, count: count)
    }

    /// Whether object `index` is a string (ASCII or UTF-16, checked).
    @inline(__always)
    package func isString(_ index: ObjectIndex) -> Bool {
        let kind = bytes[offset(index)] >> 4
        return kind == 0x5 || kind == 0x6
    }

    /// Whether object `index` is the ASCII string `literal`.
    @inline(__always)
    package func isASCII(_ index: ObjectIndex, _ literal: StaticString) -> Bool {
        guard let text = asciiString(index), text.count == literal.utf8CodeUnitCount else { return false }
        return memcmp(text.baseAddress ?? base, literal.utf8Start, text.count) == 0
    }

    /// The value of the top dictionary's last entry under the ASCII key `literal` (keys are
    /// distinct, so it is the only one).
    package func topValue(_ literal: StaticString) -> Value? {
        for i in 0..<topCount where isASCII(key(i, refs: topRefs), literal) {
            return value(i, refs: topRefs, count: topCount)
        }
        return nil
    }

    /// Scalar object `index` (a UID included) as the reader's `readScalar` reads it, from the
    /// bytes checked.
    package func scalar(_ index: ObjectIndex) -> PropertyListValue {
        let start = offset(index)
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            return marker == 0x08 ? .bool(false) : marker == 0x09 ? .bool(true) : .null
        case 0x1:
            let size = 1 << low
            if size == 16 {
                // CF keeps the last eight bytes, unsigned, as the reader does.
                return .integer(PropertyListInteger(high: 0, low: be(start + 9, 8)))
            }
            let v = be(start + 1, size)
            return .integer(size == 8 ? PropertyListInteger(Int64(bitPattern: v)) : PropertyListInteger(v))
        case 0x2:
            let v = be(start + 1, 1 << low)
            return .real(low == 2 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: v))) : Double(bitPattern: v))
        case 0x3:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: be(start + 1, 8))))
        case 0x4:
            let (body, count) = countAndBody(start)
            return .data(Data(UnsafeRawBufferPointer(start: base + body, count: count)))
        case 0x5, 0x6:
            return string(index).map { .string($0) } ?? .null
        case 0x8:
            return .uid(be(start + 1, low + 1))
        default:
            return .null
        }
    }

    /// Object `index` as the reader reads it: a scalar, or a collection of the depth the check
    /// takes (arrays of scalars, dictionaries of scalars and arrays of scalars).
    package func propertyListValue(_ index: ObjectIndex) -> PropertyListValue {
        switch value(ofObject: index) {
        case .uid, .scalar:
            return scalar(index)
        case .array(let refs, let count):
            return arrayValue(refs: refs, count: count)
        case .dictionary(let refs, let count):
            var keys: [PropertyListValue] = []
            var values: [PropertyListValue] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            for i in 0..<count {
                keys.append(scalar(key(i, refs: refs)))
                values.append(propertyListValue(ref(refs + (count + i) * trailer.objectRefSize)))
            }
            return .dictionary(PropertyListDictionary(keys: keys, values: values))
        }
    }

    /// The array of `count` elements whose references start at `refs`, as the reader reads it.
    package func arrayValue(refs: Int, count: Int) -> PropertyListValue {
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        for i in 0..<count { elements.append(propertyListValue(ref(refs + i * trailer.objectRefSize))) }
        return .array(elements)
    }

    /// Element `uid` of `$objects` as the reader reads it.
    package func element(_ uid: Int) -> PropertyListValue {
        propertyListValue(elementObject(uid))
    }

    /// String object `index` as a `String`, as the reader reads it; nil for anything else.
    package func string(_ index: ObjectIndex) -> String? {
        let start = offset(index)
        switch bytes[start] >> 4 {
        case 0x5:
            let (body, count) = countAndBody(start)
            return String(decoding: UnsafeRawBufferPointer(start: base + body, count: count), as: UTF8.self)
        case 0x6:
            let (body, count) = countAndBody(start)
            return BinaryPropertyListParser.utf16String(UnsafeRawBufferPointer(start: base + body, count: 2 * count))
        default:
            return nil
        }
    }

    /// The integer object `index` holds, when it is an integer of at most 8 bytes.
    package func integer(_ index: ObjectIndex) -> Int64? {
        let start = offset(index)
        let marker = bytes[start]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { return nil }
        let size = 1 << Int(marker & 0x0F)
        let v = be(start + 1, size)
        return size == 8 ? Int64(bitPattern: v) : Int64(v)
    }

    /// The file's bytes and trailer, for a `FlatScalarReader` over them.
    package func scalarReader(data: Data, options: PropertyListReadOptions) -> FlatScalarReader {
        FlatScalarReader(data: data, options: options, trailer: trailer, elementRefs: elementRefs)
    }

    // MARK: Primitives (bounds checked in `init`)

    @inline(__always)
    func offset(_ index: Int) -> Int {
        Int(truncatingIfNeeded: offsets[index])
    }

    @inline(__always)
    func ref(_ at: Int) -> Int { Int(truncatingIfNeeded: be(at, trailer.objectRefSize)) }

    @inline(__always)
    func be(_ at: Int, _ size: Int) -> UInt64 {
        Self.bigEndian(base + at, size)
    }

    /// A big-endian unsigned integer of `size` bytes (1 to 8) at `p`. Small archives use one-
    /// and two-byte references and offsets: those are tested first, without a jump table.
    @inline(__always)
    static func bigEndian(_ p: UnsafeRawPointer, _ size: Int) -> UInt64 {
        if size == 1 { return UInt64(p.load(as: UInt8.self)) }
        if size == 2 { return UInt64(UInt16(bigEndian: p.loadUnaligned(as: UInt16.self))) }
        if size == 4 { return UInt64(UInt32(bigEndian: p.loadUnaligned(as: UInt32.self))) }
        if size == 8 { return UInt64(bigEndian: p.loadUnaligned(as: UInt64.self)) }
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
        return v
    }

    /// The count of the object at `start` (a collection, string or data) and where its body
    /// starts, as checked.
    @inline(__always)
    func countAndBody(_ start: Int) -> (body: Int, count: Int) {
        let low = Int(bytes[start] & 0x0F)
        if low != 0x0F { return (start + 1, low) }
        let size = 1 << Int(bytes[start + 1] & 0x0F)
        return (start + 2 + size, Int(truncatingIfNeeded: be(start + 2, size)))
    }
}

extension CompactKeyedArchive {
    /// Checks `bytes` and calls `body` with the view of them; nil, without calling it, when
    /// they are not in the layout the view takes (see the type's description). The view
    /// borrows `bytes` and tables on the stack, and must not escape `body`.
    package static func read<R>(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions,
                                _ body: (CompactKeyedArchive) -> R?) -> R? {
        let size = bytes.count
        guard size <= maximumBytes, size <= options.maximumInputSize, options.maximumDepth > 4,
              let base = bytes.baseAddress, size >= 8, bytes.starts(with: "bplist00".utf8),
              let trailer = try? BinaryPropertyListTrailer(bytes, maximumObjectCount: options.maximumObjectCount),
              trailer.objectCount <= maximumObjects
        else { return nil }
        let objects = trailer.objectCount
        // One allocation for the five tables: the seen bits, the offsets, the key stamps, the
        // distinct key objects, the key roles.
        let seenBytes = (objects + 63) / 64 * 8, offsetBytes = (objects * 4 + 7) / 8 * 8
        return withUnsafeTemporaryAllocation(byteCount: seenBytes + 3 * offsetBytes + objects, alignment: 8) { scratch -> R? in
            guard let start = scratch.baseAddress else { return nil }
            scratch.initializeMemory(as: UInt8.self, repeating: 0)
            let seen = UnsafeMutableBufferPointer(start: start.bindMemory(to: UInt64.self, capacity: seenBytes / 8), count: seenBytes / 8)
            let offsets = UnsafeMutableBufferPointer(start: (start + seenBytes).bindMemory(to: UInt32.self, capacity: objects), count: objects)
            let keyStamps = UnsafeMutableBufferPointer(start: (start + seenBytes + offsetBytes).bindMemory(to: UInt32.self, capacity: objects),
                                                       count: objects)
            let keyObjects = UnsafeMutableBufferPointer(start: (start + seenBytes + 2 * offsetBytes).bindMemory(to: UInt32.self, capacity: objects),
                                                        count: objects)
            let roles = UnsafeMutableBufferPointer(start: (start + seenBytes + 3 * offsetBytes).bindMemory(to: UInt8.self, capacity: objects),
                                                   count: objects)
            var check = Check(bytes: bytes, base: base, trailer: trailer,
                              values: min(options.maximumObjectCount, options.expansionLimit.values(forInputSize: size)),
                              contentBytes: min(options.maximumDecodedSize, options.expansionLimit.contentBytes(forInputSize: size)))
            check.seen = seen
            check.offsets = offsets
            check.roles = roles
            check.keyStamps = keyStamps
            check.keyObjects = keyObjects
            guard let found = check.run() else { return nil }
            let view = CompactKeyedArchive(bytes: bytes, base: base, trailer: trailer, offsets: UnsafeBufferPointer(offsets),
                                           keyRoles: UnsafeBufferPointer(roles), topRefs: found.topRefs, topCount: found.topCount,
                                           elementRefs: found.elementRefs, elementCount: found.elementCount)
            return body(view)
        }
    }

    /// The one pass of checks; any failure is nil, and the caller reads the ordinary way.
    struct Check {
        let bytes: UnsafeRawBufferPointer
        let base: UnsafeRawPointer
        let trailer: BinaryPropertyListTrailer
        /// The expanded size allowed, as the reader computes it.
        let values: Int
        let contentBytes: Int
        /// One bit per object: collections and large scalars reached so far.
        var seen = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
        /// Per object: its offset, filled (and checked) first.
        var offsets = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
        /// Per key object: its `KeyRole`, set when the key is checked.
        var roles = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
        /// Per key object: the last dictionary (`dictionary`) that used it, 0 for none yet.
        var keyStamps = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
        /// The key objects met so far, each once (`keyObjectCount` of them).
        var keyObjects = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
        var keyObjectCount = 0
        /// The dictionary whose keys are being checked, counted from 1.
        var dictionary: UInt32 = 0
        /// The expanded size so far, counted per reference followed, as the reader counts it
        /// (each use of a key included); never below the reader's count.
        var expandedValues = 0
        var expandedBytes = 0

        init(bytes: UnsafeRawBufferPointer, base: UnsafeRawPointer, trailer: BinaryPropertyListTrailer, values: Int, contentBytes: Int) {
            self.bytes = bytes
            self.base = base
            self.trailer = trailer
            self.values = values
            self.contentBytes = contentBytes
        }

        @inline(__always)
        func be(_ at: Int, _ size: Int) -> UInt64 {
            CompactKeyedArchive.bigEndian(base + at, size)
        }

        @inline(__always)
        func offset(_ index: Int) -> Int {
            Int(truncatingIfNeeded: offsets[index])
        }

        /// The reference at byte `at`, which must name an object.
        @inline(__always)
        func ref(_ at: Int) -> Int? {
            let r = be(at, trailer.objectRefSize)
            return r < UInt64(trailer.objectCount) ? Int(truncatingIfNeeded: r) : nil
        }

        /// Marks object `index` as reached; false when it was reached before.
        @inline(__always)
        mutating func firstVisit(_ index: Int) -> Bool {
            let word = index >> 6, bit = UInt64(1) << UInt64(index & 63)
            guard seen[word] & bit == 0 else { return false }
            seen[word] |= bit
            return true
        }

        /// Adds to the expanded size; false past a limit.
        @inline(__always)
        mutating func grow(values v: Int, bytes b: Int) -> Bool {
            expandedValues += v
            expandedBytes += b
            return expandedValues <= values && expandedBytes <= contentBytes
        }

        /// The count of a collection, string or data at `start` and where its body starts, as
        /// the reader's `count` checks them.
        func count(_ start: Int) -> (body: Int, count: Int)? {
            let end = trailer.offsetTableOffset
            let low = Int(bytes[start] & 0x0F)
            if low != 0x0F { return (start + 1, low) }
            guard start + 2 <= end else { return nil }
            let intMarker = bytes[start + 1]
            guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else { return nil }
            let size = 1 << Int(intMarker & 0x0F)
            guard start + 2 + size <= end else { return nil }
            let v = be(start + 2, size)
            guard v <= UInt64(end) else { return nil }
            return (start + 2 + size, Int(v))
        }

        /// `count` references at `body` fit before the offset table.
        @inline(__always)
        func refsFit(_ count: Int, at body: Int) -> Bool {
            count <= (trailer.offsetTableOffset - body) / trailer.objectRefSize
        }

        mutating func run() -> (topRefs: Int, topCount: Int, elementRefs: Int, elementCount: Int)? {
            // Every offset points into the object area, as the parser checks up front; each is
            // read once, into the table.
            for index in 0..<trailer.objectCount {
                let v = be(trailer.offsetTableOffset + index * trailer.offsetIntSize, trailer.offsetIntSize)
                guard v >= UInt64(BinaryPropertyListTrailer.headerSize), v < UInt64(trailer.offsetTableOffset) else { return nil }
                offsets[index] = UInt32(truncatingIfNeeded: v)
            }
            // The top dictionary, at depth 0.
            let top = trailer.topObject
            let start = offset(top)
            guard bytes[start] >> 4 == 0xD, let (refs, count) = count(start), count <= (Int.max / 2), refsFit(2 * count, at: refs),
                  firstVisit(top), grow(values: 1, bytes: 0) else { return nil }
            dictionary = 1
            let refSize = trailer.objectRefSize
            var objects: (refs: Int, count: Int)?
            // Keys: distinct ASCII strings (a few: archives have four).
            guard count <= 8 else { return nil }
            for i in 0..<count {
                guard let key = ref(refs + i * refSize), let text = checkKey(key) else { return nil }
                var distinct = true
                for j in 0..<i {
                    // Checked already: an ASCII string.
                    guard let other = ref(refs + j * refSize), let (body, length) = self.count(offset(other)) else { return nil }
                    if text.count == length, memcmp(text.baseAddress ?? base, base + body, length) == 0 { distinct = false }
                }
                guard distinct, let value = ref(refs + (count + i) * refSize) else { return nil }
                let valueStart = offset(value)
                let isObjects = text.count == 8 && memcmp(text.baseAddress ?? base, "$objects", 8) == 0
                if isObjects {
                    guard bytes[valueStart] >> 4 == 0xA, let found = checkObjects(value, at: valueStart) else { return nil }
                    objects = found
                } else {
                    guard checkTopValue(value, at: valueStart) else { return nil }
                }
            }
            guard let objects else { return nil }
            return (refs, count, objects.refs, objects.count)
        }

        /// Key object `index`, checked and counted as `checkScalar` does: an ASCII string (its
        /// bytes), with its role recorded; nil for anything else.
        mutating func checkKey(_ index: Int) -> UnsafeRawBufferPointer? {
            let start = offset(index)
            guard bytes[start] >> 4 == 0x5, let (body, count) = count(start), count <= trailer.offsetTableOffset - body else { return nil }
            let text = UnsafeRawBufferPointer(start: base + body, count: count)
            var high: UInt8 = 0
            for b in text { high |= b }
            guard high < 0x80 else { return nil }
            if count > BinaryPropertyListParser.largeScalarBytes, !firstVisit(index) { return nil }
            guard grow(values: 1, bytes: count) else { return nil }
            // A key used twice in one dictionary, or two key objects holding one string, are left
            // to the reader, which keeps the entry CF keeps (as the flat scan leaves them).
            let stamp = keyStamps[index]
            if stamp == 0 {
                for j in 0..<keyObjectCount {
                    guard let (otherBody, otherCount) = self.count(offset(Int(keyObjects[j]))) else { return nil }
                    if otherCount == count, memcmp(base + otherBody, base + body, count) == 0 { return nil }
                }
                keyObjects[keyObjectCount] = UInt32(truncatingIfNeeded: index)
                keyObjectCount += 1
            } else if stamp == dictionary {
                return nil
            }
            keyStamps[index] = dictionary
            if count >= 6, text[0] == UInt8(ascii: "$") { roles[index] = Self.role(text).rawValue }
            return text
        }

        /// The role of a key's text that starts with `$`.
        static func role(_ text: UnsafeRawBufferPointer) -> KeyRole {
            func equal(_ literal: StaticString) -> Bool {
                guard text.count == literal.utf8CodeUnitCount, let start = text.baseAddress else { return false }
                return memcmp(start, literal.utf8Start, text.count) == 0
            }
            if equal("$class") { return .class }
            if equal("$classname") { return .className }
            if equal("$classes") { return .classes }
            if equal("$classhints") { return .classHints }
            return .other
        }

        /// A value of the top dictionary other than `$objects` (depth 1): a scalar, or a
        /// dictionary or array of scalars and arrays of scalars.
        mutating func checkTopValue(_ index: Int, at start: Int) -> Bool {
            switch bytes[start] >> 4 {
            case 0xA:
                return checkArray(index, at: start)
            case 0xD:
                return checkDictionary(index, at: start)
            default:
                return checkScalar(index)
            }
        }

        /// An array of scalars (the elements of a dictionary's value, at depth 2 or 3). UIDs in
        /// it fit in 32 bits, as the flat scan keeps them.
        mutating func checkArray(_ index: Int, at start: Int) -> Bool {
            guard let (refs, count) = count(start), refsFit(count, at: refs), firstVisit(index), grow(values: 1, bytes: 0) else { return false }
            let refSize = trailer.objectRefSize
            for i in 0..<count {
                guard let element = ref(refs + i * refSize) else { return false }
                let elementStart = offset(element)
                if bytes[elementStart] >> 4 == 0x8, bytes[elementStart] & 0x0F >= 4 {
                    // A UID of 5 to 8 bytes may exceed 32 bits.
                    guard checkScalar(element), be(elementStart + 1, Int(bytes[elementStart] & 0x0F) + 1) <= UInt64(UInt32.max) else {
                        return false
                    }
                    continue
                }
                guard checkScalar(element) else { return false }
            }
            return true
        }

        /// `$objects` (depth 1): dictionaries of scalars and arrays of scalars, and scalars.
        mutating func checkObjects(_ index: Int, at start: Int) -> (refs: Int, count: Int)? {
            guard let (refs, count) = count(start), refsFit(count, at: refs), firstVisit(index), grow(values: 1, bytes: 0) else { return nil }
            let refSize = trailer.objectRefSize
            for i in 0..<count {
                guard let element = ref(refs + i * refSize) else { return nil }
                let elementStart = offset(element)
                switch bytes[elementStart] >> 4 {
                case 0xD:
                    guard checkDictionary(element, at: elementStart) else { return nil }
                case 0xA, 0xC:
                    return nil
                default:
                    guard checkScalar(element) else { return nil }
                }
            }
            return (refs, count)
        }

        /// A dictionary of scalars and arrays of scalars: an element of `$objects` (depth 2), or
        /// a value of the top dictionary (depth 1).
        mutating func checkDictionary(_ index: Int, at start: Int) -> Bool {
            guard let (refs, count) = count(start), count <= Int.max / 2, refsFit(2 * count, at: refs),
                  firstVisit(index), grow(values: 1, bytes: 0), dictionary < UInt32.max else { return false }
            dictionary += 1
            let refSize = trailer.objectRefSize
            for i in 0..<count {
                guard let key = ref(refs + i * refSize), checkKey(key) != nil,
                      let value = ref(refs + (count + i) * refSize) else { return false }
                let valueStart = offset(value)
                switch bytes[valueStart] >> 4 {
                case 0xA:
                    guard checkArray(value, at: valueStart) else { return false }
                case 0xC, 0xD:
                    return false
                default:
                    guard checkScalar(value) else { return false }
                }
            }
            return true
        }

        /// A scalar, as the reader's `readScalar` checks it, counted; collections fail.
        mutating func checkScalar(_ index: Int) -> Bool {
            let start = offset(index)
            let end = trailer.offsetTableOffset
            let marker = bytes[start]
            let low = Int(marker & 0x0F)
            var weight = 0
            switch marker >> 4 {
            case 0x0:
                guard marker == 0x00 || marker == 0x08 || marker == 0x09 else { return false }
            case 0x1:
                guard low <= 4, start + 1 + (1 << low) <= end else { return false }
            case 0x2:
                guard low == 2 || low == 3, start + 1 + (1 << low) <= end else { return false }
            case 0x3:
                guard marker == 0x33, start + 9 <= end, PropertyListDateRange.contains(Double(bitPattern: be(start + 1, 8))) else { return false }
            case 0x4:
                guard let (body, count) = count(start), count <= end - body else { return false }
                weight = count
            case 0x5:
                // ASCII only: UTF-8 in an ASCII string goes the ordinary way.
                guard let (body, count) = count(start), count <= end - body else { return false }
                var high: UInt8 = 0
                for b in UnsafeRawBufferPointer(start: base + body, count: count) { high |= b }
                guard high < 0x80 else { return false }
                weight = count
            case 0x6:
                // An empty UTF-16 string, which CF refuses, goes the ordinary way.
                guard let (body, count) = count(start), count > 0, count <= (end - body) / 2 else { return false }
                // A lone surrogate goes the ordinary way.
                guard let utf8 = bytes.utf8LengthOfBigEndianUTF16(at: body, units: count) else { return false }
                weight = utf8
            case 0x8:
                // UIDs past 32 bits, which CF refuses, go the ordinary way.
                guard low + 1 <= 8, start + 2 + low <= end, be(start + 1, low + 1) <= UInt64(UInt32.max) else { return false }
            default:
                return false
            }
            if weight > BinaryPropertyListParser.largeScalarBytes, !firstVisit(index) { return false }
            return grow(values: 1, bytes: weight)
        }
    }
}
