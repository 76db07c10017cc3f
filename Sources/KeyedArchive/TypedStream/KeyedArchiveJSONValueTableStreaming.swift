import Foundation
@_spi(Writers) import PropertyList

extension KeyedArchiveJSONExporter {
    /// `write(_:chunkSize:to:)` of the archive `table.archive(options:)` gives, written from
    /// the table object by object without decoding any: the same bytes, handed to `emit` the
    /// same way.
    ///
    /// It takes the compact form (`omitsDefaultMembers`) of a table whose objects the decoder
    /// takes as they were read (`TypedStreamValueTable.decodesAsWritten(options:)`). It looks
    /// at every object before writing anything, so false means nothing was handed on: the
    /// caller then writes the decoded archive.
    ///
    /// - Throws: `PropertyListError` as `write(_:chunkSize:to:)` throws it.
    package func write(_ table: TypedStreamValueTable, options: KeyedArchiveReadOptions, chunkSize: Int = 1 << 20,
                       to emit: (UnsafeRawBufferPointer) -> Void) throws(PropertyListError) -> Bool {
        guard omitsDefaultMembers, table.decodesAsWritten(options: options) else { return false }
        try writeDocument(chunkSize: chunkSize, to: emit) { (emitter, drain) throws(PropertyListError) in
            var writer = ValueTableDocumentWriter(table: table, exporter: self, drain: drain, chunkSize: max(chunkSize, 1))
            // `withUnsafeBytes` rethrows untyped: the error is carried out as a value.
            let failure = table.source.withUnsafeBytes { bytes -> PropertyListError? in
                do throws(PropertyListError) {
                    try writer.writeDocument(level: 0, bytes: bytes, into: &emitter)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
        return true
    }

    /// `DocumentWriter` over a `TypedStreamValueTable`, compact form only: each object written
    /// as `DocumentWriter.writeObject` writes the object the decoder makes of it.
    struct ValueTableDocumentWriter {
        /// The class parts and field keys every object repeats, and the class counts.
        var parts = RepeatedParts()
        let table: TypedStreamValueTable
        let exporter: KeyedArchiveJSONExporter
        /// Where finished objects go, once the output passes `chunkSize`.
        let drain: (UnsafeRawBufferPointer) -> Void
        let chunkSize: Int
        /// Color components' texts and values, worked out once per component.
        var colorComponents = TypedStreamColorComponents()
        /// A color's components' text, made again for each color.
        var colorText: [UInt8] = []

        /// `DocumentWriter.writeDocument`.
        mutating func writeDocument(level: Int, bytes: UnsafeRawBufferPointer, into e: inout JSONEmitter) throws(PropertyListError) {
            let top = table.top
            try DocumentWriter.writeHead(archiver: "NSArchiver", version: table.header.systemVersion, top: top,
                                         root: KeyedArchiveDecoding.root(of: top, preferring: "root"), level: level, into: &e)
            e.writeKey("objects", first: false, level: level + 1)
            try writeObjects(level: level + 1, bytes: bytes, into: &e)
            e.writeKey("classes", first: false, level: level + 1)
            parts.writeClassCounts(level: level + 1, into: &e)
            e.writeKey("typedStream", first: false, level: level + 1)
            try e.write(TypedStreamJSON.member(table.streamWithoutObjects, withGroups: false), level: level + 1)
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// `DocumentWriter.writeObjects`: every object, in UID order.
        mutating func writeObjects(level: Int, bytes: UnsafeRawBufferPointer, into e: inout JSONEmitter) throws(PropertyListError) {
            guard table.objectCount > 0 else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            e.out.append(UInt8(ascii: "["))
            for number in 0 ..< table.objectCount {
                e.writeSeparator(first: number == 0, level: level + 1)
                try writeObject(number, level: level + 1, bytes: bytes, into: &e)
                e.out.drain(ifAtLeast: chunkSize, to: drain)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        /// `DocumentWriter.writeObject` of stream object `number` (UID `number + 1`), without
        /// default members.
        mutating func writeObject(_ number: Int, level: Int, bytes: UnsafeRawBufferPointer, into e: inout JSONEmitter) throws(PropertyListError) {
            let inner = level + 1
            e.out.append(UInt8(ascii: "{"))
            e.writeKey("uid", first: true, level: inner)
            e.out.appendDecimal(number + 1)
            let entry = table.object(number)
            // By stream class: the class is looked up only the first time.
            if let classIndex = entry.classIndex, !parts.appendKnownCompactClassPart(slot: classIndex, into: &e) {
                parts.writeCompactClassPart(archivedClass: table.description(ofClass: classIndex).archivedClass, slot: classIndex, level: inner, into: &e)
            }
            switch entry {
            case .pending:
                // `decodesAsWritten` let none through.
                break
            case .string(let range):
                parts.writeCompactClassPart(archivedClass: nil, inlineName: "NSString", level: inner, into: &e)
                DocumentWriter.writeKind("string", level: inner, into: &e)
                e.writeKey("value", first: false, level: inner)
                TypedStreamValueTable.writeString(range, bytes: bytes, into: &e)
            case .mutableString(_, let range):
                DocumentWriter.writeKind("string", level: inner, into: &e)
                e.writeKey("value", first: false, level: inner)
                TypedStreamValueTable.writeString(range, bytes: bytes, into: &e)
                openFields(with: .string, level: inner, into: &e)
                TypedStreamValueTable.writeString(range, bytes: bytes, into: &e)
                Self.closeFields(level: inner, into: &e)
            case .number(let n):
                parts.writeCompactClassPart(archivedClass: nil, inlineName: "NSNumber", level: inner, into: &e)
                try DocumentWriter.writeCompactNumber(n, level: inner, into: &e)
            case .date(_, let seconds):
                let date = Date(timeIntervalSinceReferenceDate: seconds)
                DocumentWriter.writeKind("date", level: inner, into: &e)
                e.writeKey("value", first: false, level: inner)
                // `writePlist(.date(date))`, whose real is written once and copied for `NS.time`.
                e.out.append(UInt8(ascii: "{"))
                e.writeKey("$date", first: true, level: inner + 1)
                let realStart = e.out.length
                DocumentWriter.writeReal(seconds, level: inner + 1, into: &e)
                let real = realStart..<e.out.length
                e.newline(inner)
                e.out.append(UInt8(ascii: "}"))
                e.writeKey("iso8601", first: false, level: inner)
                DocumentWriter.writeISOText(date, into: &e)
                openFields(with: .time, level: inner, into: &e)
                if seconds.isFinite {
                    e.out.appendCopy(of: real)
                } else {
                    DocumentWriter.writeReal(seconds, level: inner + 1, into: &e)
                }
                Self.closeFields(level: inner, into: &e)
            case .data(let range):
                parts.writeCompactClassPart(archivedClass: nil, inlineName: "NSData", level: inner, into: &e)
                try writeData(range, bytes: bytes, level: inner, into: &e)
            case .mutableData(_, let range):
                try writeData(range, bytes: bytes, level: inner, into: &e)
                openFields(with: .data, level: inner, into: &e)
                Self.writeTaggedData(UnsafeRawBufferPointer(rebasing: bytes[range]), level: inner + 1, into: &e)
                Self.closeFields(level: inner, into: &e)
            case .array(_, let range):
                openCollection(kind: "array", isEmpty: range.isEmpty, firstKey: .objects, level: inner, into: &e)
                writeReferences(range, level: inner + 1, into: &e)
                Self.closeFields(level: inner, into: &e)
            case .dictionary(_, let keys, let values):
                openCollection(kind: "dictionary", isEmpty: keys.isEmpty, firstKey: .keys, level: inner, into: &e)
                writeReferences(keys, level: inner + 1, into: &e)
                writeFieldKey(.objects, first: false, level: inner + 1, into: &e)
                writeReferences(values, level: inner + 1, into: &e)
                Self.closeFields(level: inner, into: &e)
            case .color(_, let kind, let range):
                let components = table.components[range]
                // `decodesAsWritten` saw that every color decodes.
                if let color = colorComponents.decodedColor(kind: kind, components) {
                    DocumentWriter.writeKind("color", level: inner, into: &e)
                    e.writeKey("value", first: false, level: inner)
                    writeColor(color, level: inner, into: &e)
                }
                openFields(with: .colorSpace, level: inner, into: &e)
                e.out.appendDecimal(Int(kind))
                writeFieldKey(kind <= 2 ? .rgb : kind <= 4 ? .white : .cmyk, first: false, level: inner + 1, into: &e)
                colorText.removeAll(keepingCapacity: true)
                colorComponents.appendText(of: components, to: &colorText)
                colorText.withUnsafeBytes { Self.writeTaggedData($0, level: inner + 1, into: &e) }
                Self.closeFields(level: inner, into: &e)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// The keys of the fields these objects have, by their index among the distinct keys
        /// (`RepeatedParts.writeFieldKey(_:index:first:level:into:)`).
        enum FieldKey: Int, CaseIterable {
            case string, time, data, objects, keys, colorSpace, rgb, white, cmyk

            var text: String {
                switch self {
                case .string: "NS.string"
                case .time: "NS.time"
                case .data: "NS.data"
                case .objects: "NS.objects"
                case .keys: "NS.keys"
                case .colorSpace: "NSColorSpace"
                case .rgb: "NSRGB"
                case .white: "NSWhite"
                case .cmyk: "NSCMYK"
                }
            }
        }

        mutating func writeFieldKey(_ key: FieldKey, first: Bool, level: Int, into e: inout JSONEmitter) {
            parts.writeFieldKey(key.text, index: key.rawValue, first: first, level: level, into: &e)
        }

        /// `"fields" : {` and the key of the first field.
        mutating func openFields(with firstKey: FieldKey, level: Int, into e: inout JSONEmitter) {
            e.writeKey("fields", first: false, level: level)
            e.out.append(UInt8(ascii: "{"))
            writeFieldKey(firstKey, first: true, level: level + 1, into: &e)
        }

        /// An array's or a dictionary's `kind`, its `value` when it is empty (an empty list is
        /// an inline empty array, which the value is not read from), and `fields` up to the key
        /// of its first list.
        mutating func openCollection(kind: StaticString, isEmpty: Bool, firstKey: FieldKey, level: Int, into e: inout JSONEmitter) {
            DocumentWriter.writeKind(kind, level: level, into: &e)
            if isEmpty {
                e.writeKey("value", first: false, level: level)
                e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level)
            }
            openFields(with: firstKey, level: level, into: &e)
        }

        /// The end of `"fields"`.
        static func closeFields(level: Int, into e: inout JSONEmitter) {
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// `DocumentWriter.writePlist` of data: `{"$data": base64}`.
        static func writeTaggedData(_ data: UnsafeRawBufferPointer, level: Int, into e: inout JSONEmitter) {
            e.out.append(UInt8(ascii: "{"))
            e.writeKey("$data", first: true, level: level + 1)
            e.writeData(bytes: data, level: level + 1)
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// A color's `value` as the emitter writes `KeyedArchiveJSONExporter.color(_:)`: its
        /// members in order, each real as `DocumentWriter.writeReal` writes it.
        mutating func writeColor(_ c: ArchivedColor, level: Int, into e: inout JSONEmitter) {
            e.out.append(UInt8(ascii: "{"))
            e.writeKey("red", first: true, level: level + 1)
            colorComponents.writeReal(c.red, level: level + 1, into: &e)
            e.writeKey("green", first: false, level: level + 1)
            colorComponents.writeReal(c.green, level: level + 1, into: &e)
            e.writeKey("blue", first: false, level: level + 1)
            colorComponents.writeReal(c.blue, level: level + 1, into: &e)
            e.writeKey("alpha", first: false, level: level + 1)
            colorComponents.writeReal(c.alpha, level: level + 1, into: &e)
            e.writeKey("space", first: false, level: level + 1)
            e.writeString(c.space.rawValue)
            if let white = c.white {
                e.writeKey("white", first: false, level: level + 1)
                colorComponents.writeReal(white, level: level + 1, into: &e)
            }
            if let name = c.name {
                e.writeKey("name", first: false, level: level + 1)
                e.writeString(name)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// A data object's `kind`, `value` and nested payload, as `DocumentWriter.writeOtherContent`
        /// writes them.
        func writeData(_ range: Range<Int>, bytes: UnsafeRawBufferPointer, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            DocumentWriter.writeKind("data", level: level, into: &e)
            let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
            // Identified without a copy; decoded (when expanding) from data that may outlive this.
            let data: Data
            if let base = slice.baseAddress, !exporter.nested.expands {
                data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: slice.count, deallocator: .none)
            } else {
                data = table.data(range)
            }
            let (payload, expanded) = exporter.nestedPayload(data, nesting: 0)
            e.writeKey("value", first: false, level: level)
            Self.writeTaggedData(slice, level: level, into: &e)
            try DocumentWriter.writeNested(payload, expanded: expanded, level: level, into: &e)
        }

        /// `DocumentWriter.writeValues` of a list of references: `{"$ref": uid}` each, nil as null.
        func writeReferences(_ range: Range<Int>, level: Int, into e: inout JSONEmitter) {
            // Stream object n is UID n + 1; nil (-1) becomes UID 0, written as null.
            let elements = table.elements
            DocumentWriter.writeReferences(range.lazy.map { Int(elements[$0]) + 1 }, level: level, into: &e)
        }
    }
}
