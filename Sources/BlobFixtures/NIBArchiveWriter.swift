import Foundation
import NIBArchive

/// Writes NIBArchives for tests: objects with their class and fields, in the layout ibtool
/// uses (header, objects, keys, values, class names, each table right after the one before).
public struct NIBArchiveWriter {
    public var formatVersion: UInt32 = 1
    public var coderVersion: UInt32 = 10
    var classNames: [String] = []
    var keys: [String] = []
    var objects: [(className: String, fields: [(String, NIBArchiveValue.Content)])] = []

    public init() {}

    /// Adds an object and returns its index.
    @discardableResult
    public mutating func object(_ className: String, _ fields: [(String, NIBArchiveValue.Content)] = []) -> Int {
        objects.append((className, fields))
        return objects.count - 1
    }

    /// Replaces an object's class and fields (to refer to objects added after it).
    public mutating func set(_ index: Int, _ className: String, _ fields: [(String, NIBArchiveValue.Content)]) {
        objects[index] = (className, fields)
    }

    /// A string as ibtool writes one: an `NSString` object with its UTF-8 under `NS.bytes`.
    public mutating func string(_ text: String) -> NIBArchiveValue.Content {
        .object(object("NSString", [("NS.bytes", .data(Data(text.utf8)))]))
    }

    /// The archive's bytes.
    public func bytes() -> [UInt8] {
        var classIndex: [String: Int] = [:]
        var classOrder: [String] = []
        var keyIndex: [String: Int] = [:]
        var keyOrder: [String] = []
        for (className, fields) in objects {
            if classIndex[className] == nil { classIndex[className] = classOrder.count; classOrder.append(className) }
            for (key, _) in fields where keyIndex[key] == nil {
                keyIndex[key] = keyOrder.count
                keyOrder.append(key)
            }
        }
        var objectTable: [UInt8] = []
        var valueTable: [UInt8] = []
        var valueCount = 0
        for (className, fields) in objects {
            objectTable += Self.varint(classIndex[className]!) + Self.varint(valueCount) + Self.varint(fields.count)
            for (key, content) in fields {
                valueTable += Self.varint(keyIndex[key]!) + [content.typeByte] + Self.payload(content)
                valueCount += 1
            }
        }
        var keyTable: [UInt8] = []
        for key in keyOrder { keyTable += Self.varint(key.utf8.count) + Array(key.utf8) }
        var classTable: [UInt8] = []
        for name in classOrder { classTable += Self.varint(name.utf8.count + 1) + Self.varint(0) + Array(name.utf8) + [0] }
        let objectsOffset = NIBArchiveHeader.length
        let keysOffset = objectsOffset + objectTable.count
        let valuesOffset = keysOffset + keyTable.count
        let classesOffset = valuesOffset + valueTable.count
        var out = NIBArchive.magic
        for word in [Int(formatVersion), Int(coderVersion), objects.count, objectsOffset, keyOrder.count, keysOffset,
                     valueCount, valuesOffset, classOrder.count, classesOffset] {
            out += Self.littleEndian(UInt64(word), width: 4)
        }
        return out + objectTable + keyTable + valueTable + classTable
    }

    /// A NIBArchive varint: seven bits a byte, least significant first, the high bit on the last.
    public static func varint(_ value: Int) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F))
            value >>= 7
        }
        out.append(UInt8(value) | 0x80)
        return out
    }

    static func littleEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func payload(_ content: NIBArchiveValue.Content) -> [UInt8] {
        switch content {
        case .int8(let v): [UInt8(bitPattern: v)]
        case .int16(let v): littleEndian(UInt64(UInt16(bitPattern: v)), width: 2)
        case .int32(let v): littleEndian(UInt64(UInt32(bitPattern: v)), width: 4)
        case .int64(let v): littleEndian(UInt64(bitPattern: v), width: 8)
        case .bool, .null: []
        case .float(let v): littleEndian(UInt64(v.bitPattern), width: 4)
        case .double(let v): littleEndian(v.bitPattern, width: 8)
        case .data(let d): varint(d.count) + Array(d)
        case .object(let i): littleEndian(UInt64(i), width: 4)
        }
    }
}
