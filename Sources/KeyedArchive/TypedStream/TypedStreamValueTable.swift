import Foundation
@_spi(Writers) import PropertyList
import TypedStream

/// The objects of a typedstream of Foundation's value classes as `TypedStreamDirectReader`
/// reads them straight from its bytes: each object's kind and where its values lie in the
/// input, the references of arrays and dictionaries, and the stream's classes. Nothing is
/// decoded or copied.
///
/// The JSON writers write from it object by object (`KeyedArchiveJSONExporter.write(_:chunkSize:to:)`
/// of a table, and the payload's), so that no decoded object is made: the same bytes as
/// writing the archive `archive(options:)` gives, which is the archive `KeyedArchive(data:)`
/// decodes from the stream.
package struct TypedStreamValueTable {
    /// The stream's bytes, which the ranges below index.
    package let source: Data
    package let header: TypedStreamHeader
    /// The root's stream object number; -1 for nil.
    package let root: Int32
    /// Each stream object, in the order the stream introduces them: object *n* has UID *n* + 1
    /// in the keyed form. Kept compact; `object(_:)` gives each as an `Entry`.
    let storedObjects: [TypedStreamStoredEntry]
    /// The objects arrays and dictionaries refer to, as stream object numbers (-1: nil).
    package let elements: [Int32]
    /// The components of every color, as read (floats made doubles).
    package let components: [Double]
    package let classes: [StreamClass]
    /// The class descriptions of the keyed form, in the order objects first need them (UIDs
    /// from `objects.count + 1` on, one per chain of names); and each stream class's index
    /// among them (-1 when no object has it).
    package let descriptions: [Description]
    package let descriptionOfClass: [Int32]

    /// A stream object, as far as its keyed form needs it.
    package enum Entry {
        case pending
        case string(Range<Int>)
        case mutableString(classIndex: Int, Range<Int>)
        case number(PropertyListValue)
        case date(classIndex: Int, Double)
        case data(Range<Int>)
        case mutableData(classIndex: Int, Range<Int>)
        case array(classIndex: Int, Range<Int>)
        case dictionary(classIndex: Int, keys: Range<Int>, values: Range<Int>)
        /// Its components, as a range of `components`.
        case color(classIndex: Int, kind: Int64, components: Range<Int>)
    }

    package struct StreamClass {
        var name: Range<Int>
        var version: Int
        var superclass: Int?
        /// What its objects are, worked out the first time one is read.
        var kind: Kind?
    }

    /// The classes `TypedStreamDirectReader` reads, by their exact chain of names.
    package enum Kind {
        case string, mutableString, number, date, data, mutableData, array, dictionary, color
        case other
    }

    /// A class description of the keyed form.
    package struct Description {
        package let archivedClass: ArchivedClass
        /// `ArchivedContentDecoder.decoderName(for:)` of it.
        package let decoderName: String?
    }

    init(source: Data, header: TypedStreamHeader, root: Int32, objects: [TypedStreamStoredEntry], elements: [Int32], components: [Double], classes: [StreamClass]) {
        self.source = source
        self.components = components
        self.header = header
        self.root = root
        storedObjects = objects
        self.elements = elements
        self.classes = classes
        // Class descriptions follow `$null` and the stream's objects, in the order objects first
        // need them, one per chain of names.
        var descriptions: [Description] = []
        var descriptionOfClass = [Int32](repeating: -1, count: classes.count)
        var byChain: [[String]: Int32] = [:]
        for stored in objects {
            guard let index = stored.entry.classIndex, descriptionOfClass[index] < 0 else { continue }
            let chain = source.withUnsafeBytes { Self.chain(ofClass: index, classes: classes, bytes: $0) }
            if let shared = byChain[chain] {
                descriptionOfClass[index] = shared
                continue
            }
            let name = chain.first ?? "NSObject"
            let archivedClass = ArchivedClass(uid: objects.count + 1 + descriptions.count, name: name, chain: chain.isEmpty ? [name] : chain)
            byChain[chain] = Int32(descriptions.count)
            descriptionOfClass[index] = Int32(descriptions.count)
            descriptions.append(Description(archivedClass: archivedClass, decoderName: ArchivedContentDecoder.decoderName(for: archivedClass)))
        }
        self.descriptions = descriptions
        self.descriptionOfClass = descriptionOfClass
    }

    /// The entries of the keyed form's `$objects`: `$null`, the stream's objects, the class
    /// descriptions.
    package var total: Int { objectCount + 1 + descriptions.count }

    /// How many objects the stream has.
    package var objectCount: Int { storedObjects.count }

    /// Stream object `number`.
    @inline(__always)
    package func object(_ number: Int) -> Entry { storedObjects[number].entry }

    /// The class description of an object of stream class `index`.
    package func description(ofClass index: Int) -> Description {
        descriptions[Int(descriptionOfClass[index])]
    }

    /// A class's names, most derived first (`TypedStream.classChain(ofClass:)`).
    static func chain(ofClass start: Int, classes: [StreamClass], bytes: UnsafeRawBufferPointer) -> [String] {
        var names: [String] = []
        var next: Int? = start
        while let index = next, index < classes.count, names.count <= classes.count {
            names.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[classes[index].name]), as: UTF8.self))
            next = classes[index].superclass
        }
        return names
    }

    /// The stream's header and classes, without its objects and groups: what the compact
    /// `typedStream` member of the JSON shows.
    package var streamWithoutObjects: TypedStream {
        TypedStream(header: header, contents: [], objects: [], classes: classes.map { streamClass in
            TypedStreamClass(name: string(streamClass.name), version: streamClass.version, superclass: streamClass.superclass)
        })
    }

    /// The root as the keyed form's `$top` holds it.
    package var top: [ArchivedField] {
        [ArchivedField(key: "root", value: root < 0 ? .null : .object(uid: Int(root) + 1))]
    }

    // MARK: Values

    /// The bytes of `range` as data: small ones copied, larger ones referring to `source`,
    /// which they keep.
    package func data(_ range: Range<Int>) -> Data {
        source.withUnsafeBytes { bytes in
            guard range.count > 256, let base = bytes.baseAddress else { return Data(UnsafeRawBufferPointer(rebasing: bytes[range])) }
            let source = self.source
            return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base + range.lowerBound), count: range.count,
                        deallocator: .custom { _, _ in withExtendedLifetime(source) {} })
        }
    }

    package func string(_ range: Range<Int>) -> String {
        source.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// What `ArchivedColorDecoder.decode` gives for an NSColor of `kind` whose components
    /// read back as `values` (as many as `colorText` wrote).
    static func color(kind: Int64, _ values: UnsafeBufferPointer<Double>) -> ArchivedColor? {
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

    /// How many components an NSColor of `kind` (1 to 5) writes: RGB four, white two, CMYK five.
    static func colorComponentCount(kind: Int64) -> Int {
        kind <= 2 ? 4 : kind <= 4 ? 2 : 5
    }

    /// A string object's text as its decoded string is written: UTF-8 as it is, anything else
    /// through `String(decoding:as:)`, which repairs it. Both JSON writers of the table use it.
    package static func writeString(_ range: Range<Int>, bytes: UnsafeRawBufferPointer, into e: inout JSONEmitter) {
        let text = UnsafeRawBufferPointer(rebasing: bytes[range]).assumingMemoryBound(to: UInt8.self)
        if text.allSatisfy({ $0 < 0x80 }) { return e.writeString(utf8: text) }
        e.writeString(String(decoding: text, as: UTF8.self))
    }

    /// The key of a color's components in its keyed form.
    package static func colorKey(kind: Int64) -> String {
        kind <= 2 ? "NSRGB" : kind <= 4 ? "NSWhite" : "NSCMYK"
    }

    // MARK: The decoder

    /// The content decoders whose content the table's writers write for each kind of object,
    /// by the name `ArchivedContentDecoder.decoderName(for:)` gives.
    static let decoders: [Kind: Set<String>] = [
        .mutableString: ["NSString", "NSMutableString"],
        .date: ["NSDate"],
        .mutableData: ["NSData", "NSMutableData"],
        .array: ["NSArray", "NSMutableArray"],
        .dictionary: ["NSDictionary", "NSMutableDictionary"],
        .color: ["NSColor"],
    ]

    /// Whether the decoded archive (`archive(options:)`) has every object of the table, each
    /// with the content the table's writers write for it: the walk takes them all
    /// (`walkable(options:)`), each class has the content decoder its kind expects, and every
    /// color decodes.
    package func decodesAsWritten(options: KeyedArchiveReadOptions) -> Bool {
        guard walkable(options: options) else { return false }
        for (index, streamClass) in classes.enumerated() where descriptionOfClass[index] >= 0 {
            guard let kind = streamClass.kind, let names = Self.decoders[kind],
                  let name = description(ofClass: index).decoderName, names.contains(name) else { return false }
        }
        var cache = TypedStreamColorComponents()
        for stored in storedObjects {
            guard case .color(_, let kind, let range) = stored.entry else { continue }
            guard cache.decodedColor(kind: kind, components[range]) != nil else { return false }
        }
        return true
    }

    // MARK: The walk

    /// Whether the decoder's walk from `$top` (`TypedStreamObjectBuilder.reachableObjects`)
    /// takes every object within `options`' limits: the keyed form has no more entries than
    /// `maximumObjectCount`, no object is first reached `maximumDepth` references deep, and
    /// every object is one the walk decodes.
    package func walkable(options: KeyedArchiveReadOptions) -> Bool {
        guard total <= options.propertyList.maximumObjectCount, root < objectCount else { return false }
        guard root >= 0 else { return true }
        var visited = [Bool](repeating: false, count: objectCount)
        // The same order as the decoder's walk: fields last to first, elements last to first.
        var pending: [(number: Int32, depth: Int32)] = [(root, 0)]
        while let (number, depth) = pending.popLast() {
            let index = Int(number)
            guard !visited[index] else { continue }
            visited[index] = true
            guard depth < options.maximumDepth else { return false }
            switch object(index) {
            case .pending:
                return false
            case .array(_, let range):
                for i in range.reversed() where elements[i] >= 0 { pending.append((elements[i], depth + 1)) }
            case .dictionary(_, let keys, let values):
                for i in values.reversed() where elements[i] >= 0 { pending.append((elements[i], depth + 1)) }
                for i in keys.reversed() where elements[i] >= 0 { pending.append((elements[i], depth + 1)) }
            default:
                break
            }
        }
        // An object no walk reaches is not in the decoded archive (none is, in a stream read
        // whole, but the writers list every object).
        return !visited.contains(false)
    }
}

extension TypedStreamValueTable.Entry {
    /// The stream class of an object that is not inline in the keyed form.
    var classIndex: Int? {
        switch self {
        case .mutableString(let index, _), .date(let index, _), .mutableData(let index, _), .array(let index, _),
             .dictionary(let index, _, _), .color(let index, _, _):
            index
        case .pending, .string, .number, .data:
            nil
        }
    }
}
