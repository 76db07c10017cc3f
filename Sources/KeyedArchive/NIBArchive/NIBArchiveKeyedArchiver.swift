import Foundation
import NIBArchive
import PropertyList

/// Turns a compiled nib into the keyed archive NSKeyedArchiver would write of the same objects,
/// as a property list, so that the decoder, checks, payloads, printers and diff serve nibs too.
///
/// A nib is keyed already: each object names its class and holds (key, value) pairs. What
/// differs is how values without a key are kept. UINibEncoder writes each under the key
/// `UINibEncoderEmptyKey`, once per value: a collection's elements (NSArray, NSSet and their
/// mutable and ordered kinds), a dictionary's keys and objects in turn. Those become
/// `NS.objects` (and `NS.keys`), as NSKeyedArchiver writes collections; in any other class they
/// become `$0`, `$1`…, NSKeyedArchiver's keys for unkeyed values. A key repeated otherwise keeps
/// its first value under its name and the later ones under `key$1`, `key$2`… Strings (`NSString`
/// with `NS.bytes`), numbers (`NSNumber` with `NS.intval`, `NS.dblval` or `NS.boolval`) and
/// `NSData` are written inline, as NSKeyedArchiver writes them; every other value keeps its key.
///
/// Object *n* of the nib is UID *n* + 1; `$top`'s `root` is object 0 (the `NSObject` holding
/// `IB.objectdata`). Class descriptions come after the objects, with the class name alone as
/// their chain (a nib does not record superclasses).
struct NIBArchiveKeyedArchiver {
    let nib: NIBArchive
    var objects: [PropertyListValue]
    var classUIDs: [String: Int] = [:]

    static let emptyKey = "UINibEncoderEmptyKey"
    static let collections: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]
    static let dictionaries: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    init(nib: NIBArchive) {
        self.nib = nib
        objects = ["$null"]
        objects.reserveCapacity(nib.objects.count + nib.classNames.count + 1)
    }

    mutating func archive() -> PropertyListValue {
        for object in nib.objects {
            objects.append(encode(object))
        }
        for name in pendingClasses {
            var description = PropertyListDictionary()
            description.append(key: "$classname", value: .string(name))
            description.append(key: "$classes", value: .array([.string(name)]))
            objects.append(.dictionary(description))
        }
        var top = PropertyListDictionary()
        if !nib.objects.isEmpty { top.append(key: "root", value: .uid(1)) }
        return KeyedArchiveWriter.document(top: top, objects: objects)
    }

    func value(_ content: NIBArchiveValue.Content) -> PropertyListValue {
        switch content {
        case .int8(let v): .integer(PropertyListInteger(Int(v)))
        case .int16(let v): .integer(PropertyListInteger(Int(v)))
        case .int32(let v): .integer(PropertyListInteger(Int(v)))
        case .int64(let v): .integer(PropertyListInteger(Int(v)))
        case .bool(let b): .bool(b)
        case .float(let v): .real(Double(v))
        case .double(let v): .real(v)
        case .data(let d): .data(d)
        case .null: .uid(0)
        case .object(let index): .uid(UInt64(index) + 1)
        }
    }

    mutating func encode(_ object: NIBArchiveObject) -> PropertyListValue {
        let className = nib.className(of: object)
        let fields = nib.fields(of: object)
        // Inline values, as NSKeyedArchiver writes them.
        if fields.count == 1 {
            let (key, content) = fields[0]
            switch (className, key, content) {
            case ("NSString", "NS.bytes", .data(let bytes)):
                if let text = String(data: bytes, encoding: .utf8) { return .string(text) }
            case ("NSNumber", "NS.intval", _), ("NSNumber", "NS.dblval", _), ("NSNumber", "NS.boolval", _):
                if case .object = content {} else if content != .null { return value(content) }
            case ("NSData", "NS.bytes", .data(let bytes)):
                return .data(bytes)
            case ("NSMutableString", "NS.bytes", .data(let bytes)):
                if let text = String(data: bytes, encoding: .utf8) { return keyed(className, [("NS.string", .string(text))]) }
            case ("NSMutableData", "NS.bytes", .data(let bytes)):
                return keyed(className, [("NS.data", .data(bytes))])
            default:
                break
            }
        }
        var named: [(String, PropertyListValue)] = []
        var unkeyed: [PropertyListValue] = []
        var seen: [String: Int] = [:]
        for (key, content) in fields {
            if key == Self.emptyKey {
                unkeyed.append(value(content))
                continue
            }
            let n = seen[key, default: 0]
            seen[key] = n + 1
            named.append((n == 0 ? key : "\(key)$\(n)", value(content)))
        }
        if Self.collections.contains(className) {
            named.append(("NS.objects", .array(unkeyed)))
        } else if Self.dictionaries.contains(className), unkeyed.count % 2 == 0 {
            named.append(("NS.keys", .array(stride(from: 0, to: unkeyed.count, by: 2).map { unkeyed[$0] })))
            named.append(("NS.objects", .array(stride(from: 1, to: unkeyed.count, by: 2).map { unkeyed[$0] })))
        } else {
            for (i, v) in unkeyed.enumerated() { named.append(("$\(i)", v)) }
        }
        return keyed(className, named)
    }

    /// A keyed object of `className` with `fields`, its class description shared.
    mutating func keyed(_ className: String, _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        var dictionary = PropertyListDictionary()
        for (key, value) in fields {
            dictionary.append(key: .string(KeyedArchiveWriter.escape(key)), value: value)
        }
        dictionary.append(key: "$class", value: .uid(UInt64(classUID(className))))
        return .dictionary(dictionary)
    }

    /// Class descriptions go after every object, so object *n* stays UID *n* + 1: they are
    /// numbered from the end of the object table and appended in `archive()`'s order.
    mutating func classUID(_ name: String) -> Int {
        if let uid = classUIDs[name] { return uid }
        let uid = nib.objects.count + 1 + classUIDs.count
        classUIDs[name] = uid
        pendingClasses.append(name)
        return uid
    }

    var pendingClasses: [String] = []
}
