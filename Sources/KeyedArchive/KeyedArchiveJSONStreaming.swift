import Foundation
@_spi(Writers) import PropertyList

extension KeyedArchiveJSONExporter {
    /// Streams one document (an archive, or a nested archive inside it) as JSON.
    ///
    /// It writes exactly what `JSONPropertyListWriter` writes for `document(archive)`, piece
    /// by piece: the common kinds (strings, numbers, dates, arrays, dictionaries, references)
    /// are written directly, and anything rarer is built as a `PropertyListValue` with the
    /// same functions `document` uses and handed to the emitter. The class part of an object
    /// (`class` to `inline`) is the same for every object of a class, so it is rendered once,
    /// kept in `partText`, and copied from there for the others. With `drain`, the output is
    /// handed on between objects whenever it passes `chunkSize`.
    struct DocumentWriter {
        let exporter: KeyedArchiveJSONExporter
        let archive: KeyedArchive
        let nesting: Int
        /// The class parts and field keys every object repeats, rendered once, and the count of
        /// objects per class name (`"classes"`).
        var parts = RepeatedParts()
        /// Where finished objects go, a chunk at a time; nil keeps the whole output.
        var drain: ((UnsafeRawBufferPointer) -> Void)?
        var chunkSize = 1 << 20

        init(exporter: KeyedArchiveJSONExporter, archive: KeyedArchive, nesting: Int) {
            self.exporter = exporter
            self.archive = archive
            self.nesting = nesting
        }

        mutating func writeDocument(level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            try Self.writeHead(archiver: archive.archiver, version: archive.version, top: archive.top, root: archive.root, level: level, into: &e)
            e.writeKey("objects", first: false, level: level + 1)
            try writeObjects(level: level + 1, into: &e)
            e.writeKey("classes", first: false, level: level + 1)
            parts.writeClassCounts(level: level + 1, into: &e)
            if let stream = archive.typedStream {
                e.writeKey("typedStream", first: false, level: level + 1)
                try e.write(TypedStreamJSON.member(stream, withGroups: !exporter.omitsDefaultMembers), level: level + 1)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// The document's opening and its members before `"objects"`: `archiver`, `version`,
        /// `top` and `root`.
        static func writeHead(archiver: String, version: Int, top: [ArchivedField], root: ArchivedValue?, level: Int,
                              into e: inout JSONEmitter) throws(PropertyListError) {
            let inner = level + 1
            e.out.append(UInt8(ascii: "{"))
            e.writeKey("archiver", first: true, level: inner)
            e.writeString(archiver)
            e.writeKey("version", first: false, level: inner)
            e.out.appendDecimal(version)
            e.writeKey("top", first: false, level: inner)
            if top.isEmpty {
                e.writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: inner)
            } else {
                e.out.append(UInt8(ascii: "{"))
                for (i, field) in top.enumerated() {
                    e.writeKey(string: field.key, first: i == 0, level: inner + 1)
                    try writeValue(field.value, level: inner + 1, into: &e)
                }
                e.newline(inner)
                e.out.append(UInt8(ascii: "}"))
            }
            e.writeKey("root", first: false, level: inner)
            if let root {
                try writeValue(root, level: inner, into: &e)
            } else {
                e.out.append("null")
            }
        }

        /// `"objects"`: every decoded object, in UID order.
        mutating func writeObjects(level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            var first = true
            try archive.objects.withUnsafeBufferPointer { (objects) throws(PropertyListError) in
                for i in objects.indices {
                    guard let object = objects[i] else { continue }
                    if first { e.out.append(UInt8(ascii: "[")) }
                    e.writeSeparator(first: first, level: level + 1)
                    first = false
                    try writeObject(object, level: level + 1, into: &e)
                    e.out.drain(ifAtLeast: chunkSize, to: drain)
                }
            }
            if first {
                e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level)
            } else {
                e.newline(level)
                e.out.append(UInt8(ascii: "]"))
            }
        }

        // MARK: Objects

        mutating func writeObject(_ object: ArchivedObject, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            let inner = level + 1
            e.out.append(UInt8(ascii: "{"))
            e.writeKey("uid", first: true, level: inner)
            e.out.appendDecimal(object.uid)
            parts.writeClassPart(archivedClass: object.archivedClass, inlineName: object.className, readableName: object.readableClassName,
                                 compact: exporter.omitsDefaultMembers, level: inner, into: &e)
            // `kind`, `summary`, `value` and what follows them, for the common kinds in one
            // switch (each binding of the content is a copy); the others take the general path.
            let compact = exporter.omitsDefaultMembers
            switch object.content {
            case .string(let s):
                Self.writeKind("string", level: inner, into: &e)
                if !compact { Self.writeStringSummary(s, level: inner, into: &e) }
                e.writeKey("value", first: false, level: inner)
                e.writeString(s)
            case .number(let n):
                Self.writeKind("number", level: inner, into: &e)
                if !compact { Self.writeNumberSummary(n, level: inner, into: &e) }
                e.writeKey("value", first: false, level: inner)
                try Self.writePlist(n, level: inner, into: &e)
                if !compact || !KeyedArchiveJSONExporter.numberTypeIsImplied(n) {
                    e.writeKey("numberType", first: false, level: inner)
                    e.out.append(UInt8(ascii: "\""))
                    e.out.append(string: n.typeName)
                    e.out.append(UInt8(ascii: "\""))
                }
            case .date(let date):
                Self.writeKind("date", level: inner, into: &e)
                if compact {
                    e.writeKey("value", first: false, level: inner)
                    try Self.writePlist(.date(date), level: inner, into: &e)
                    e.writeKey("iso8601", first: false, level: inner)
                    Self.writeISOText(date, into: &e)
                } else {
                    e.writeKey("summary", first: false, level: inner)
                    let start = e.out.length
                    Self.writeISOText(date, into: &e)
                    let iso = start..<e.out.length
                    e.writeKey("value", first: false, level: inner)
                    try Self.writePlist(.date(date), level: inner, into: &e)
                    // The summary is the ISO 8601 text too.
                    e.writeKey("iso8601", first: false, level: inner)
                    e.out.appendCopy(of: iso)
                }
            case .array(let values), .set(let values):
                let isSet = if case .set = object.content { true } else { false }
                Self.writeKind(isSet ? "set" : "array", level: inner, into: &e)
                if !compact {
                    Self.writeCount(values.count, isSet ? "member" : "element", isSet ? "members" : "elements", level: inner, into: &e)
                }
                if !compact || !KeyedArchiveJSONExporter.valueIsFields(object) {
                    e.writeKey("value", first: false, level: inner)
                    try Self.writeValues(values, level: inner, into: &e)
                }
            case .dictionary(let keys, let values):
                Self.writeKind("dictionary", level: inner, into: &e)
                if !compact { Self.writeCount(keys.count, "entry", "entries", level: inner, into: &e) }
                if !compact || !KeyedArchiveJSONExporter.valueIsFields(object) {
                    e.writeKey("value", first: false, level: inner)
                    try Self.writePairs(keys, values, level: inner, into: &e)
                }
            default:
                try writeOtherContent(of: object, level: inner, into: &e)
            }
            let fields = object.fields
            if fields.isEmpty {
                if !compact {
                    e.writeKey("fields", first: false, level: inner)
                    e.writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: inner)
                }
            } else {
                e.writeKey("fields", first: false, level: inner)
                e.out.append(UInt8(ascii: "{"))
                for i in fields.indices {
                    parts.writeFieldKey(fields[i].key, first: i == 0, level: inner + 1, into: &e)
                    try Self.writeValue(fields[i].value, level: inner + 1, into: &e)
                }
                e.newline(inner)
                e.out.append(UInt8(ascii: "}"))
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "}"))
        }

        /// A number object's `kind`, `value` and, where its spelling does not say its type,
        /// `numberType`: what `writeObject` writes without default members.
        static func writeCompactNumber(_ n: PropertyListValue, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            writeKind("number", level: level, into: &e)
            e.writeKey("value", first: false, level: level)
            try writePlist(n, level: level, into: &e)
            if !KeyedArchiveJSONExporter.numberTypeIsImplied(n) {
                e.writeKey("numberType", first: false, level: level)
                e.out.append(UInt8(ascii: "\""))
                e.out.append(string: n.typeName)
                e.out.append(UInt8(ascii: "\""))
            }
        }

        static func writeKind(_ kind: StaticString, level: Int, into e: inout JSONEmitter) {
            e.writeKey("kind", first: false, level: level)
            e.out.append(UInt8(ascii: "\""))
            e.out.append(kind)
            e.out.append(UInt8(ascii: "\""))
        }

        /// `kind` to the entries after `value`, for the kinds `writeObject` leaves to the
        /// general functions (`summary(of:)`, `content(_:in:)`).
        func writeOtherContent(of object: ArchivedObject, level inner: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            e.writeKey("kind", first: false, level: inner)
            e.out.append(UInt8(ascii: "\""))
            e.out.append(string: KeyedArchiveJSONExporter.kind(object.content))
            e.out.append(UInt8(ascii: "\""))
            // Data is identified once, for both its summary and its nested payload.
            let compact = exporter.omitsDefaultMembers
            var nestedData: (payload: NestedPayload?, expanded: PropertyListValue?) = (nil, nil)
            if case .data(let data) = object.content {
                nestedData = exporter.nestedPayload(data, nesting: nesting)
                if !compact {
                    e.writeKey("summary", first: false, level: inner)
                    e.writeString(KeyedArchive.dataSummary(data, payload: nestedData.payload))
                }
            } else if !compact {
                writeSummary(of: object, level: inner, into: &e)
            }
            if !compact || !(KeyedArchiveJSONExporter.valueIsNull(object.content) || KeyedArchiveJSONExporter.valueIsFields(object)) {
                e.writeKey("value", first: false, level: inner)
                try writeContent(of: object, level: inner, into: &e)
            }
            switch object.content {
            case .number(let n):
                guard !compact || !KeyedArchiveJSONExporter.numberTypeIsImplied(n) else { break }
                e.writeKey("numberType", first: false, level: inner)
                e.out.append(UInt8(ascii: "\""))
                e.out.append(string: n.typeName)
                e.out.append(UInt8(ascii: "\""))
            case .date(let date):
                e.writeKey("iso8601", first: false, level: inner)
                Self.writeISOText(date, into: &e)
            case .data:
                try Self.writeNested(nestedData.payload, expanded: nestedData.expanded, level: inner, into: &e)
            default:
                break
            }
        }

        /// A data object's `nested` and `nestedKind`, when it holds a payload, and `expanded`,
        /// when that was decoded.
        static func writeNested(_ payload: NestedPayload?, expanded: PropertyListValue?, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            if let payload {
                e.writeKey("nested", first: false, level: level)
                e.writeString(payload.description)
                e.writeKey("nestedKind", first: false, level: level)
                e.writeString(payload.kind)
            }
            if let expanded {
                e.writeKey("expanded", first: false, level: level)
                try e.write(expanded, level: level)
            }
        }

        static func writeClassPart(name: String, readable: String, chain: [String], hints: [String], classUID: Int?,
                                   level: Int, into e: inout JSONEmitter) {
            e.writeKey("class", first: false, level: level)
            e.writeString(name)
            e.writeKey("readableClass", first: false, level: level)
            e.writeString(readable)
            e.writeKey("classChain", first: false, level: level)
            writeStrings(chain, level: level, into: &e)
            e.writeKey("classHints", first: false, level: level)
            writeStrings(hints, level: level, into: &e)
            e.writeKey("classUID", first: false, level: level)
            if let classUID { e.out.appendDecimal(classUID) } else { e.out.append("null") }
            e.writeKey("inline", first: false, level: level)
            e.out.append(classUID == nil ? "true" : "false")
        }

        static func writeStrings(_ strings: [String], level: Int, into e: inout JSONEmitter) {
            guard !strings.isEmpty else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            e.out.append(UInt8(ascii: "["))
            for (i, s) in strings.enumerated() {
                if i > 0 { e.out.append(UInt8(ascii: ",")) }
                e.newline(level + 1)
                e.writeString(s)
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        /// `"summary"`, as `KeyedArchive.summary(of:)` words it, when there is one.
        func writeSummary(of object: ArchivedObject, level: Int, into e: inout JSONEmitter) {
            switch object.content {
            case .string(let s):
                Self.writeStringSummary(s, level: level, into: &e)
            case .number(let n):
                Self.writeNumberSummary(n, level: level, into: &e)
            case .date(let date):
                e.writeKey("summary", first: false, level: level)
                Self.writeISOText(date, into: &e)
            case .array(let elements), .oldStyleArray(let elements):
                Self.writeCount(elements.count, "element", "elements", level: level, into: &e)
            case .set(let members), .orderedSet(let members):
                Self.writeCount(members.count, "member", "members", level: level, into: &e)
            case .dictionary(let keys, _):
                Self.writeCount(keys.count, "entry", "entries", level: level, into: &e)
            case .null, .object:
                break
            default:
                if let summary = archive.summary(of: object, nestedReadOptions: exporter.nested.readOptions.propertyList) {
                    e.writeKey("summary", first: false, level: level)
                    e.writeString(summary)
                }
            }
        }

        /// A string's summary: `PropertyListPrettyPrinter.quoted(s)` as a JSON string.
        static func writeStringSummary(_ s: String, level: Int, into e: inout JSONEmitter) {
            var s = s
            let plain = s.withUTF8 { bytes in
                !bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            }
            e.writeKey("summary", first: false, level: level)
            guard plain else { return e.writeString(PropertyListPrettyPrinter.quoted(s)) }
            // The string quoted by `PropertyListPrettyPrinter.quoted`, which changes nothing
            // inside it, then escaped for JSON: only its quotes need a backslash.
            e.out.append("\"\\\"")
            e.out.append(string: s)
            e.out.append("\\\"\"")
        }

        /// A number's summary: `KeyedArchive.numberText(n)` as a JSON string.
        static func writeNumberSummary(_ n: PropertyListValue, level: Int, into e: inout JSONEmitter) {
            e.writeKey("summary", first: false, level: level)
            switch n {
            case .integer(let i):
                e.out.append(UInt8(ascii: "\""))
                e.writeInteger(i)
                e.out.append(UInt8(ascii: "\""))
            case .real(let r) where r.isFinite && r == r.rounded() && abs(r) < 1e15:
                e.out.append(UInt8(ascii: "\""))
                e.out.appendDecimal(Int(r))
                e.out.append(UInt8(ascii: "\""))
            default:
                e.writeString(KeyedArchive.numberText(n))
            }
        }

        /// `"N elements"`, as `KeyedArchive.count` words it.
        static func writeCount(_ n: Int, _ singular: StaticString, _ plural: StaticString, level: Int, into e: inout JSONEmitter) {
            e.writeKey("summary", first: false, level: level)
            e.out.append(UInt8(ascii: "\""))
            e.out.appendDecimal(n)
            e.out.append(UInt8(ascii: " "))
            e.out.append(n == 1 ? singular : plural)
            e.out.append(UInt8(ascii: "\""))
        }

        /// `KeyedArchive.isoText(date)` as a JSON string; whole seconds are written digit by digit.
        static func writeISOText(_ date: Date, into e: inout JSONEmitter) {
            let t = date.timeIntervalSinceReferenceDate
            // The range of `isoText`; anything else takes its path.
            guard PropertyListDateRange.contains(t) else {
                return e.writeString(KeyedArchive.isoText(date))
            }
            // `fractionText`: the fraction rounded to six digits, trailing zeros dropped.
            // `%.6f` rounds the exact binary value; the product below is within an ulp of it,
            // so only a product near a half could round the other way: those take its path.
            var micros = 0
            let fraction = t - t.rounded(.down)
            if fraction != 0 {
                let scaled = fraction * 1_000_000
                guard abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 else {
                    return e.writeString(KeyedArchive.isoText(date))
                }
                micros = Int(scaled.rounded())
                if micros == 1_000_000 { micros = 0 }
            }
            // The range keeps the year within four digits.
            let g = GregorianDateTime(secondsSinceReferenceDate: t)
            e.out.reserve(22)
            e.out.appendUnchecked(UInt8(ascii: "\""))
            e.out.appendZeroPaddedUnchecked(g.year, width: 4)
            e.out.appendUnchecked(UInt8(ascii: "-"))
            e.out.appendZeroPaddedUnchecked(g.month, width: 2)
            e.out.appendUnchecked(UInt8(ascii: "-"))
            e.out.appendZeroPaddedUnchecked(g.day, width: 2)
            e.out.appendUnchecked(UInt8(ascii: "T"))
            e.out.appendZeroPaddedUnchecked(g.hour, width: 2)
            e.out.appendUnchecked(UInt8(ascii: ":"))
            e.out.appendZeroPaddedUnchecked(g.minute, width: 2)
            e.out.appendUnchecked(UInt8(ascii: ":"))
            e.out.appendZeroPaddedUnchecked(g.second, width: 2)
            if micros > 0 {
                var digits = 6
                while micros % 10 == 0 {
                    micros /= 10
                    digits -= 1
                }
                e.out.reserve(10)
                e.out.appendUnchecked(UInt8(ascii: "."))
                e.out.appendZeroPaddedUnchecked(micros, width: digits)
            }
            e.out.appendUnchecked(UInt8(ascii: "Z"))
            e.out.appendUnchecked(UInt8(ascii: "\""))
        }

        /// `"value"`: the decoded content, as `KeyedArchiveJSONExporter.content` gives it.
        func writeContent(of object: ArchivedObject, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            switch object.content {
            case .string(let s): e.writeString(s)
            case .number(let n): try Self.writePlist(n, level: level, into: &e)
            case .decimalNumber(let text): e.writeString(text)
            case .date(let d): try Self.writePlist(.date(d), level: level, into: &e)
            case .data(let d): try Self.writePlist(.data(d), level: level, into: &e)
            case .null: e.out.append("null")
            case .array(let values), .set(let values), .orderedSet(let values), .oldStyleArray(let values):
                try Self.writeValues(values, level: level, into: &e)
            case .dictionary(let keys, let values):
                try Self.writePairs(keys, values, level: level, into: &e)
            case .object: e.out.append("null")
            case .uuid(let uuid):
                e.writeString(uuid.uppercaseText)
            case .url(let base, let relative):
                // `{"base", "relative", "absolute"}`, as `content(_:in:)` gives it.
                e.out.append(UInt8(ascii: "{"))
                e.writeKey("base", first: true, level: level + 1)
                try Self.writeValue(base, level: level + 1, into: &e)
                e.writeKey("relative", first: false, level: level + 1)
                try Self.writeValue(relative, level: level + 1, into: &e)
                e.writeKey("absolute", first: false, level: level + 1)
                if let absolute = archive.absoluteURLString(of: object) { e.writeString(absolute) } else { e.out.append("null") }
                e.newline(level)
                e.out.append(UInt8(ascii: "}"))
            default:
                try e.write(exporter.content(object, in: archive), level: level)
            }
        }

        /// A dictionary's `value`: `[[key, value], …]`.
        static func writePairs(_ keys: [ArchivedValue], _ values: [ArchivedValue], level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            let count = min(keys.count, values.count)
            guard count > 0 else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            e.out.append(UInt8(ascii: "["))
            for i in 0..<count {
                e.writeSeparator(first: i == 0, level: level + 1)
                e.out.append(UInt8(ascii: "["))
                e.writeSeparator(first: true, level: level + 2)
                try Self.writeValue(keys[i], level: level + 2, into: &e)
                e.writeSeparator(first: false, level: level + 2)
                try Self.writeValue(values[i], level: level + 2, into: &e)
                e.newline(level + 1)
                e.out.append(UInt8(ascii: "]"))
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        // MARK: Values

        /// A field value, as `KeyedArchiveJSONExporter.value` gives it.
        static func writeValue(_ value: ArchivedValue, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            switch value {
            case .null:
                e.out.append("null")
            case .object(let uid):
                Self.writeReference(uid, separated: false, first: false, level: level, into: &e)
            case .array(let elements):
                try Self.writeValues(elements, level: level, into: &e)
            case .inline(let plist):
                try Self.writePlist(plist, level: level, into: &e)
            }
        }

        static func writeValues(_ values: [ArchivedValue], level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            guard !values.isEmpty else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            e.out.append(UInt8(ascii: "["))
            // Elements are read in place; references, almost all of them, take one check for room.
            try values.withUnsafeBufferPointer { (values) throws(PropertyListError) in
                for i in values.indices {
                    if case .object(let uid) = values[i] {
                        Self.writeReference(uid, separated: true, first: i == 0, level: level + 1, into: &e)
                    } else {
                        e.writeSeparator(first: i == 0, level: level + 1)
                        try Self.writeValue(values[i], level: level + 1, into: &e)
                    }
                }
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        /// `{"$ref": uid}` at `level`, the most common value by far, with one check for room.
        /// As an element of an array (`separated`), it comes after the separator `writeSeparator`
        /// writes: a comma unless `first`, and the line break.
        @inline(__always)
        static func writeReference(_ uid: Int, separated: Bool, first: Bool, level: Int, into e: inout JSONEmitter) {
            e.out.reserve(6 * level + 80)
            if separated {
                if !first { e.out.appendUnchecked(UInt8(ascii: ",")) }
                if e.pretty { e.out.appendLineBreakUnchecked(indent: 2 * level) }
            }
            e.out.appendUnchecked(UInt8(ascii: "{"))
            if e.pretty {
                e.out.appendLineBreakUnchecked(indent: 2 * level + 2)
                e.out.appendUnchecked("\"$ref\" : ")
            } else {
                e.out.appendUnchecked("\"$ref\":")
            }
            e.out.appendDecimalUnchecked(UInt64(uid.magnitude), negative: uid < 0)
            if e.pretty { e.out.appendLineBreakUnchecked(indent: 2 * level) }
            e.out.appendUnchecked(UInt8(ascii: "}"))
        }

        /// `writeValues` of a list of references: `{"$ref": uid}` each, UID 0 as null. For the
        /// writers that hold the UIDs alone (the object table's, the typedstream value table's).
        static func writeReferences(_ uids: some Collection<Int>, level: Int, into e: inout JSONEmitter) {
            guard !uids.isEmpty else { return e.writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            e.out.append(UInt8(ascii: "["))
            for (n, uid) in uids.enumerated() {
                if uid != 0 {
                    writeReference(uid, separated: true, first: n == 0, level: level + 1, into: &e)
                } else {
                    e.writeSeparator(first: n == 0, level: level + 1)
                    e.out.append("null")
                }
            }
            e.newline(level)
            e.out.append(UInt8(ascii: "]"))
        }

        /// An inline plist value, as `KeyedArchiveJSONExporter.plist` tags it.
        static func writePlist(_ value: PropertyListValue, level: Int, into e: inout JSONEmitter) throws(PropertyListError) {
            switch value {
            case .string(let s): e.writeString(s)
            case .integer(let i): e.writeInteger(i)
            case .bool(let b): e.out.append(b ? "true" : "false")
            case .null: e.out.append("null")
            case .real(let r): Self.writeReal(r, level: level, into: &e)
            case .date(let d):
                e.out.append(UInt8(ascii: "{"))
                e.writeKey("$date", first: true, level: level + 1)
                Self.writeReal(d.timeIntervalSinceReferenceDate, level: level + 1, into: &e)
                e.newline(level)
                e.out.append(UInt8(ascii: "}"))
            case .data(let d):
                // `{"$data": base64}`: the emitter's base64, with `/` as is (the exporter writes
                // without escaping slashes), which is `base64EncodedString()`.
                e.out.append(UInt8(ascii: "{"))
                e.writeKey("$data", first: true, level: level + 1)
                e.writeData(d, level: level + 1)
                e.newline(level)
                e.out.append(UInt8(ascii: "}"))
            default:
                try e.write(KeyedArchiveJSONExporter.plist(value), level: level)
            }
        }

        /// A real, or `{"$real": "nan"|"inf"|"-inf"}` for what JSON cannot hold.
        static func writeReal(_ r: Double, level: Int, into e: inout JSONEmitter) {
            guard r.isFinite else {
                e.out.append(UInt8(ascii: "{"))
                e.writeKey("$real", first: true, level: level + 1)
                e.out.append(r.isNaN ? "\"nan\"" : r < 0 ? "\"-inf\"" : "\"inf\"")
                e.newline(level)
                e.out.append(UInt8(ascii: "}"))
                return
            }
            e.writeFiniteReal(r)
        }
    }
}

