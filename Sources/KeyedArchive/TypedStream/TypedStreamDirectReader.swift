import Foundation
import PropertyList
import TypedStream

/// Reads a typedstream of Foundation's value classes straight from its bytes into the objects
/// `KeyedArchive(typedStream:)` decodes from it, in one pass, without the stream's value tree
/// (`TypedStream`) or the keyed form's parts: what `inspect --format json` and `unarchive --to
/// json` of a large stream need, at a fraction of the time and memory.
///
/// It takes only streams whose objects are all of these classes, written as Foundation writes
/// them: NSString and NSMutableString, NSNumber of a scalar type, NSDate, NSData and
/// NSMutableData, NSArray and NSMutableArray, NSDictionary and NSMutableDictionary, and NSColor
/// of RGB, white or CMYK components; and whose top level is one object (what
/// `+[NSArchiver archivedDataWithRootObject:]` writes). For those it makes each object's keyed
/// fields as `TypedStreamKeyedArchiver`'s readers do, gives the class descriptions the same
/// UIDs, and ends with the builder's own walk and content decoders
/// (`TypedStreamObjectBuilder.reachableObjects`), so the objects are the same.
///
/// It reads as `TypedStreamReader` does (the same tags, references, tables, limits and counts)
/// and gives up (nil) at anything else: another class or layout, a malformed byte, a limit
/// reached. The caller then reads the stream the ordinary way, which says what is wrong, so
/// an error or a refusal is never this reader's. Data objects refer to the input's bytes
/// instead of copying them.
///
/// The archive it gives holds the stream's header and classes (`typedStream`, without its
/// objects and groups) and no keyed form (`plist`): it is for writing the JSON of its objects
/// and the compact `typedStream` member, and is not handed out.
struct TypedStreamDirectReader {
    let bytes: UnsafeRawBufferPointer
    let source: Data
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
    var objects: [Entry] = []
    /// The objects arrays and dictionaries refer to, as stream object numbers (-1: nil).
    var elements: [Int32] = []
    var valueCount = 0
    var depth = 0

    /// Thrown to give the stream back to the ordinary reader.
    struct GiveUp: Error {}

    enum Reference {
        case object(Int)
        case `class`(Int)
        /// A C string: the shared string it is.
        case cString(Int)
    }

    struct StreamClass {
        var name: Range<Int>
        var version: Int
        var superclass: Int?
        /// What its objects are, worked out the first time one is read.
        var kind: Kind?
    }

    /// The classes read here, by their exact chain of names.
    enum Kind {
        case string, mutableString, number, date, data, mutableData, array, dictionary, color
        case other
    }

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

    /// A stream object, as far as its keyed form needs it.
    enum Entry {
        case pending
        case string(Range<Int>)
        case mutableString(classIndex: Int, Range<Int>)
        case number(PropertyListValue)
        case date(classIndex: Int, Double)
        case data(Range<Int>)
        case mutableData(classIndex: Int, Range<Int>)
        case array(classIndex: Int, Range<Int>)
        case dictionary(classIndex: Int, keys: Range<Int>, values: Range<Int>)
        case color(classIndex: Int, kind: Int64, components: [Double])
    }

    /// The stream's tags.
    typealias Tag = TypedStreamTag

    /// The archive `KeyedArchive(data:options:)` decodes from `data`, for writing its JSON; nil
    /// when `data` is not a stream this reads, or anything in it is not as this reads it.
    static func archive(_ data: Data, options: KeyedArchiveReadOptions) -> KeyedArchive? {
        guard TypedStream.isTypedStream(data) else { return nil }
        return data.withUnsafeBytes { raw -> KeyedArchive? in
            var reader = TypedStreamDirectReader(bytes: raw, source: data, limits: options.typedStream)
            do throws(GiveUp) {
                let (header, root) = try reader.readStream()
                return reader.assemble(header: header, root: root, options: options)
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
    /// and value), each object read as a group; grown as they are read, never from the count.
    mutating func readObjectGroups(entries: Int64, objectsEach: Int) throws(GiveUp) -> [Int32] {
        guard entries >= 0 else { throw GiveUp() }
        var list: [Int32] = []
        var read: Int64 = 0
        while read < entries {
            for _ in 0 ..< objectsEach { list.append(try readObjectGroup()) }
            read += 1
        }
        return list
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
    /// form of an NSNumber holds it (`TypedStreamKeyedArchiver.readNumber`).
    mutating func readNumber(_ type: UInt8) throws(GiveUp) -> PropertyListValue {
        try countValue()
        switch type {
        case UInt8(ascii: "c"):
            let i = Int64(Int8(bitPattern: try readRawByte()))
            // A BOOL is written with type `c`.
            return i == 0 || i == 1 ? .bool(i == 1) : .integer(PropertyListInteger(i))
        case UInt8(ascii: "C"): return .integer(PropertyListInteger(UInt64(try readRawByte())))
        case UInt8(ascii: "B"): return .bool(try readRawByte() != 0)
        case UInt8(ascii: "s"): return .integer(PropertyListInteger(try readInteger(head: try readHead(), width: 16, signed: true)))
        case UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            return .integer(PropertyListInteger(try readInteger(head: try readHead(), width: 64, signed: true)))
        case UInt8(ascii: "S"):
            return .integer(PropertyListInteger(UInt64(bitPattern: try readInteger(head: try readHead(), width: 16, signed: false))))
        case UInt8(ascii: "I"), UInt8(ascii: "L"):
            return .integer(PropertyListInteger(UInt64(bitPattern: try readInteger(head: try readHead(), width: 32, signed: false))))
        case UInt8(ascii: "Q"):
            return .integer(PropertyListInteger(UInt64(bitPattern: try readInteger(head: try readHead(), width: 64, signed: false))))
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
            references.append(.class(classes.count - 1))
            introduced.append(classes.count - 1)
            head = try readHead()
        }
        depth -= introduced.count
        var superclass: Int?
        if head != Tag.null {
            let reference = try readReference(head: head, count: references.count)
            guard case .class(let index) = references[reference] else { throw GiveUp() }
            superclass = index
        }
        for (i, index) in introduced.enumerated() {
            classes[index].superclass = i + 1 < introduced.count ? introduced[i + 1] : superclass
        }
        return introduced.first ?? superclass
    }

    /// A class's names, most derived first (`TypedStream.classChain(ofClass:)`).
    func chain(ofClass start: Int) -> [String] {
        var names: [String] = []
        var next: Int? = start
        while let index = next, index < classes.count, names.count <= classes.count {
            names.append(name(ofClass: index))
            next = classes[index].superclass
        }
        return names
    }

    func name(ofClass index: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[classes[index].name]), as: UTF8.self)
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
            references.append(.object(index))
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
            return index
        }
    }

    /// The groups of an object of class `classIndex`, as its class writes them.
    mutating func readContents(classIndex: Int) throws(GiveUp) -> Entry {
        switch kind(ofClass: classIndex) {
        case .string, .mutableString:
            // NSString: one `+` group of UTF-8.
            try expectGroup(.unsharedString)
            try countValue()
            guard let range = try readUnsharedString(head: try readHead()) else { throw GiveUp() }
            return kind(ofClass: classIndex) == .string ? .string(range) : .mutableString(classIndex: classIndex, range)
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
            return .date(classIndex: classIndex, try readDouble())
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
            return kind(ofClass: classIndex) == .data ? .data(range) : .mutableData(classIndex: classIndex, range)
        case .array:
            // Elements are read into a list of their own, as each may be a new object whose
            // own elements are read meanwhile; then kept in `elements`.
            let list = try readObjectGroups(entries: try readIntGroup(), objectsEach: 1)
            let start = elements.count
            elements.append(contentsOf: list)
            return .array(classIndex: classIndex, start ..< elements.count)
        case .dictionary:
            // Keys and values alternate in the stream; they are kept apart, keys first, after
            // the objects read meanwhile have kept theirs.
            let pairs = try readObjectGroups(entries: try readIntGroup(), objectsEach: 2)
            let keysStart = elements.count
            for i in stride(from: 0, to: pairs.count, by: 2) { elements.append(pairs[i]) }
            let valuesStart = elements.count
            for i in stride(from: 1, to: pairs.count, by: 2) { elements.append(pairs[i]) }
            return .dictionary(classIndex: classIndex, keys: keysStart ..< valuesStart, values: valuesStart ..< elements.count)
        case .color:
            let kind = try readCharGroup()
            guard kind >= 1, kind <= 5, case .floats(let n) = try readEncoding(), n == (kind <= 2 ? 4 : kind <= 4 ? 2 : 5) else { throw GiveUp() }
            var components: [Double] = []
            components.reserveCapacity(n)
            for _ in 0 ..< n {
                try countValue()
                components.append(Double(try readFloat()))
            }
            return .color(classIndex: classIndex, kind: kind, components: components)
        case .other:
            throw GiveUp()
        }
    }

    /// `TypedStreamReader.readCString`, not nil: the C string's bytes.
    mutating func readCString(head: Int8) throws(GiveUp) -> Range<Int> {
        switch head {
        case Tag.null: throw GiveUp()
        case Tag.new:
            guard let index = try readSharedString(head: try readHead()) else { throw GiveUp() }
            try count(objects: 1)
            references.append(.cString(index))
            return sharedStrings[index]
        default:
            let reference = try readReference(head: head, count: references.count)
            guard case .cString(let index) = references[reference] else { throw GiveUp() }
            return sharedStrings[index]
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

    // MARK: The archive

    /// The bytes of `range` as data: small ones copied, larger ones referring to `source`,
    /// which they keep.
    func data(_ range: Range<Int>) -> Data {
        guard range.count > 256, let base = bytes.baseAddress else { return Data(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        let source = self.source
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base + range.lowerBound), count: range.count,
                    deallocator: .custom { _, _ in withExtendedLifetime(source) {} })
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// `TypedStreamKeyedArchiver.readArray`'s `NS.objects` (and a dictionary's lists) made a
    /// field by `TypedStreamObjectBuilder.field`.
    func references(_ range: Range<Int>) -> ArchivedValue {
        guard !range.isEmpty else { return .inline(.array([])) }
        var values: [ArchivedValue] = []
        values.reserveCapacity(range.count)
        for i in range {
            let number = elements[i]
            values.append(number < 0 ? .null : .object(uid: Int(number) + 1))
        }
        return .array(values)
    }

    /// A color's components as `TypedStreamKeyedArchiver.componentText` writes them, and each
    /// written component read back as `ArchivedColorDecoder.numbers` reads it (nil when one
    /// does not read): each component's text and value worked out once per value, as colors
    /// share a few values.
    func colorText(_ components: [Double], cache: inout [UInt64: (text: [UInt8], value: Double?)]) -> (Data, [Double]?) {
        var shown = components[...]
        if shown.count > 1, shown.last == 1 { shown.removeLast() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(shown.count * 13)
        var values: [Double]? = []
        values?.reserveCapacity(shown.count)
        for (i, component) in shown.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: " ")) }
            let entry: (text: [UInt8], value: Double?)
            if let known = cache[component.bitPattern] {
                entry = known
            } else {
                var text: [UInt8] = []
                TypedStreamKeyedArchiver.appendTenDigits(component, to: &text)
                entry = (text, Double(String(decoding: text, as: UTF8.self)))
                cache[component.bitPattern] = entry
            }
            bytes.append(contentsOf: entry.text)
            if let value = entry.value { values?.append(value) } else { values = nil }
        }
        bytes.append(0)
        return (Data(bytes), values)
    }

    /// What `ArchivedColorDecoder.decode` gives for an NSColor of `kind` whose components
    /// read back as `values` (as many as `colorText` wrote).
    static func color(kind: Int64, _ values: [Double]) -> ArchivedColor? {
        if kind == 1 || kind == 2, values.count >= 3 {
            return ArchivedColor(red: values[0], green: values[1], blue: values[2], alpha: values.count > 3 ? values[3] : 1,
                                 space: kind == 1 ? .calibratedRGB : .deviceRGB)
        }
        if kind == 3 || kind == 4, let w = values.first {
            return ArchivedColor(red: w, green: w, blue: w, alpha: values.count > 1 ? values[1] : 1,
                                 space: kind == 3 ? .calibratedWhite : .deviceWhite, white: w)
        }
        if kind == 5, values.count >= 4 {
            let (c, m, y, k) = (values[0], values[1], values[2], values[3])
            return ArchivedColor(red: (1 - c) * (1 - k), green: (1 - m) * (1 - k), blue: (1 - y) * (1 - k),
                                 alpha: values.count > 4 ? values[4] : 1, space: .cmyk)
        }
        return nil
    }

    /// The builder's objects, class descriptions and walk, from what was read.
    func assemble(header: TypedStreamHeader, root: Int32, options: KeyedArchiveReadOptions) -> KeyedArchive? {
        let count = objects.count
        var built: [TypedStreamObjectBuilder.Built] = []
        built.reserveCapacity(count)
        var classTable: TypedStreamObjectBuilder.ClassTable = [:]
        // Class descriptions follow `$null` and the stream's objects, in the order objects first
        // need them, one per chain of names.
        var total = count + 1
        var uidsByChain: [[String]: Int] = [:]
        var uidsByClass = [Int?](repeating: nil, count: classes.count)
        var componentTexts: [UInt64: (text: [UInt8], value: Double?)] = [:]
        func classUID(_ index: Int) -> Int {
            if let known = uidsByClass[index] { return known }
            let chain = self.chain(ofClass: index)
            let uid: Int
            if let shared = uidsByChain[chain] {
                uid = shared
            } else {
                uid = total
                total += 1
                uidsByChain[chain] = uid
                let name = chain.first ?? "NSObject"
                let archivedClass = ArchivedClass(uid: uid, name: name, chain: chain.isEmpty ? [name] : chain)
                let decoderName = ArchivedContentDecoder.decoderName(for: archivedClass)
                classTable[uid] = (archivedClass, decoderName.flatMap { ArchivedContentDecoder.decoders[$0] }, decoderName)
            }
            uidsByClass[index] = uid
            return uid
        }
        for entry in objects {
            switch entry {
            case .pending:
                return nil
            case .string(let range):
                built.append(.inline(.string(string(range))))
            case .number(let value):
                built.append(.inline(value))
            case .data(let range):
                built.append(.inline(.data(data(range))))
            case .mutableString(let classIndex, let range):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.string", value: .inline(.string(string(range))))]))
            case .date(let classIndex, let seconds):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.time", value: .inline(.real(seconds)))]))
            case .mutableData(let classIndex, let range):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.data", value: .inline(.data(data(range))))]))
            case .array(let classIndex, let range):
                built.append(.object(classUID: classUID(classIndex), fields: [ArchivedField(key: "NS.objects", value: references(range))]))
            case .dictionary(let classIndex, let keys, let values):
                built.append(.object(classUID: classUID(classIndex), fields: [
                    ArchivedField(key: "NS.keys", value: references(keys)), ArchivedField(key: "NS.objects", value: references(values)),
                ]))
            case .color(let classIndex, let kind, let components):
                let uid = classUID(classIndex)
                let key = kind <= 2 ? "NSRGB" : kind <= 4 ? "NSWhite" : "NSCMYK"
                let (text, values) = colorText(components, cache: &componentTexts)
                let fields = [
                    ArchivedField(key: "NSColorSpace", value: .inline(.integer(PropertyListInteger(kind)))),
                    ArchivedField(key: key, value: .inline(.data(text))),
                ]
                if classTable[uid]?.decoderName == "NSColor", let values, let color = Self.color(kind: kind, values) {
                    built.append(.decoded(classUID: uid, fields: fields, content: .color(color)))
                } else {
                    built.append(.object(classUID: uid, fields: fields))
                }
            }
        }
        guard total <= options.propertyList.maximumObjectCount else { return nil }
        let top = [ArchivedField(key: "root", value: root < 0 ? .null : .object(uid: Int(root) + 1))]
        guard let decoded = TypedStreamObjectBuilder.reachableObjects(built, top: top, classes: classTable, total: total, options: options) else {
            return nil
        }
        var archive = KeyedArchive(archiver: "NSArchiver", version: header.systemVersion, top: top,
                                   root: KeyedArchiveDecoding.root(of: top, preferring: options.topKey), objects: decoded, plist: .null)
        archive.typedStream = TypedStream(header: header, contents: [], objects: [], classes: classes.indices.map { index in
            TypedStreamClass(name: name(ofClass: index), version: classes[index].version, superclass: classes[index].superclass)
        })
        return archive
    }
}
