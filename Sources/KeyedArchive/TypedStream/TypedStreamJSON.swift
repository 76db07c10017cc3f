import Foundation
import PropertyList
import TypedStream

/// The `typedStream` member of `inspect --format json` for an archive read from a typedstream:
/// what the keyed form cannot show. Always: the byte order, the streamer and system versions,
/// and every class with its version and superclass. With every member asked for
/// (`omitsDefaultMembers` false): each object's groups as written (type encoding and values),
/// and the top-level groups, so that every value of the stream is accounted for.
///
/// Values are JSON as the rest of the document writes them: numbers, strings (C strings and
/// selectors), `{"$data": base64}` for bytes, `{"$ref": UID}` for objects (the UID the keyed
/// form gives object *n*: *n* + 1), `{"$class": index}` for classes, arrays for C arrays and
/// structs, `null` for nil.
enum TypedStreamJSON {
    static func member(_ stream: TypedStream, withGroups: Bool) -> PropertyListValue {
        typealias E = KeyedArchiveJSONExporter
        var entries: [(String, PropertyListValue)] = [
            ("byteOrder", .string(stream.header.byteOrder.rawValue)),
            ("streamerVersion", E.int(stream.header.streamerVersion)),
            ("systemVersion", E.int(stream.header.systemVersion)),
            ("classes", .array(stream.classes.map { c in
                E.object([("name", .string(c.name)), ("version", E.int(c.version)), ("superclass", c.superclass.map(E.int) ?? .null)])
            })),
        ]
        if withGroups {
            entries.append(("contents", .array(stream.contents.map(group))))
            entries.append(("objects", .array(stream.objects.enumerated().map { index, object in
                E.object([("uid", E.int(index + 1)), ("class", E.int(object.classIndex)), ("offset", E.int(object.offset)),
                          ("groups", .array(object.groups.map(group)))])
            })))
        }
        return E.object(entries)
    }

    static func group(_ group: TypedStreamGroup) -> PropertyListValue {
        KeyedArchiveJSONExporter.object([("encoding", .string(group.encoding)), ("values", .array(group.values.map(value)))])
    }

    static func value(_ v: TypedStreamValue) -> PropertyListValue {
        typealias E = KeyedArchiveJSONExporter
        switch v {
        case .null, .ignored: return .null
        case .integer(let i): return .integer(PropertyListInteger(i))
        case .unsignedInteger(let u): return .integer(PropertyListInteger(u))
        case .bool(let b): return .bool(b)
        case .float(let f): return E.real(Double(f))
        case .double(let d): return E.real(d)
        case .cString(let bytes):
            if let s = String(validating: bytes, as: UTF8.self) { return .string(s) }
            return E.plist(.data(Data(bytes)))
        case .selector(let s): return .string(s)
        case .bytes(let d), .byteArray(let d), .union(let d): return E.plist(.data(d))
        case .classReference(let index): return E.object([("$class", E.int(index))])
        case .object(let index): return E.object([("$ref", E.int(index + 1))])
        case .array(let elements), .structure(_, let elements): return .array(elements.map(value))
        }
    }
}
