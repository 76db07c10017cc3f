import Foundation
import PropertyList
import TypedStream

/// Decodes a typedstream's objects straight into the `KeyedArchive` that
/// `KeyedArchive(typedStream:)` gives through its keyed form, without making that keyed form a
/// property list and decoding it again.
///
/// The keyed form is a tree of a dictionary per object that `KeyedArchiveDecoding` then reads
/// back key by key: for a stream of 100,000 objects, most of the time and memory of reading
/// it. This takes each object's keys and values from `TypedStreamKeyedArchiver.keyedParts`
/// (the same readers, so the same fields), converts them as the decoder converts a
/// dictionary's values (`KeyedArchiveDecoding.field`), gives each class its description's UID
/// in the same order, and decodes the content with the same content decoders.
///
/// It gives up (nil) wherever the decoder would need the keyed form itself, and the caller then
/// takes that path, which also reports any error:
/// - a reader adds objects the stream does not have (an attributed string's run table, a font's
///   name, a color list's arrays);
/// - a class with a content decoder has a field that refers to another object, other than the
///   lists of references of an array, set or dictionary (the decoder would read that object's
///   keyed form);
/// - the keyed form would have more entries than `maximumObjectCount` allows, or references
///   would nest deeper than `maximumDepth`.
struct TypedStreamObjectBuilder {
    let stream: TypedStream
    let options: KeyedArchiveReadOptions
    var archiver: TypedStreamKeyedArchiver
    /// The class of each class description, by its UID.
    var classes: ClassTable = [:]

    init(stream: TypedStream, options: KeyedArchiveReadOptions) {
        self.stream = stream
        self.options = options
        archiver = TypedStreamKeyedArchiver(stream: stream)
    }

    /// What the decoder gives for each object, before the walk from `$top` keeps the reachable.
    enum Built {
        case inline(PropertyListValue)
        case object(classUID: Int, fields: [ArchivedField])
        /// An object whose content was decoded as it was read, to what its content decoder
        /// gives for `fields` (the colors of `TypedStreamValueTable.archive(options:)`).
        case decoded(classUID: Int, fields: [ArchivedField], content: ArchivedContent)
    }

    /// The archive `KeyedArchive(typedStream:options:)` gives, or nil where this gives up.
    mutating func archive() -> KeyedArchive? {
        let count = stream.objects.count
        var built: [Built] = []
        built.reserveCapacity(count)
        for index in 0..<count {
            let before = archiver.objects.count
            let parts = archiver.keyedParts(objectAt: index)
            // Only class descriptions may be added, and they are added by `classUID` below.
            guard archiver.objects.count == before else { return nil }
            switch parts {
            case .inline(let value):
                built.append(.inline(value))
            case .object(let classIndex, let pairs):
                let uid = archiver.classUID(ofClass: classIndex)
                if classes[uid] == nil {
                    guard archiver.objects.count == before + 1, uid == before else { return nil }
                    let chain = archiver.plan(forClass: classIndex).chain
                    let name = chain.first ?? "NSObject"
                    let archivedClass = ArchivedClass(uid: uid, name: name, chain: chain.isEmpty ? [name] : chain)
                    let decoderName = ArchivedContentDecoder.decoderName(for: archivedClass)
                    classes[uid] = (archivedClass, decoderName.flatMap { ArchivedContentDecoder.decoders[$0] }, decoderName)
                } else {
                    guard archiver.objects.count == before else { return nil }
                }
                var fields: [ArchivedField] = []
                fields.reserveCapacity(pairs.count)
                for (key, value) in pairs {
                    // `KeyedArchiveWriter.escape`, then `KeyedArchiveDecoding.unescape`: the key.
                    fields.append(ArchivedField(key: key, value: Self.field(value)))
                }
                built.append(.object(classUID: uid, fields: fields))
            }
        }
        let before = archiver.objects.count
        let topEntries = archiver.topEntries()
        guard archiver.objects.count == before else { return nil }
        let total = archiver.objects.count
        guard total <= options.propertyList.maximumObjectCount else { return nil }
        let top = topEntries.map { ArchivedField(key: $0.0, value: Self.field($0.1)) }
        guard let objects = Self.reachableObjects(built, top: top, classes: classes, total: total, options: options) else { return nil }
        var archive = KeyedArchive(archiver: "NSArchiver", version: stream.header.systemVersion, top: top,
                                   root: KeyedArchiveDecoding.root(of: top, preferring: options.topKey), objects: objects, plist: .null)
        archive.plistSource = PlistSource(keyedFormOf: stream)
        archive.typedStream = stream
        return archive
    }

    /// The class of each class description, by its UID, as `classes` holds it.
    typealias ClassTable = [Int: (archivedClass: ArchivedClass, decoder: ArchivedContentDecoder.Decoder?, decoderName: String?)]

    /// `KeyedArchiveDecoding.decodeReachable` of the keyed form whose stream objects are
    /// `built` (object *n* at UID *n* + 1), whose class descriptions are `classes` and whose
    /// `$objects` has `total` entries: the same walk from `top`, the same depth; nil where it
    /// gives up. `TypedStreamValueTable.archive(options:)` ends with it too.
    static func reachableObjects(_ built: [Built], top: [ArchivedField], classes: ClassTable, total: Int,
                                 options: KeyedArchiveReadOptions) -> [ArchivedObject?]? {
        let count = built.count
        var objects = [ArchivedObject?](unsafeUninitializedCapacity: total) { buffer, initialized in
            buffer.initialize(repeating: nil)
            initialized = buffer.count
        }
        var pending: [(uid: Int, depth: Int)] = []
        func push(_ value: ArchivedValue, depth: Int, into pending: inout [(uid: Int, depth: Int)]) {
            switch value {
            case .object(let uid): pending.append((uid, depth))
            case .array(let elements):
                for i in elements.indices.reversed() { push(elements[i], depth: depth, into: &pending) }
            case .null, .inline: break
            }
        }
        for f in top.reversed() { push(f.value, depth: 0, into: &pending) }
        var visited = [Bool](repeating: false, count: total)
        let noObjects = RawObjects([])
        while let (uid, depth) = pending.popLast() {
            guard !visited[uid] else { continue }
            visited[uid] = true
            // Past the depth limit, and any reference to what is not a stream object (a class
            // description): the decoder's own path says what it is.
            guard depth < options.maximumDepth, uid >= 1, uid <= count else { return nil }
            guard let object = decodedObject(uid, built[uid - 1], classes: classes, noObjects: noObjects) else { return nil }
            for i in object.fields.indices.reversed() { push(object.fields[i].value, depth: depth + 1, into: &pending) }
            objects[uid] = object
        }
        return objects
    }

    /// `KeyedArchiveDecoding.decodeObject` of the object's keyed form; nil where its content
    /// decoder would read another object's keyed form.
    static func decodedObject(_ uid: Int, _ built: Built, classes: ClassTable, noObjects: RawObjects) -> ArchivedObject? {
        switch built {
        case .inline(let value):
            switch value {
            case .string(let s): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .string(s))
            case .integer, .real, .bool: return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .number(value))
            case .data(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .data(d))
            case .date(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .date(d))
            default: return nil
            }
        case .decoded(let classUID, let fields, let content):
            guard let known = classes[classUID] else { return nil }
            return ArchivedObject(uid: uid, archivedClass: known.archivedClass, fields: fields, content: content)
        case .object(let classUID, let fields):
            guard let known = classes[classUID] else { return nil }
            var object = ArchivedObject(uid: uid, archivedClass: known.archivedClass, fields: fields, content: .object)
            if let decoder = known.decoder {
                // The collections' decoders take their lists of references as they are, and look
                // up only an `NS.objects` or `NS.keys` that is itself a reference; every other
                // decoder may look any reference up in the keyed form, which is not made here.
                let collection = Self.collectionDecoders.contains(known.decoderName ?? "")
                for field in fields {
                    switch field.value {
                    case .object where !collection || field.key == "NS.objects" || field.key == "NS.keys": return nil
                    case .array where !collection: return nil
                    default: continue
                    }
                }
                object.content = decoder(ArchivedContentDecoder(raw: noObjects, object: object)) ?? .object
            }
            return object
        }
    }

    /// Decoders that read `NS.objects` and `NS.keys` as lists of references without looking the
    /// references up (`ArchivedContentDecoder.references` of an array).
    static let collectionDecoders: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSDictionary", "NSMutableDictionary"]

    /// `KeyedArchiveDecoding.field` of a value of the keyed form, whose references are all to
    /// objects it has: UIDs become references, UID 0 null; an array holding UIDs becomes a list
    /// of references, one level deep.
    static func field(_ value: PropertyListValue) -> ArchivedValue {
        switch value {
        case .uid(let u):
            return u == 0 ? .null : .object(uid: Int(u))
        case .array(let elements):
            guard elements.contains(where: { if case .uid = $0 { true } else { false } }) else { return .inline(value) }
            return .array(elements.map { element in
                if case .array = element { return .inline(element) }
                return field(element)
            })
        default:
            return .inline(value)
        }
    }
}
