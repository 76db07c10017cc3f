import Foundation
import PropertyList
import TypedStream

/// Reads a typedstream of Foundation's value classes straight from its bytes, in one pass,
/// into a `TypedStreamValueTable`: without the stream's value tree (`TypedStream`), the keyed
/// form's parts or any decoded object. What `inspect --format json` and `unarchive --to json`
/// of a large stream need, at a fraction of the time and memory.
///
/// It takes only streams whose objects are all of these classes, written as Foundation writes
/// them: NSString and NSMutableString, NSNumber of a scalar type, NSDate, NSData and
/// NSMutableData, NSArray and NSMutableArray, NSDictionary and NSMutableDictionary, and NSColor
/// of RGB, white or CMYK components; and whose top level is one object (what
/// `+[NSArchiver archivedDataWithRootObject:]` writes). For those the table gives each object's
/// keyed fields as `TypedStreamKeyedArchiver`'s readers do and the class descriptions the same
/// UIDs, so its JSON is the decoded archive's.
///
/// It reads as `TypedStreamReader` does (the same tags, references, tables, limits and counts)
/// and gives up (nil) at anything else: another class or layout, a malformed byte, a limit
/// reached. The caller then reads the stream the ordinary way, which says what is wrong, so
/// an error or a refusal is never this reader's.
struct TypedStreamDirectReader {
    let bytes: UnsafeRawBufferPointer
    let limits: TypedStreamReadOptions
    var bigEndian = false
    var position = 0

    /// The shared strings, as ranges of `bytes`, and each one's type encoding once parsed.
    var sharedStrings: [Range<Int>] = []
    var encodings: [Encoding?] = []
    /// The table of objects, classes and C strings, which share one numbering.
    var references: [Reference] = []
    var classes: [StreamClass] = []
    /// Each stream object, in the order the stream introduces them.
    var objects: [TypedStreamStoredEntry] = []
    /// The objects arrays and dictionaries refer to, as stream object numbers (-1: nil).
    var elements: [Int32] = []
    /// The components of every color.
    var components: [Double] = []
    /// The elements of the collections being read, innermost last.
    var pendingElements: [Int32] = []
    var valueCount = 0
    var depth = 0

    /// Thrown to give the stream back to the ordinary reader.
    struct GiveUp: Error {}

    /// An entry of the table of references, with 32-bit indices (8 bytes, not 16: a large
    /// stream has one per object).
    enum Reference {
        case object(Int32)
        case `class`(Int32)
        /// A C string: the shared string it is.
        case cString(Int32)
    }

    /// `index` as a reference's index; past 2^31 the reader gives up.
    @inline(__always)
    static func referenceIndex(_ index: Int) throws(GiveUp) -> Int32 {
        guard let small = Int32(exactly: index) else { throw GiveUp() }
        return small
    }

    typealias StreamClass = TypedStreamValueTable.StreamClass
    typealias Kind = TypedStreamValueTable.Kind
    typealias Entry = TypedStreamValueTable.Entry

    /// The type encodings read here; any other gives up.
    enum Encoding: Equatable {
        /// `@`
        case object
        /// `+`
        case unsharedString
        /// `*`
        case cString
        /// One scalar type: `c C s S i I l L q Q f d B`.
        case scalar(UInt8)
        /// `ff`, `ffff` or `fffff`: a color's components.
        case floats(Int)
        /// `[nc]`, its count as written with no leading zero.
        case bytes(Int)
        case other
    }

    /// The stream's tags.
    typealias Tag = TypedStreamTag

    /// The objects of `data` as this reads them, for writing their JSON; nil when `data` is not
    /// a stream this reads, or anything in it is not as this reads it.
    static func table(_ data: Data, options: KeyedArchiveReadOptions) -> TypedStreamValueTable? {
        guard TypedStream.isTypedStream(data) else { return nil }
        return data.withUnsafeBytes { raw -> TypedStreamValueTable? in
            var reader = TypedStreamDirectReader(bytes: raw, limits: options.typedStream)
            // Room reserved from the input's length, not from any count in it: an object takes
            // a few bytes at least, so this is address space that a stream of small objects
            // fills and any other leaves untouched (and out of the resident memory), and the
            // tables are not copied as they grow.
            let room = min(raw.count / 16, 1 << 22)
            reader.objects.reserveCapacity(room)
            reader.references.reserveCapacity(room)
            reader.elements.reserveCapacity(room)
            do throws(GiveUp) {
                let (header, root) = try reader.readStream()
                return TypedStreamValueTable(source: data, header: header, root: root, objects: reader.objects,
                                             elements: reader.elements, components: reader.components, classes: reader.classes)
            } catch {
                return nil
            }
        }
    }

    // MARK: Bytes

    @inline(__always)
    func need(_ count: Int) throws(GiveUp) {
        guard count >= 0, count <= bytes.count - position else { throw GiveUp() }
    }

    @inline(__always)
    mutating func readHead() throws(GiveUp) -> Int8 {
        try need(1)
        let head = Int8(bitPattern: bytes[position])
        position += 1
        return head
    }

    mutating func readFixed(_ count: Int) throws(GiveUp) -> UInt64 {
        try need(count)
        let value = Tag.fixedValue(bytes, at: position, count: count, bigEndian: bigEndian)
        position += count
        return value
    }

    /// `TypedStreamReader.readInteger`.
    mutating func readInteger(head: Int8, width: Int, signed: Bool) throws(GiveUp) -> Int64 {
        guard let value = try Tag.integer(head: head, width: width, signed: signed, readFixed: { (n) throws(GiveUp) in try readFixed(n) }) else { throw GiveUp() }
        return value
    }

    /// `entries` entries of `objectsEach` objects each (an array's elements, a dictionary's key
    /// and value), each object read as a group, pushed on `pendingElements`; grown as they are
    /// read, never from the count. Returns where they start there.
    mutating func readObjectGroups(entries: Int64, objectsEach: Int) throws(GiveUp) -> Int {
        guard entries >= 0 else { throw GiveUp() }
        let start = pendingElements.count
        var read: Int64 = 0
        while read < entries {
            for _ in 0 ..< objectsEach {
                let number = try readObjectGroup()
                pendingElements.append(number)
            }
            read += 1
        }
        return start
    }

    mutating func readReference(head: Int8, count: Int) throws(GiveUp) -> Int {
        let index = try readInteger(head: head, width: 32, signed: true) - Tag.firstReference
        guard index >= 0, index < Int64(count) else { throw GiveUp() }
        return Int(index)
    }

    // MARK: Limits, as `TypedStreamReader` counts them

    mutating func count(objects added: Int) throws(GiveUp) {
        if references.count + sharedStrings.count + added >= limits.maximumObjectCount { throw GiveUp() }
    }

    @inline(__always)
    mutating func countValue() throws(GiveUp) {
        valueCount += 1
        if valueCount > limits.maximumValueCount { throw GiveUp() }
    }

    mutating func enter() throws(GiveUp) {
        depth += 1
        if depth > limits.maximumDepth { throw GiveUp() }
    }

    // MARK: Strings and encodings

    mutating func readUnsharedString(head: Int8) throws(GiveUp) -> Range<Int>? {
        if head == Tag.null { return nil }
        let length = try readInteger(head: head, width: 32, signed: true)
        guard length >= 0 else { throw GiveUp() }
        try need(Int(length))
        defer { position += Int(length) }
        return position ..< position + Int(length)
    }

    mutating func readSharedString(head: Int8) throws(GiveUp) -> Int? {
        switch head {
        case Tag.null: return nil
        case Tag.new:
            guard let range = try readUnsharedString(head: try readHead()) else { throw GiveUp() }
            try count(objects: 0)
            sharedStrings.append(range)
            encodings.append(nil)
            return sharedStrings.count - 1
        default:
            return try readReference(head: head, count: sharedStrings.count)
        }
    }

    /// A group's encoding, as `TypedStreamReader.readGroup` reads and checks it.
    mutating func readEncoding() throws(GiveUp) -> Encoding {
        guard let index = try readSharedString(head: try readHead()) else { throw GiveUp() }
        if let known = encodings[index] { return known }
        let range = sharedStrings[index]
        guard !range.isEmpty, range.count <= limits.maximumEncodingLength, limits.maximumDepth >= 4 else { throw GiveUp() }
        let encoding = Self.encoding(UnsafeRawBufferPointer(rebasing: bytes[range]))
        guard encoding != .other else { throw GiveUp() }
        encodings[index] = encoding
        return encoding
    }

    static func encoding(_ raw: UnsafeRawBufferPointer) -> Encoding {
        switch raw.count {
        case 1:
            switch raw[0] {
            case UInt8(ascii: "@"): return .object
            case UInt8(ascii: "+"): return .unsharedString
            case UInt8(ascii: "*"): return .cString
            case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "i"), UInt8(ascii: "I"),
                 UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "q"), UInt8(ascii: "Q"), UInt8(ascii: "f"), UInt8(ascii: "d"),
                 UInt8(ascii: "B"):
                return .scalar(raw[0])
            default: return .other
            }
        default:
            if raw[0] == UInt8(ascii: "f") {
                return [2, 4, 5].contains(raw.count) && raw.allSatisfy({ $0 == UInt8(ascii: "f") }) ? .floats(raw.count) : .other
            }
            // `[nc]`: digits without a leading zero (or `0` alone), as `"[\(n)c]"` spells them.
            guard raw.count >= 4, raw.count <= 12, raw[0] == UInt8(ascii: "["), raw[raw.count - 2] == UInt8(ascii: "c"),
                  raw[raw.count - 1] == UInt8(ascii: "]") else { return .other }
            let digits = UnsafeRawBufferPointer(rebasing: raw[1 ..< raw.count - 2])
            guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return .other }
            var n = 0
            for d in digits { n = n * 10 + Int(d - UInt8(ascii: "0")) }
            return .bytes(n)
        }
    }

    /// Reads a group's encoding and fails unless it is `expected`.
    mutating func expectGroup(_ expected: Encoding) throws(GiveUp) {
        guard try readEncoding() == expected else { throw GiveUp() }
    }

    @inline(__always)
    func atEndOfObject() throws(GiveUp) -> Bool {
        try need(1)
        return Int8(bitPattern: bytes[position]) == Tag.endOfObject
    }

    // MARK: Values

    /// A scalar value of type `type`, as `TypedStreamReader.readValue` reads it, as the keyed
    /// form of an NSNumber holds it (`TypedStreamKeyedArchiver.readNumber`): a `c` of 0 or 1 a
    /// bool, signed types signed, unsigned ones unsigned.
    mutating func readNumber(_ type: UInt8) throws(GiveUp) -> TypedStreamNumber {
        try countValue()
        switch type {
        case UInt8(ascii: "c"):
            let i = Int64(Int8(bitPattern: try readRawByte()))
            // A BOOL is written with type `c`.
            return i == 0 || i == 1 ? .bool(i == 1) : .signed(i)
        case UInt8(ascii: "C"): return .unsigned(UInt64(try readRawByte()))
        case UInt8(ascii: "B"): return .bool(try readRawByte() != 0)
        case UInt8(ascii: "s"): return .signed(try readInteger(head: try readHead(), width: 16, signed: true))
        case UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            return .signed(try readInteger(head: try readHead(), width: 64, signed: true))
        case UInt8(ascii: "S"):
            return .unsigned(UInt64(bitPattern: try readInteger(head: try readHead(), width: 16, signed: false)))
        case UInt8(ascii: "I"), UInt8(ascii: "L"):
            return .unsigned(UInt64(bitPattern: try readInteger(head: try readHead(), width: 32, signed: false)))
        case UInt8(ascii: "Q"):
            return .unsigned(UInt64(bitPattern: try readInteger(head: try readHead(), width: 64, signed: false)))
        case UInt8(ascii: "f"): return .real(Double(try readFloat()))
        case UInt8(ascii: "d"): return .real(try readDouble())
        default: throw GiveUp()
        }
    }

    mutating func readRawByte() throws(GiveUp) -> UInt8 {
        try need(1)
        defer { position += 1 }
        return bytes[position]
    }

    /// An `f` value, counted by the caller.
    mutating func readFloat() throws(GiveUp) -> Float {
        let head = try readHead()
        if head == Tag.real { return Float(bitPattern: UInt32(truncatingIfNeeded: try readFixed(4))) }
        return Float(try readInteger(head: head, width: 64, signed: true))
    }

    /// A `d` value, counted by the caller.
    mutating func readDouble() throws(GiveUp) -> Double {
        let head = try readHead()
        if head == Tag.real { return Double(bitPattern: try readFixed(8)) }
        return Double(try readInteger(head: head, width: 64, signed: true))
    }

    /// A `c` group's value, as an integer.
    mutating func readCharGroup() throws(GiveUp) -> Int64 {
        guard case .scalar(UInt8(ascii: "c")) = try readEncoding() else { throw GiveUp() }
        try countValue()
        return Int64(Int8(bitPattern: try readRawByte()))
    }

    /// An `i` group's value.
    mutating func readIntGroup() throws(GiveUp) -> Int64 {
        guard case .scalar(UInt8(ascii: "i")) = try readEncoding() else { throw GiveUp() }
        try countValue()
        return try readInteger(head: try readHead(), width: 64, signed: true)
    }

    /// An `@` group's object: its stream number, or -1 for nil.
    mutating func readObjectGroup() throws(GiveUp) -> Int32 {
        try expectGroup(.object)
        try countValue()
        guard let index = try readObject(head: try readHead()) else { return -1 }
        guard let number = Int32(exactly: index) else { throw GiveUp() }
        return number
    }

    // MARK: Classes and objects

    /// `TypedStreamReader.readClass`.
    mutating func readClass(head first: Int8) throws(GiveUp) -> Int? {
        var head = first
        var introduced: [Int] = []
        while head == Tag.new {
            guard let nameIndex = try readSharedString(head: try readHead()) else { throw GiveUp() }
            let version = try readInteger(head: try readHead(), width: 64, signed: true)
            guard let versionValue = Int(exactly: version) else { throw GiveUp() }
            try count(objects: 1)
            try enter()
            classes.append(StreamClass(name: sharedStrings[nameIndex], version: versionValue, superclass: nil, kind: nil))
            references.append(.class(try Self.referenceIndex(classes.count - 1)))
            introduced.append(classes.count - 1)
            head = try readHead()
        }
        depth -= introduced.count
        var superclass: Int?
        if head != Tag.null {
            let reference = try readReference(head: head, count: references.count)
            guard case .class(let index) = references[reference] else { throw GiveUp() }
            superclass = Int(index)
        }
        for (i, index) in introduced.enumerated() {
            classes[index].superclass = i + 1 < introduced.count ? introduced[i + 1] : superclass
        }
        return introduced.first ?? superclass
    }

    func chain(ofClass start: Int) -> [String] {
        TypedStreamValueTable.chain(ofClass: start, classes: classes, bytes: bytes)
    }

    static let kinds: [[String]: Kind] = [
        ["NSString", "NSObject"]: .string,
        ["NSMutableString", "NSString", "NSObject"]: .mutableString,
        ["NSNumber", "NSValue", "NSObject"]: .number,
        ["NSDate", "NSObject"]: .date,
        ["NSData", "NSObject"]: .data,
        ["NSMutableData", "NSData", "NSObject"]: .mutableData,
        ["NSArray", "NSObject"]: .array,
        ["NSMutableArray", "NSArray", "NSObject"]: .array,
        ["NSDictionary", "NSObject"]: .dictionary,
        ["NSMutableDictionary", "NSDictionary", "NSObject"]: .dictionary,
        ["NSColor", "NSObject"]: .color,
    ]

    mutating func kind(ofClass index: Int) -> Kind {
        if let known = classes[index].kind { return known }
        let kind = Self.kinds[chain(ofClass: index)] ?? .other
        classes[index].kind = kind
        return kind
    }

    /// `TypedStreamReader.readObject`: nil, a reference to an object read before (or being
    /// read), or a new one, read by its class's layout.
    mutating func readObject(head: Int8) throws(GiveUp) -> Int? {
        switch head {
        case Tag.null: return nil
        case Tag.new:
            try count(objects: 1)
            try enter()
            let index = objects.count
            objects.append(.pending)
            references.append(.object(try Self.referenceIndex(index)))
            guard let classIndex = try readClass(head: try readHead()) else { throw GiveUp() }
            objects[index] = try readContents(classIndex: classIndex)
            // The end tag, and nothing before it that the class's reader would leave over.
            guard try atEndOfObject() else { throw GiveUp() }
            position += 1
            depth -= 1
            return index
        default:
            let reference = try readReference(head: head, count: references.count)
            guard case .object(let index) = references[reference] else { throw GiveUp() }
            return Int(index)
        }
    }

    /// The groups of an object of class `classIndex`, as its class writes them.
    mutating func readContents(classIndex: Int) throws(GiveUp) -> TypedStreamStoredEntry {
        switch kind(ofClass: classIndex) {
        case .string, .mutableString:
            // NSString: one `+` group of UTF-8.
            try expectGroup(.unsharedString)
            try countValue()
            guard let range = try readUnsharedString(head: try readHead()) else { throw GiveUp() }
            return try stored(kind(ofClass: classIndex) == .string ? .string(range) : .mutableString(classIndex: classIndex, range))
        case .number:
            // NSValue's type as a `*` group, then one value of that type in a group of it.
            try expectGroup(.cString)
            try countValue()
            let type = try readCString(head: try readHead())
            guard type.count == 1, case .scalar(let scalar) = try readEncoding(), scalar == bytes[type.lowerBound] else { throw GiveUp() }
            return .number(try readNumber(scalar))
        case .date:
            guard case .scalar(UInt8(ascii: "d")) = try readEncoding() else { throw GiveUp() }
            try countValue()
            return try stored(.date(classIndex: classIndex, try readDouble()))
        case .data, .mutableData:
            // `-encodeDataObject:`: a length `i`, then `[nc]` of that length (which a length of 0
            // may leave out).
            let length = try readIntGroup()
            guard length >= 0, length <= Int64(bytes.count) else { throw GiveUp() }
            var range = position ..< position
            var lengthOnly = false
            if length == 0 { lengthOnly = try atEndOfObject() }
            if !lengthOnly {
                guard case .bytes(let n) = try readEncoding(), n == Int(length) else { throw GiveUp() }
                try countValue()
                try need(n)
                range = position ..< position + n
                position += n
            }
            return try stored(kind(ofClass: classIndex) == .data ? .data(range) : .mutableData(classIndex: classIndex, range))
        case .array:
            // Elements are pushed on `pendingElements`, above those of the collections being read
            // around this one (each may be a new object whose own elements are pushed and taken
            // meanwhile); then kept in `elements`.
            let pushed = try readObjectGroups(entries: try readIntGroup(), objectsEach: 1)
            let start = elements.count
            elements.append(contentsOf: pendingElements[pushed...])
            pendingElements.removeSubrange(pushed...)
            return try stored(.array(classIndex: classIndex, start ..< elements.count))
        case .dictionary:
            // Keys and values alternate in the stream; they are kept apart, keys first.
            let pushed = try readObjectGroups(entries: try readIntGroup(), objectsEach: 2)
            let keysStart = elements.count
            for i in stride(from: pushed, to: pendingElements.count, by: 2) { elements.append(pendingElements[i]) }
            let valuesStart = elements.count
            for i in stride(from: pushed + 1, to: pendingElements.count, by: 2) { elements.append(pendingElements[i]) }
            pendingElements.removeSubrange(pushed...)
            return try stored(.dictionary(classIndex: classIndex, keys: keysStart ..< valuesStart, values: valuesStart ..< elements.count))
        case .color:
            let kind = try readCharGroup()
            guard kind >= 1, kind <= 5, case .floats(let n) = try readEncoding(), n == TypedStreamValueTable.colorComponentCount(kind: kind) else { throw GiveUp() }
            let start = components.count
            for _ in 0 ..< n {
                try countValue()
                components.append(Double(try readFloat()))
            }
            return try stored(.color(classIndex: classIndex, kind: kind, components: start ..< components.count))
        case .other:
            throw GiveUp()
        }
    }

    /// `entry` as the table keeps it; beyond what that holds, the reader gives up.
    @inline(__always)
    func stored(_ entry: Entry) throws(GiveUp) -> TypedStreamStoredEntry {
        guard let kept = TypedStreamStoredEntry(entry) else { throw GiveUp() }
        return kept
    }

    /// `TypedStreamReader.readCString`, not nil: the C string's bytes.
    mutating func readCString(head: Int8) throws(GiveUp) -> Range<Int> {
        switch head {
        case Tag.null: throw GiveUp()
        case Tag.new:
            guard let index = try readSharedString(head: try readHead()) else { throw GiveUp() }
            try count(objects: 1)
            references.append(.cString(try Self.referenceIndex(index)))
            return sharedStrings[index]
        default:
            let reference = try readReference(head: head, count: references.count)
            guard case .cString(let index) = references[reference] else { throw GiveUp() }
            return sharedStrings[Int(index)]
        }
    }

    // MARK: The stream

    /// The header, then one top-level group of one object: its stream number, or -1 for nil.
    mutating func readStream() throws(GiveUp) -> (TypedStreamHeader, root: Int32) {
        guard bytes.count >= 13, bytes[0] == 4 else { throw GiveUp() }
        bigEndian = bytes[2] == UInt8(ascii: "t")
        position = 13
        let systemVersion = try readInteger(head: try readHead(), width: 32, signed: true)
        let header = TypedStreamHeader(streamerVersion: 4, byteOrder: bigEndian ? .bigEndian : .littleEndian,
                                       systemVersion: Int(systemVersion), length: position)
        guard position < bytes.count else { throw GiveUp() }
        let root = try readObjectGroup()
        guard position == bytes.count else { throw GiveUp() }
        return (header, root)
    }
}
