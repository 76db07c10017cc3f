import Foundation
@_spi(Writers) import PropertyList

extension KeyedArchiveJSONExporter {
    /// `write(_:chunkSize:to:)` of the archive `table` reads, written from the table without
    /// decoding its objects: the same bytes, handed to `emit` the same way.
    ///
    /// It takes the compact form (`omitsDefaultMembers`) of an archive whose every decoded object
    /// the table describes (`KeyedArchiveObjectTable.Content`), with no field holding more than
    /// references and scalars, and URLs without a base. It looks at every object before writing
    /// anything, so false means nothing was handed on: the caller then decodes the archive and
    /// writes it the ordinary way.
    ///
    /// - Throws: `PropertyListError` as `write(_:chunkSize:to:)` throws it.
    public func write(_ table: KeyedArchiveObjectTable, chunkSize: Int = 1 << 20,
                       to emit: (UnsafeRawBufferPointer) -> Void) throws(PropertyListError) -> Bool {
        guard omitsDefaultMembers else { return false }
        return try table.withReader { (reader) throws(PropertyListError) -> Bool in
            guard TableDocumentWriter.describesEveryObject(of: table, reader: &reader) else { return false }
            try writeDocument(chunkSize: chunkSize, to: emit) { (emitter, drain) throws(PropertyListError) in
                var writer = TableDocumentWriter(exporter: self, table: table, drain: drain, chunkSize: max(chunkSize, 1))
                try writer.writeDocument(level: 0, reader: &reader, into: &emitter)
            }
            return true
        }
    }

    /// `DocumentWriter` over a `KeyedArchiveObjectTable`, compact form only: each function
    /// writes what its counterpart there writes for the decoded object.
    struct TableDocumentWriter {
        let exporter: KeyedArchiveJSONExporter
        let table: KeyedArchiveObjectTable
        let drain: (UnsafeRawBufferPointer) -> Void
        let chunkSize: Int
        var parts = RepeatedParts()

        /// Whether the table describes every object the decoder decodes, in what the document
        /// shows of it.
        static func describesEveryObject(of table: KeyedArchiveObjectTable, reader: inout KeyedArchiveObjectTable.Reader) -> Bool {
            for uid in 0..<table.count where reader.slots[uid] != KeyedArchiveClassIndex.notDecoded {
                switch reader.content(of: uid) {
                case .undecoded, .notDecoded:
                    return false
                case .url(let base, let relative):
                    // `absolute` of a URL with a base needs the bases resolved.
                    guard case .null = base, reader.withUTF8(of: relative, { _ in true }) == true else { return false }
                default:
                    break
                }
                if reader.slots[uid] >= 0, reader.hasCollectionField(uid) { return false }
            }
            return true
        }

        /// `DocumentWriter.writeDocument`.
        mutating func writeDocument(level: Int, reader: inout KeyedArchiveObjectTable.Reader, into e: inout JSONEmitter) throws(PropertyListError) {
            try DocumentWriter.writeHead(archiver: table.archiver, version: 100_000, top: table.top, root: table.root, level: level, into: &e)
            e.writeKey("objects", first: false, level: level + 1)
            try writeObjects(level: level + 1, reader: &reader, into: &e)
            e.writeKey("classes", first: false, level: level + 1)
            parts.writeClassCounts(level: level + 1, into: &e)
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// `DocumentWriter.writeObjects`: every decoded object, in UID order.
        mutating func writeObjects(level: Int, reader: inout KeyedArchiveObjectTable.Reader, into e: inout JSONEmitter) throws(PropertyListError) {
            var first = true
            for uid in 0..<table.count where reader.slots[uid] != KeyedArchiveClassIndex.notDecoded {
                if first { e.out.append(UInt8(ascii: "[")) }
                e.writeSeparator(first: first, level: level + 1)
                first = false
                try writeObject(uid, level: level + 1, reader: &reader, into: &e)
                e.out.drain(ifAtLeast: chunkSize, to: drain)
            }
            if first {
                e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level)
            } else {
                e.newline(level)
                e.out.append(UInt8(ascii: "]"))
            }
        }

        /// `DocumentWriter.writeObject` without default members.
        mutating func writeObject(_ uid: Int, level: Int, reader: inout KeyedArchiveObjectTable.Reader, into e: inout JSONEmitter) throws(PropertyListError) {
            let inner = level + 1
            e.out.append(UInt8(ascii: "{"))
            e.writeKey("uid", first: true, level: inner)
            e.out.appendDecimal(uid)
            let slot = reader.slots[uid]
            if let archivedClass = reader.archivedClass(uid) {
                parts.writeCompactClassPart(archivedClass: archivedClass, slot: Int(slot), level: inner, into: &e)
            } else {
                let name = KeyedArchiveClassIndex.inlineClassName(slot)
                parts.writeClassPart(archivedClass: nil, inlineName: name, readableName: name, compact: true, level: inner, into: &e)
            }
            let content = reader.content(of: uid)
            switch content {
            case .string:
                DocumentWriter.writeKind("string", level: inner, into: &e)
                e.writeKey("value", first: false, level: inner)
                _ = reader.withUTF8(ofElement: uid) { e.writeString(utf8: $0) }
            case .number:
                let n = reader.element(uid)
                try DocumentWriter.writeCompactNumber(n, level: inner, into: &e)
            case .date:
                guard case .date(let date) = reader.element(uid) else { break }
                try writeDate(date, level: inner, into: &e)
            case .dateObject(let date):
                try writeDate(date, level: inner, into: &e)
            case .array(let range), .set(let range):
                let isSet = if case .set = content { true } else { false }
                DocumentWriter.writeKind(isSet ? "set" : "array", level: inner, into: &e)
                // The value is left to the fields when one `NS.objects` holds the references; an
                // empty one the decoder keeps inline, not as references (`valueIsFields`).
                if range.isEmpty || reader.referenceListFieldCounts(uid).objects != 1 {
                    e.writeKey("value", first: false, level: inner)
                    writeReferences(range, level: inner, reader: reader, into: &e)
                }
            case .dictionary(let keys, let values):
                DocumentWriter.writeKind("dictionary", level: inner, into: &e)
                let counts = reader.referenceListFieldCounts(uid)
                if keys.isEmpty || counts.objects != 1 || counts.keys != 1 {
                    e.writeKey("value", first: false, level: inner)
                    writePairs(keys, values, level: inner, reader: reader, into: &e)
                }
            case .url(let base, let relative):
                DocumentWriter.writeKind("url", level: inner, into: &e)
                e.writeKey("value", first: false, level: inner)
                e.out.append(UInt8(ascii: "{"))
                e.writeKey("base", first: true, level: inner + 1)
                try writeField(base, level: inner + 1, reader: &reader, into: &e)
                e.writeKey("relative", first: false, level: inner + 1)
                try writeField(relative, level: inner + 1, reader: &reader, into: &e)
                e.writeKey("absolute", first: false, level: inner + 1)
                // Without a base, the relative string (`describesEveryObject` saw one).
                if reader.withUTF8(of: relative, { e.writeString(utf8: $0) }) == nil { e.out.append("null") }
                e.newline(inner)
                e.out.append(UInt8(ascii: "}"))
            case .null:
                // Compact: no value, as for every null content.
                DocumentWriter.writeKind("null", level: inner, into: &e)
            case .uuid(let uuid):
                DocumentWriter.writeKind("uuid", level: inner, into: &e)
                e.writeKey("value", first: false, level: inner)
                e.writeString(uuid.uppercaseText)
            case .data:
                guard case .data(let data) = reader.element(uid) else { break }
                DocumentWriter.writeKind("data", level: inner, into: &e)
                let (payload, expanded) = exporter.nestedPayload(data, nesting: 0)
                e.writeKey("value", first: false, level: inner)
                try DocumentWriter.writePlist(.data(data), level: inner, into: &e)
                try DocumentWriter.writeNested(payload, expanded: expanded, level: inner, into: &e)
            case .undecoded, .notDecoded:
                // `describesEveryObject` let none of these through.
                break
            }
            if slot >= 0 {
                var first = true
                for i in reader.entries(of: uid) {
                    guard let (key, keyIndex, value) = reader.field(at: i) else { continue }
                    if first {
                        e.writeKey("fields", first: false, level: inner)
                        e.out.append(UInt8(ascii: "{"))
                    }
                    parts.writeFieldKey(key, index: keyIndex, first: first, level: inner + 1, into: &e)
                    first = false
                    try writeField(value, level: inner + 1, reader: &reader, into: &e)
                }
                if !first {
                    e.newline(inner)
                    e.out.append(UInt8(ascii: "}"))
                }
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// A date's `kind`, `value` and `iso8601`.
        func writeDate(_ date: Date, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            DocumentWriter.writeKind("date", level: level, into: &e)
            e.writeKey("value", first: false, level: level)
            try DocumentWriter.writePlist(.date(date), level: level, into: &e)
            e.writeKey("iso8601", first: false, level: level)
            DocumentWriter.writeISOText(date, into: &e)
        }

        /// `DocumentWriter.writeValue` of a field: null, a reference, a list of references, or a
        /// scalar read from the file.
        func writeField(_ field: KeyedArchiveObjectTable.Field, level: Int, reader: inout KeyedArchiveObjectTable.Reader,
                        into e: inout JSONEmitter) throws(PropertyListError) {
            switch field {
            case .null:
                e.out.append("null")
            case .object(let uid):
                DocumentWriter.writeReference(uid, separated: false, first: false, level: level, into: &e)
            case .references(let range):
                writeReferences(range, level: level, reader: reader, into: &e)
            case .scalar(let index):
                try DocumentWriter.writePlist(reader.fileScalar(index), level: level, into: &e)
            case .collection:
                // `describesEveryObject` let no such field through.
                e.out.append("null")
            }
        }

        /// `DocumentWriter.writeValues` of references: `{"$ref": uid}` each, UID 0 as null.
        func writeReferences(_ range: Range<Int>, level: Int, reader: KeyedArchiveObjectTable.Reader, into e: inout JSONEmitter) {
            let uids = reader.uids
            DocumentWriter.writeReferences(range.lazy.map { Int(uids[$0]) }, level: level, into: &e)
        }

        /// `DocumentWriter.writePairs` of references: `[[key, value], …]`.
        func writePairs(_ keys: Range<Int>, _ values: Range<Int>, level: Int, reader: KeyedArchiveObjectTable.Reader,
                        into e: inout JSONEmitter) {
            let count = keys.count
            guard count > 0 else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            let uids = reader.uids
            e.out.append(UInt8(ascii: "["))
            for n in 0..<count {
                e.writeSeparator(first: n == 0, level: level + 1)
                e.out.append(UInt8(ascii: "["))
                for (i, uid) in [Int(uids[keys.lowerBound + n]), Int(uids[values.lowerBound + n])].enumerated() {
                    e.writeSeparator(first: i == 0, level: level + 2)
                    if uid != 0 {
                        DocumentWriter.writeReference(uid, separated: false, first: false, level: level + 2, into: &e)
                    } else {
                        e.out.append("null")
                    }
                }
                e.newline(level + 1)
                e.out.append(UInt8(ascii: "]"))
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }
    }
}
