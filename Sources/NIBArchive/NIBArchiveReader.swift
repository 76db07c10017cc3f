import Foundation

/// Reads a NIBArchive's header, then each table at the offset the header gives.
///
/// The header is checked first: every offset inside the bytes, every count within the limits
/// and within what the bytes from its offset could hold at the smallest size of an entry. Only
/// then are the tables read, each read checking the bytes left (`need(_:)`) and each index
/// checked against its table's count. Nothing is reserved from a count larger than the bytes
/// could hold. The input is borrowed for the walk and never escapes.
struct NIBArchiveReader {
    let bytes: UnsafeRawBufferPointer
    let options: NIBArchiveReadOptions
    let header: NIBArchiveHeader
    var position = 0
    /// Where errors say they are.
    var entry: String?

    /// The fewest bytes one entry of each table takes: an object is three varints; a key a
    /// varint length; a value a varint key and a type byte; a class name two varints.
    enum MinimumSize {
        static let object = 3
        static let key = 1
        static let value = 2
        static let className = 2
    }

    init(bytes: UnsafeRawBufferPointer, options: NIBArchiveReadOptions) throws(NIBArchiveError) {
        self.bytes = bytes
        self.options = options
        guard bytes.count >= NIBArchive.magic.count, bytes.prefix(NIBArchive.magic.count).elementsEqual(NIBArchive.magic) else {
            throw NIBArchiveError(.notANIBArchive, "not a NIBArchive: the bytes do not start with the magic NIBArchive", offset: 0)
        }
        guard bytes.count >= NIBArchiveHeader.length else {
            throw NIBArchiveError(.truncated, "the header needs \(NIBArchiveHeader.length) bytes and the archive has \(bytes.count)", offset: bytes.count)
        }
        func word(_ n: Int) -> UInt32 {
            let at = NIBArchive.magic.count + 4 * n
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        // Counts and offsets are read as unsigned 32-bit numbers, so none is negative.
        header = NIBArchiveHeader(formatVersion: word(0), coderVersion: word(1),
                                  objectCount: Int(word(2)), objectsOffset: Int(word(3)),
                                  keyCount: Int(word(4)), keysOffset: Int(word(5)),
                                  valueCount: Int(word(6)), valuesOffset: Int(word(7)),
                                  classNameCount: Int(word(8)), classNamesOffset: Int(word(9)))
        try check(table: "object", count: header.objectCount, offset: header.objectsOffset, minimumSize: MinimumSize.object,
                  limit: options.maximumObjectCount, limitName: "maximumObjectCount", headerWord: 2)
        try check(table: "key", count: header.keyCount, offset: header.keysOffset, minimumSize: MinimumSize.key,
                  limit: options.maximumNameCount, limitName: "maximumNameCount", headerWord: 4)
        try check(table: "value", count: header.valueCount, offset: header.valuesOffset, minimumSize: MinimumSize.value,
                  limit: options.maximumValueCount, limitName: "maximumValueCount", headerWord: 6)
        try check(table: "class name", count: header.classNameCount, offset: header.classNamesOffset, minimumSize: MinimumSize.className,
                  limit: options.maximumNameCount, limitName: "maximumNameCount", headerWord: 8)
    }

    /// One table's place: its offset after the header and inside the bytes, its count within
    /// the limit and within what the bytes from its offset could hold.
    func check(table: String, count: Int, offset: Int, minimumSize: Int, limit: Int, limitName: String,
               headerWord: Int) throws(NIBArchiveError) {
        let at = NIBArchive.magic.count + 4 * headerWord
        // Rule: no table starts inside the header.
        guard count == 0 || offset >= NIBArchiveHeader.length else {
            throw NIBArchiveError(.malformed, "the \(table) table starts at byte \(offset), inside the header", offset: at + 4)
        }
        // Rule: a table starts inside the bytes (an empty one may start at their end).
        guard offset <= bytes.count else {
            throw NIBArchiveError(.truncated, "the \(table) table starts at byte \(offset), past the end of the archive (\(bytes.count) bytes)", offset: at + 4)
        }
        // Rule: the count is within the configured limit.
        guard count <= limit else {
            throw NIBArchiveError(.limitExceeded, "the archive has \(count) \(table)s, more than \(limitName) (\(limit))", offset: at)
        }
        // Rule: the bytes from the offset could hold that many entries of the smallest size.
        let (needed, overflow) = count.multipliedReportingOverflow(by: minimumSize)
        guard !overflow, needed <= bytes.count - offset else {
            throw NIBArchiveError(.truncated, "the header counts \(count) \(table)s, more than the \(bytes.count - offset) bytes after byte \(offset) can hold", offset: at)
        }
    }

    mutating func readArchive() throws(NIBArchiveError) -> NIBArchive {
        let classNames = try readClassNames()
        let keys = try readKeys()
        let values = try readValues()
        let objects = try readObjects()
        return NIBArchive(header: header, objects: objects, keys: keys, values: values, classNames: classNames)
    }

    // MARK: Tables

    /// The `count` entries of the table at `offset`, each read by `readEntry`; an error in one
    /// names it (`object 3`) through `entry`.
    mutating func readTable<Entry>(at offset: Int, count: Int, entry name: String,
                                   _ readEntry: (inout NIBArchiveReader) throws(NIBArchiveError) -> Entry) throws(NIBArchiveError) -> [Entry] {
        position = offset
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for n in 0..<count {
            entry = "\(name) \(n)"
            entries.append(try readEntry(&self))
        }
        entry = nil
        return entries
    }

    mutating func readObjects() throws(NIBArchiveError) -> [NIBArchiveObject] {
        try readTable(at: header.objectsOffset, count: header.objectCount, entry: "object") { (reader: inout NIBArchiveReader) throws(NIBArchiveError) in
            try reader.readObject()
        }
    }

    /// One entry of the objects, at `position`.
    mutating func readObject() throws(NIBArchiveError) -> NIBArchiveObject {
        let start = position
        let classIndex = try readVarint()
        let firstValue = try readVarint()
        let valueCount = try readVarint()
        guard classIndex < header.classNameCount else {
            throw error(.malformed, "the class index \(classIndex) is past the \(header.classNameCount) class names", at: start)
        }
        let (end, overflow) = firstValue.addingReportingOverflow(valueCount)
        guard !overflow, end <= header.valueCount else {
            throw error(.malformed, "the values \(firstValue) to \(firstValue &+ valueCount) run past the \(header.valueCount) values", at: start)
        }
        return NIBArchiveObject(classIndex: classIndex, firstValue: firstValue, valueCount: valueCount)
    }

    mutating func readKeys() throws(NIBArchiveError) -> [String] {
        try readTable(at: header.keysOffset, count: header.keyCount, entry: "key") { (reader: inout NIBArchiveReader) throws(NIBArchiveError) in
            try reader.readKey()
        }
    }

    /// One entry of the keys, at `position`.
    mutating func readKey() throws(NIBArchiveError) -> String {
        let length = try readVarint()
        return try readString(length, what: "key")
    }

    mutating func readClassNames() throws(NIBArchiveError) -> [NIBArchiveClassName] {
        try readTable(at: header.classNamesOffset, count: header.classNameCount, entry: "class name") { (reader: inout NIBArchiveReader) throws(NIBArchiveError) in
            try reader.readClassName()
        }
    }

    /// One entry of the class names, at `position`.
    mutating func readClassName() throws(NIBArchiveError) -> NIBArchiveClassName {
        let length = try readVarint()
        let extraCount = try readVarint()
        // Rule: the extra numbers fit in the bytes left (checked before reserving).
        guard extraCount <= (bytes.count - position) / 4 else {
            throw error(.truncated, "\(extraCount) extra numbers run past the end of the archive", at: position)
        }
        var extras: [Int32] = []
        extras.reserveCapacity(extraCount)
        for _ in 0..<extraCount {
            extras.append(Int32(bitPattern: UInt32(truncatingIfNeeded: try readLittleEndian(4))))
        }
        // The name is written with its terminating NUL, which the length counts.
        var name = try readString(length, what: "class name")
        if name.hasSuffix("\u{0}") { name.removeLast() }
        return NIBArchiveClassName(name: name, extras: extras)
    }

    mutating func readValues() throws(NIBArchiveError) -> [NIBArchiveValue] {
        try readTable(at: header.valuesOffset, count: header.valueCount, entry: "value") { (reader: inout NIBArchiveReader) throws(NIBArchiveError) in
            try reader.readValue()
        }
    }

    /// One entry of the values, at `position`.
    mutating func readValue() throws(NIBArchiveError) -> NIBArchiveValue {
        let start = position
        let keyIndex = try readVarint()
        guard keyIndex < header.keyCount else {
            throw error(.malformed, "the key index \(keyIndex) is past the \(header.keyCount) keys", at: start)
        }
        try need(1, "a type byte")
        let type = bytes[position]
        position += 1
        let content: NIBArchiveValue.Content
        switch type {
        case 0: content = .int8(Int8(truncatingIfNeeded: try readLittleEndian(1)))
        case 1: content = .int16(Int16(truncatingIfNeeded: try readLittleEndian(2)))
        case 2: content = .int32(Int32(truncatingIfNeeded: try readLittleEndian(4)))
        case 3: content = .int64(Int64(bitPattern: try readLittleEndian(8)))
        case 4: content = .bool(true)
        case 5: content = .bool(false)
        case 6: content = .float(Float(bitPattern: UInt32(truncatingIfNeeded: try readLittleEndian(4))))
        case 7: content = .double(Double(bitPattern: try readLittleEndian(8)))
        case 8:
            let length = try readVarint()
            try need(length, "\(length) bytes of data")
            content = .data(Data(bytes[position..<position + length]))
            position += length
        case 9: content = .null
        case 10:
            let at = position
            let index = Int(try readLittleEndian(4))
            guard index < header.objectCount else {
                throw error(.malformed, "a reference to object \(index), past the \(header.objectCount) objects", at: at)
            }
            content = .object(index)
        default:
            throw error(.malformed, "unknown value type \(type) (0 to 10 are defined)", at: position - 1)
        }
        return NIBArchiveValue(keyIndex: keyIndex, content: content)
    }

    // MARK: Primitives

    func error(_ code: NIBArchiveError.Code, _ message: String, at offset: Int) -> NIBArchiveError {
        NIBArchiveError(code, message, offset: offset, entry: entry)
    }

    /// Checks that `count` more bytes are there.
    func need(_ count: Int, _ what: String) throws(NIBArchiveError) {
        guard count <= bytes.count - position else {
            throw error(.truncated, "the archive ends inside \(what)", at: position)
        }
    }

    /// A little-endian unsigned integer of `width` bytes (1 to 8).
    mutating func readLittleEndian(_ width: Int) throws(NIBArchiveError) -> UInt64 {
        try need(width, "a \(width)-byte number")
        var value: UInt64 = 0
        for i in 0..<width {
            value |= UInt64(bytes[position + i]) << (8 * i)
        }
        position += width
        return value
    }

    /// A varint: seven bits a byte, least significant first, the last byte marked by its high
    /// bit (the opposite of LEB128's mark). At most 9 bytes, so the value fits 63 bits.
    mutating func readVarint() throws(NIBArchiveError) -> Int {
        let start = position
        var value = 0
        var shift = 0
        while true {
            guard position < bytes.count else {
                throw error(.truncated, "the archive ends inside a varint", at: start)
            }
            let byte = bytes[position]
            position += 1
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 != 0 { return value }
            shift += 7
            guard shift < 63 else {
                throw error(.malformed, "a varint longer than 9 bytes", at: start)
            }
        }
    }

    /// `length` bytes of UTF-8.
    mutating func readString(_ length: Int, what: String) throws(NIBArchiveError) -> String {
        try need(length, "a \(length)-byte \(what)")
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<position + length])
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw error(.malformed, "the \(what) is not UTF-8", at: position)
        }
        position += length
        return string
    }
}
