import Foundation

/// Walks a typedstream's bytes once, front to back, into `TypedStream`'s groups, objects and
/// classes.
///
/// Every read checks the bytes left first (`need(_:)`), every count is checked against the bytes
/// that could hold it before anything is reserved, and nesting is bounded by
/// `TypedStreamReadOptions.maximumDepth`. The input is borrowed for the walk and never escapes.
struct TypedStreamReader {
    let bytes: UnsafeRawBufferPointer
    let options: TypedStreamReadOptions
    private(set) var header: TypedStreamHeader
    var position: Int

    /// The shared string table: type encodings, class names, selectors and atoms, by number.
    var sharedStrings: [[UInt8]] = []
    /// Each shared string's types, parsed the first time it is used as a type encoding.
    var parsedEncodings: [Int: (encoding: String, types: [ObjCType])] = [:]
    /// The table of objects, classes and C strings, which share one numbering.
    var references: [Reference] = []
    var objects: [TypedStreamObject] = []
    var classes: [TypedStreamClass] = []
    var cStrings: [[UInt8]] = []
    var valueCount = 0
    var depth = 0
    /// Where errors say they are: the class being read and the group and value in it.
    var context = Context()

    enum Reference {
        case object(Int)
        case `class`(Int)
        case cString(Int)
    }

    struct Context {
        var className: String?
        var group = 0
        var value = 0

        var field: String { "group \(group + 1), value \(value + 1)" }
    }

    /// The tags a head byte may hold.
    typealias Tag = TypedStreamTag

    init(bytes: UnsafeRawBufferPointer, options: TypedStreamReadOptions) throws(TypedStreamError) {
        self.bytes = bytes
        self.options = options
        guard let (streamerVersion, byteOrder) = TypedStream.header(in: bytes) else {
            throw TypedStreamError(.notATypedStream, "not a typedstream: the bytes do not start with 04 0B and the signature typedstream or streamtyped", offset: 0)
        }
        guard streamerVersion == 4 else {
            throw TypedStreamError(.unsupportedVersion, "typedstream streamer version \(streamerVersion) (early NeXTSTEP) is not read; Mac OS X and later NeXTSTEP write version 4", offset: 0)
        }
        // A provisional header, so that the system version is read in the stream's byte order.
        header = TypedStreamHeader(streamerVersion: streamerVersion, byteOrder: byteOrder, systemVersion: 0, length: 13)
        position = 13
        let systemVersion = try readInteger(head: try readHead(), width: 32, signed: true)
        header = TypedStreamHeader(streamerVersion: streamerVersion, byteOrder: byteOrder, systemVersion: Int(systemVersion), length: position)
    }

    mutating func readStream() throws(TypedStreamError) -> TypedStream {
        var contents: [TypedStreamGroup] = []
        while position < bytes.count {
            context = Context(className: nil, group: contents.count, value: 0)
            contents.append(try readGroup())
        }
        return TypedStream(header: header, contents: contents, objects: objects, classes: classes)
    }

    // MARK: Errors

    func truncated(_ what: String) -> TypedStreamError {
        TypedStreamError(.truncated, "truncated: the stream ends inside \(what)", offset: position, className: context.className, field: context.className == nil && position == header.length ? nil : context.field)
    }

    func malformed(_ message: String, at offset: Int? = nil) -> TypedStreamError {
        TypedStreamError(.malformed, message, offset: offset ?? position, className: context.className, field: context.field)
    }

    func limit(_ message: String) -> TypedStreamError {
        TypedStreamError(.limitExceeded, message, offset: position, className: context.className, field: context.field)
    }

    // MARK: Bytes

    /// Fails unless `count` more bytes are there.
    @inline(__always)
    func need(_ count: Int, _ what: @autoclosure () -> String) throws(TypedStreamError) {
        guard count <= bytes.count - position else { throw truncated(what()) }
    }

    mutating func readHead() throws(TypedStreamError) -> Int8 {
        try need(1, "a value")
        let head = Int8(bitPattern: bytes[position])
        position += 1
        return head
    }

    /// `count` bytes as an unsigned integer in the stream's byte order.
    mutating func readFixed(_ count: Int) throws(TypedStreamError) -> UInt64 {
        try need(count, "a \(count)-byte value")
        let value = Tag.fixedValue(bytes, at: position, count: count, bigEndian: header.byteOrder == .bigEndian)
        position += count
        return value
    }

    /// An integer in the compact encoding: the head itself, or 2, 4 or 8 bytes after their tags,
    /// sign-extended as NeXT's decoder did, then taken in `width` bits as the C type would.
    mutating func readInteger(head: Int8, width: Int, signed: Bool) throws(TypedStreamError) -> Int64 {
        let start = position - 1
        guard let value = try Tag.integer(head: head, width: width, signed: signed, readFixed: { (n) throws(TypedStreamError) in try readFixed(n) }) else {
            throw malformed("tag \(Self.hex(head)) where an integer should be", at: start)
        }
        return value
    }

    /// A reference number after its head, as an index into a table of `count` entries.
    mutating func readReference(head: Int8, count: Int, table: String) throws(TypedStreamError) -> Int {
        let start = position - 1
        let number = try readInteger(head: head, width: 32, signed: true)
        let index = number - Tag.firstReference
        guard index >= 0, index < Int64(count) else {
            throw malformed("reference \(index) to the \(table) table, which has \(count) entries", at: start)
        }
        return Int(index)
    }

    static func hex(_ head: Int8) -> String { "0x" + String(UInt8(bitPattern: head), radix: 16, uppercase: true) }

    // MARK: Strings

    /// An unshared string (`+`, and the body of a new shared string): nil, or a length and bytes.
    mutating func readUnsharedString(head: Int8) throws(TypedStreamError) -> Range<Int>? {
        if head == Tag.null { return nil }
        let start = position - 1
        let length = try readInteger(head: head, width: 32, signed: true)
        guard length >= 0 else { throw malformed("a string of negative length \(length)", at: start) }
        try need(Int(length), "a string of \(length) bytes")
        defer { position += Int(length) }
        return position ..< position + Int(length)
    }

    /// A shared string: nil, a new one (added to the table), or a reference to one read before.
    mutating func readSharedString(head: Int8) throws(TypedStreamError) -> Int? {
        switch head {
        case Tag.null: return nil
        case Tag.new:
            let start = position - 1
            guard let range = try readUnsharedString(head: try readHead()) else {
                throw malformed("a new shared string that is nil", at: start)
            }
            try count(objects: 0)
            sharedStrings.append(Array(bytes[range]))
            return sharedStrings.count - 1
        default:
            return try readReference(head: head, count: sharedStrings.count, table: "shared string")
        }
    }

    /// The types of a group's encoding string, parsed once per shared string.
    mutating func encodingTypes(_ index: Int, at start: Int) throws(TypedStreamError) -> (encoding: String, types: [ObjCType]) {
        if let parsed = parsedEncodings[index] { return parsed }
        let raw = sharedStrings[index]
        guard !raw.isEmpty else { throw malformed("an empty type encoding", at: start) }
        guard raw.count <= options.maximumEncodingLength else {
            throw limit("a type encoding of \(raw.count) bytes, longer than the limit of \(options.maximumEncodingLength) (TypedStreamReadOptions.maximumEncodingLength)")
        }
        let types: [ObjCType]
        do throws(ObjCTypeEncodingParser.Failure) {
            types = try ObjCTypeEncodingParser.types(of: raw, maximumDepth: options.maximumDepth)
        } catch {
            throw malformed("\(error.message) (type encoding \"\(String(decoding: raw, as: UTF8.self))\")", at: start)
        }
        let parsed = (String(decoding: raw, as: UTF8.self), types)
        parsedEncodings[index] = parsed
        return parsed
    }

    // MARK: Limits

    /// Counts `objects` more table entries (and one more string) against the limits.
    mutating func count(objects added: Int) throws(TypedStreamError) {
        if references.count + sharedStrings.count + added >= options.maximumObjectCount {
            throw limit("more than \(options.maximumObjectCount) objects, classes and strings (TypedStreamReadOptions.maximumObjectCount)")
        }
    }

    mutating func countValue() throws(TypedStreamError) {
        valueCount += 1
        if valueCount > options.maximumValueCount {
            throw limit("more than \(options.maximumValueCount) values (TypedStreamReadOptions.maximumValueCount)")
        }
    }

    mutating func enter() throws(TypedStreamError) {
        depth += 1
        if depth > options.maximumDepth {
            throw limit("values nested deeper than \(options.maximumDepth) (TypedStreamReadOptions.maximumDepth)")
        }
    }

    // MARK: Groups and values

    /// A group: its encoding string, then a value for each of its types.
    mutating func readGroup() throws(TypedStreamError) -> TypedStreamGroup {
        let start = position
        guard let index = try readSharedString(head: try readHead()) else {
            throw malformed("a nil type encoding where a group of values should start", at: start)
        }
        let (encoding, types) = try encodingTypes(index, at: start)
        var values: [TypedStreamValue] = []
        values.reserveCapacity(types.count)
        for (i, type) in types.enumerated() {
            context.value = i
            values.append(try readValue(type))
        }
        return TypedStreamGroup(encoding: encoding, values: values, offset: start)
    }

    mutating func readValue(_ type: ObjCType) throws(TypedStreamError) -> TypedStreamValue {
        try countValue()
        switch type {
        case .char:
            try need(1, "a char")
            defer { position += 1 }
            return .integer(Int64(Int8(bitPattern: bytes[position])))
        case .unsignedChar:
            try need(1, "an unsigned char")
            defer { position += 1 }
            return .unsignedInteger(UInt64(bytes[position]))
        case .bool:
            try need(1, "a bool")
            defer { position += 1 }
            return .bool(bytes[position] != 0)
        case .short: return .integer(try readInteger(head: try readHead(), width: 16, signed: true))
        case .int, .long, .longLong: return .integer(try readInteger(head: try readHead(), width: 64, signed: true))
        case .unsignedShort: return .unsignedInteger(UInt64(bitPattern: try readInteger(head: try readHead(), width: 16, signed: false)))
        case .unsignedInt, .unsignedLong:
            return .unsignedInteger(UInt64(bitPattern: try readInteger(head: try readHead(), width: 32, signed: false)))
        case .unsignedLongLong: return .unsignedInteger(UInt64(bitPattern: try readInteger(head: try readHead(), width: 64, signed: false)))
        case .float:
            let head = try readHead()
            if head == Tag.real { return .float(Float(bitPattern: UInt32(truncatingIfNeeded: try readFixed(4)))) }
            return .float(Float(try readInteger(head: head, width: 64, signed: true)))
        case .double:
            let head = try readHead()
            if head == Tag.real { return .double(Double(bitPattern: try readFixed(8))) }
            return .double(Double(try readInteger(head: head, width: 64, signed: true)))
        case .unsharedString:
            guard let range = try readUnsharedString(head: try readHead()) else { return .null }
            return .bytes(Data(bytes[range]))
        case .atom:
            guard let index = try readSharedString(head: try readHead()) else { return .null }
            return .cString(sharedStrings[index])
        case .selector:
            guard let index = try readSharedString(head: try readHead()) else { return .null }
            return .selector(String(decoding: sharedStrings[index], as: UTF8.self))
        case .cString:
            return try readCString(head: try readHead())
        case .classObject:
            guard let index = try readClass(head: try readHead()) else { return .null }
            return .classReference(index)
        case .object:
            return try readObject(head: try readHead())
        case .ignored:
            return .ignored
        case .pointer(let pointee):
            return try readValue(pointee)
        case .union(_, let byteCount):
            try need(byteCount, "a union of \(byteCount) bytes")
            defer { position += byteCount }
            return .union(Data(bytes[position ..< position + byteCount]))
        case .array(let count, let element):
            if element == .char || element == .unsignedChar {
                try need(count, "an array of \(count) bytes")
                defer { position += count }
                return .byteArray(Data(bytes[position ..< position + count]))
            }
            // Refused before reading when the bytes left cannot hold `count` elements.
            let (least, overflow) = count.multipliedReportingOverflow(by: element.minimumByteCount)
            guard !overflow, least <= bytes.count - position else { throw truncated("an array of \(count) \(element.encoding)") }
            try enter()
            defer { depth -= 1 }
            var elements: [TypedStreamValue] = []
            if element.minimumByteCount > 0 { elements.reserveCapacity(count) }
            for _ in 0..<count { elements.append(try readValue(element)) }
            return .array(elements)
        case .structure(let name, let fieldTypes):
            try enter()
            defer { depth -= 1 }
            var fields: [TypedStreamValue] = []
            fields.reserveCapacity(fieldTypes.count)
            for field in fieldTypes { fields.append(try readValue(field)) }
            return .structure(name: name, fields: fields)
        }
    }

    /// A C string: nil, new (a shared string, which then takes a number in the object table), or
    /// a reference to one read before.
    mutating func readCString(head: Int8) throws(TypedStreamError) -> TypedStreamValue {
        switch head {
        case Tag.null: return .null
        case Tag.new:
            let start = position - 1
            guard let index = try readSharedString(head: try readHead()) else { throw malformed("a new C string that is nil", at: start) }
            try count(objects: 1)
            cStrings.append(sharedStrings[index])
            references.append(.cString(cStrings.count - 1))
            return .cString(sharedStrings[index])
        default:
            let start = position - 1
            let reference = try readReference(head: head, count: references.count, table: "object")
            guard case .cString(let index) = references[reference] else {
                throw malformed("a C string refers to entry \(reference), which is not a C string", at: start)
            }
            return .cString(cStrings[index])
        }
    }

    /// A class: nil, a reference to one read before, or new classes, each after its name and
    /// version, ending at the first superclass that is nil or read before.
    mutating func readClass(head first: Int8) throws(TypedStreamError) -> Int? {
        var head = first
        // The classes this chain introduces, each waiting for its superclass.
        var introduced: [Int] = []
        var superclass: Int?
        while head == Tag.new {
            let start = position - 1
            guard let nameIndex = try readSharedString(head: try readHead()) else { throw malformed("a class with a nil name", at: start) }
            let version = try readInteger(head: try readHead(), width: 64, signed: true)
            guard let versionValue = Int(exactly: version) else { throw malformed("a class version out of range", at: start) }
            try count(objects: 1)
            try enter()
            classes.append(TypedStreamClass(name: String(decoding: sharedStrings[nameIndex], as: UTF8.self), version: versionValue, superclass: nil))
            references.append(.class(classes.count - 1))
            introduced.append(classes.count - 1)
            head = try readHead()
        }
        depth -= introduced.count
        if head == Tag.null {
            superclass = nil
        } else {
            let start = position - 1
            let reference = try readReference(head: head, count: references.count, table: "object")
            guard case .class(let index) = references[reference] else {
                throw malformed("a class refers to entry \(reference), which is not a class", at: start)
            }
            superclass = index
        }
        // Each introduced class's superclass is the next one in the chain; the last one's is
        // the nil or reference that ended it.
        for (i, index) in introduced.enumerated() {
            classes[index].superclass = i + 1 < introduced.count ? introduced[i + 1] : superclass
        }
        return introduced.first ?? superclass
    }

    /// An object: nil, a reference to one read before (or still being read: a cycle), or a new
    /// one: its class, then groups until the end-of-object tag.
    mutating func readObject(head: Int8) throws(TypedStreamError) -> TypedStreamValue {
        switch head {
        case Tag.null: return .null
        case Tag.new:
            let start = position - 1
            try count(objects: 1)
            try enter()
            defer { depth -= 1 }
            // The object takes its number before its class is read.
            let index = objects.count
            objects.append(TypedStreamObject(classIndex: -1, groups: [], offset: start))
            references.append(.object(index))
            let saved = context
            let classHead = try readHead()
            guard let classIndex = try readClass(head: classHead) else { throw malformed("an object with a nil class", at: start) }
            objects[index].classIndex = classIndex
            context = Context(className: classes[classIndex].name, group: 0, value: 0)
            var groups: [TypedStreamGroup] = []
            while true {
                try need(1, "an object of class \(classes[classIndex].name), before its end tag")
                if Int8(bitPattern: bytes[position]) == Tag.endOfObject {
                    position += 1
                    break
                }
                context.group = groups.count
                groups.append(try readGroup())
            }
            objects[index].groups = groups
            context = saved
            return .object(index)
        default:
            let start = position - 1
            let reference = try readReference(head: head, count: references.count, table: "object")
            guard case .object(let index) = references[reference] else {
                throw malformed("an object refers to entry \(reference), which is not an object", at: start)
            }
            return .object(index)
        }
    }
}
