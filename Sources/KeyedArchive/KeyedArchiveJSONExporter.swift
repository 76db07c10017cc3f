import Foundation
@_spi(Writers) import PropertyList

/// Writes a keyed archive's typed tree as JSON: `archivist inspect FILE --format json`.
///
/// The output keeps everything the decoded archive holds, so a program can work on any archive
/// without a plist library. Objects are listed flat, by UID, and refer to each other with
/// `{"$ref": UID}`, exactly as the archive does: shared objects and cycles need nothing special.
///
/// ```
/// {
///   "archiver" : "NSKeyedArchiver",
///   "version" : 100000,
///   "top" : { "root" : { "$ref" : 1 } },        // $top, key => value
///   "root" : { "$ref" : 1 },                    // the root value, or null
///   "objects" : [                               // every decoded object once, by UID
///     {
///       "uid" : 1,
///       "class" : "_TtC8Eventail4Item",         // $classname as written
///       "readableClass" : "Eventail.Item",      // demangled
///       "classChain" : ["_TtC8Eventail4Item", "NSObject"],   // $classes
///       "classHints" : [],                      // $classhints
///       "classUID" : 7,                         // UID of the class dictionary; null when inline
///       "inline" : false,                       // true: a plain plist value in $objects
///       "kind" : "object",                      // see below
///       "summary" : "…",                        // one line, as `inspect` prints it (optional)
///       "value" : null,                         // the decoded content, by kind
///       "fields" : { "name" : { "$ref" : 2 } }  // every field as written, keys unescaped
///     }
///   ],
///   "classes" : { "NSString" : 3 }              // objects per class name as written
/// }
/// ```
///
/// A *value* (in `top`, `root`, `fields` and inside `value`) is `null` for `$null`,
/// `{"$ref": UID}` for a reference, an array for an array, or an inline plist scalar: a string,
/// an integer, a real, `true`/`false`, or a tagged object for what JSON lacks:
/// `{"$data": base64}`, `{"$date": secondsSince2001}`, `{"$real": "nan"|"inf"|"-inf"}`,
/// `{"$dictionary": [[key, value], …]}`, `{"$set": […]}`, `{"$uid": N}`,
/// `{"$utf16": [codeUnits]}`. Any JSON object in a value position is one of these tags.
///
/// `value` by `kind`: `string` a string; `number` the number (plus `"numberType"`: `integer`,
/// `real` or `bool`); `decimalNumber` its exact decimal text; `data` `{"$data": …}` (plus
/// `"nested"`, the payload's label, and `"nestedKind"`); `date` `{"$date": …}` (plus
/// `"iso8601"`); `null` null; `array`, `set`, `orderedSet`, `oldStyleArray` an array of
/// values; `countedSet` `{"members": […], "counts": […]}`; `dictionary` `[[key, value], …]`;
/// `url` `{"base", "relative", "absolute"}`; `uuid` its string; `attributedString`
/// `{"string", "attributes", "ranges": [[location, length], …]}`; `geometry`
/// `{"type": "point"|"size"|"rect"|"range"|"edgeInsets", …}`; `indexSet`
/// `[[location, length], …]`; `locale` and `timeZone` a string; `error`
/// `{"domain", "code", "userInfo"}`; `color` `{"red", "green", "blue", "alpha", "space",
/// "white"?, "name"?}`; `object` null (see `fields`).
///
/// With nested expansion on, a data object holding a plist, JSON or a keyed archive also has
/// `"expanded"`: `{"format": "binary"|"xml", "value": value}`, `{"format": "json", "value":
/// the JSON as is}`, or `{"format": …, "archive": this same schema}`.
///
/// Integral reals are written without a fraction, as JSONEncoder writes them; `numberType`
/// keeps the distinction for number objects. The full schema is in
/// docs/inspect-json.md ("The `inspect --format json` schema").
public struct KeyedArchiveJSONExporter: Sendable {
    /// Whether to decode nested plists, archives and JSON (`"expanded"`), and how deep.
    public var nested: NestedPayloadOptions
    /// Indent the JSON.
    public var prettyPrinted: Bool
    /// Leave out every member that has its default value, and the summaries (the compact form
    /// the CLI writes; see `omitsDefaultMembers` in the schema, docs/inspect-json.md): the same document,
    /// a third of the size or less for large archives.
    public var omitsDefaultMembers: Bool

    public init(nested: NestedPayloadOptions = .init(), prettyPrinted: Bool = true, omitsDefaultMembers: Bool = false) {
        self.nested = nested
        self.prettyPrinted = prettyPrinted
        self.omitsDefaultMembers = omitsDefaultMembers
    }

    /// The JSON text of `archive`, UTF-8, ending with a newline.
    ///
    /// The text is streamed straight into one buffer, with the same bytes that writing
    /// `document(archive)` with `JSONPropertyListWriter` gives: no intermediate tree is built.
    ///
    /// - Throws: `PropertyListError` only if the JSON writer refuses a value, which the tagging
    ///   above prevents.
    public func write(_ archive: KeyedArchive) throws(PropertyListError) -> Data {
        var options = JSONWriteOptions()
        options.outputFormatting = prettyPrinted ? [.prettyPrinted, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        // A guess at the size, to grow the buffer few times; it only reserves address space.
        let (estimate, overflow) = archive.objects.count.multipliedReportingOverflow(by: prettyPrinted ? 512 : 256)
        var emitter = JSONEmitter(options: options, capacity: overflow ? 1 << 30 : min(estimate, 1 << 30) + 4096)
        var writer = DocumentWriter(exporter: self, archive: archive, nesting: 0)
        try writer.writeDocument(level: 0, into: &emitter)
        emitter.out.append(0x0A)
        return emitter.data()
    }

    /// `write(archive)` handed to `emit` in pieces of about `chunkSize` bytes, split between
    /// objects, so that the text of a large archive is never held whole.
    public func write(_ archive: KeyedArchive, chunkSize: Int = 1 << 20,
                      to emit: (UnsafeRawBufferPointer) -> Void) throws(PropertyListError) {
        try writeDocument(chunkSize: chunkSize, to: emit) { (emitter, drain) throws(PropertyListError) in
            var writer = DocumentWriter(exporter: self, archive: archive, nesting: 0)
            writer.drain = drain
            writer.chunkSize = max(chunkSize, 1)
            try writer.writeDocument(level: 0, into: &emitter)
        }
    }

    /// A document `write` writes to an emitter of this exporter's spelling, handing the output
    /// on through the drain it is given as it goes, then a newline; all of it handed to `emit`.
    func writeDocument(chunkSize: Int, to emit: (UnsafeRawBufferPointer) -> Void,
                       _ write: (_ emitter: inout JSONEmitter, _ drain: @escaping (UnsafeRawBufferPointer) -> Void) throws(PropertyListError) -> Void)
        throws(PropertyListError) {
        var options = JSONWriteOptions()
        options.outputFormatting = prettyPrinted ? [.prettyPrinted, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        var emitter = JSONEmitter(options: options, capacity: max(chunkSize, 1) + 65_536)
        try withoutActuallyEscaping(emit) { (emit) throws(PropertyListError) in
            try write(&emitter, emit)
            emitter.out.append(0x0A)
            emitter.out.drain(emit)
        }
    }

    /// The JSON document as a property-list value, for callers that write it their own way.
    /// Every dictionary in it has string keys, so any JSON writer can write it.
    public func document(_ archive: KeyedArchive) -> PropertyListValue {
        document(archive, nesting: 0)
    }

    func document(_ archive: KeyedArchive, nesting: Int) -> PropertyListValue {
        var classes = PropertyListDictionary()
        for (name, count) in archive.classCounts { classes.append(key: .string(name), value: .integer(PropertyListInteger(count))) }
        var top = PropertyListDictionary()
        for field in archive.top { top.append(key: .string(field.key), value: Self.value(field.value)) }
        // With default members left out, a class is described by the first of its objects.
        var described: Set<Int> = []
        return Self.object([
            ("archiver", .string(archive.archiver)),
            ("version", .integer(PropertyListInteger(archive.version))),
            ("top", .dictionary(top)),
            ("root", archive.root.map(Self.value) ?? .null),
            ("objects", .array(archive.decodedObjects.map { o in
                let first = o.archivedClass.map { described.insert($0.uid).inserted } ?? true
                return object(o, in: archive, nesting: nesting, describesClass: first)
            })),
            ("classes", .dictionary(classes)),
        ] + (archive.typedStream.map { [("typedStream", TypedStreamJSON.member($0, withGroups: !omitsDefaultMembers))] } ?? []))
    }

    func object(_ object: ArchivedObject, in archive: KeyedArchive, nesting: Int, describesClass: Bool = true) -> PropertyListValue {
        let archivedClass = object.archivedClass
        var entries: [(String, PropertyListValue)] = [("uid", Self.int(object.uid))]
        if !omitsDefaultMembers {
            entries += [
                ("class", .string(object.className)),
                ("readableClass", .string(object.readableClassName)),
                ("classChain", .array((archivedClass?.chain ?? [object.className]).map { .string($0) })),
                ("classHints", .array((archivedClass?.hints ?? []).map { .string($0) })),
                ("classUID", archivedClass.map { Self.int($0.uid) } ?? .null),
                ("inline", .bool(archivedClass == nil)),
            ]
        } else if let archivedClass {
            // Inline objects take their class from their kind; other objects from the first
            // object of their class description, which gives the members that differ from
            // their defaults.
            if describesClass {
                entries.append(("class", .string(archivedClass.name)))
                if archivedClass.readableName != archivedClass.name { entries.append(("readableClass", .string(archivedClass.readableName))) }
                entries.append(("classChain", .array(archivedClass.chain.map { .string($0) })))
                if !archivedClass.hints.isEmpty { entries.append(("classHints", .array(archivedClass.hints.map { .string($0) }))) }
            }
            entries.append(("classUID", Self.int(archivedClass.uid)))
        }
        entries.append(("kind", .string(Self.kind(object.content))))
        // Data is identified once, for both its summary and its nested payload.
        var nestedData: (payload: NestedPayload?, expanded: PropertyListValue?) = (nil, nil)
        if case .data(let data) = object.content {
            nestedData = nestedPayload(data, nesting: nesting)
            if !omitsDefaultMembers {
                entries.append(("summary", .string(KeyedArchive.dataSummary(data, payload: nestedData.payload))))
            }
        } else if !omitsDefaultMembers, let summary = archive.summary(of: object, nestedReadOptions: nested.readOptions.propertyList) {
            entries.append(("summary", .string(summary)))
        }
        if !omitsDefaultMembers || !(Self.valueIsNull(object.content) || Self.valueIsFields(object)) {
            entries.append(("value", content(object, in: archive)))
        }
        switch object.content {
        case .number(let n):
            if !omitsDefaultMembers || !Self.numberTypeIsImplied(n) { entries.append(("numberType", .string(n.typeName))) }
        case .date(let date):
            entries.append(("iso8601", .string(KeyedArchive.isoText(date))))
        case .data:
            let (payload, expanded) = nestedData
            if let payload {
                entries.append(("nested", .string(payload.description)))
                entries.append(("nestedKind", .string(payload.kind)))
            }
            if let expanded { entries.append(("expanded", expanded)) }
        default:
            break
        }
        var fields = PropertyListDictionary()
        fields.reserveCapacity(object.fields.count)
        for field in object.fields { fields.append(key: .string(field.key), value: Self.value(field.value)) }
        if !omitsDefaultMembers || !fields.isEmpty { entries.append(("fields", .dictionary(fields))) }
        return Self.object(entries)
    }

    /// Whether a kind's `value` is always null: `null`, and `object` (see `fields`).
    static func valueIsNull(_ content: ArchivedContent) -> Bool {
        switch content {
        case .null, .object: true
        default: false
        }
    }

    /// Whether an object's `value` is exactly what its fields hold, so that a reader can take
    /// it from them: an array, set or ordered set read from its one `NS.objects` field, a
    /// dictionary from its one `NS.keys` and one `NS.objects`.
    static func valueIsFields(_ object: ArchivedObject) -> Bool {
        func only(_ key: String) -> [ArchivedValue]? {
            var found: [ArchivedValue]?
            for field in object.fields where field.key == key {
                guard found == nil, case .array(let elements) = field.value else { return nil }
                found = elements
            }
            return found
        }
        switch object.content {
        case .array(let elements), .set(let elements), .orderedSet(let elements):
            return only("NS.objects") == elements
        case .dictionary(let keys, let values):
            return only("NS.keys") == keys && only("NS.objects") == values
        default:
            return false
        }
    }

    /// Whether a number's JSON spelling says its type: `true`/`false` a bool, digits alone an
    /// integer, anything else (a fraction, an exponent, a `$real` tag) a real. Only a whole
    /// real below 2^53, which is written as its digits, needs `numberType`.
    static func numberTypeIsImplied(_ n: PropertyListValue) -> Bool {
        guard case .real(let r) = n else { return true }
        return !(r.isFinite && r == r.rounded(.towardZero) && r.magnitude < 9_007_199_254_740_992)
    }

    /// The payload label, and the decoded document when expanding within the nesting limit.
    func nestedPayload(_ data: Data, nesting: Int) -> (NestedPayload?, PropertyListValue?) {
        let options = nested.readOptions
        guard nested.expands, nesting < nested.maximumNesting else {
            return (NestedPayload.identify(data, options: options.propertyList), nil)
        }
        let (payload, content) = NestedPayload.inspect(data, options: options.propertyList, archiveOptions: options, decodesArchive: true)
        switch content {
        case .propertyList(let value, let format)?:
            return (payload, Self.object([("format", .string(format.rawValue)), ("value", Self.plist(value))]))
        case .json(let value)?:
            // JSON read back is already JSON: objects have string keys, no NaN, no data.
            return (payload, Self.object([("format", .string("json")), ("value", value)]))
        case .keyedArchive(let inner, let format)?:
            return (payload, Self.object([("format", .string(format.rawValue)), ("archive", document(inner, nesting: nesting + 1))]))
        case .typedStream(let inner)?:
            return (payload, Self.object([("format", "typedStream"), ("archive", document(inner, nesting: nesting + 1))]))
        case .nibArchive(let inner)?:
            return (payload, Self.object([("format", "nibArchive"), ("archive", document(inner, nesting: nesting + 1))]))
        case .bookmark(let bookmark)?:
            return (payload, Self.object([("format", "bookmark"), ("value", Self.plist(BookmarkPropertyList.value(of: bookmark)))]))
        case .aliasRecord(let alias)?:
            return (payload, Self.object([("format", "aliasRecord"), ("value", Self.plist(BookmarkPropertyList.value(of: alias)))]))
        case nil:
            return (payload, nil)
        }
    }

    /// The `value` of an object, by kind.
    func content(_ object: ArchivedObject, in archive: KeyedArchive) -> PropertyListValue {
        switch object.content {
        case .string(let s): return .string(s)
        case .number(let n): return Self.plist(n)
        case .decimalNumber(let text): return .string(text)
        case .data(let d): return Self.plist(.data(d))
        case .date(let d): return Self.plist(.date(d))
        case .null: return .null
        case .array(let e), .set(let e), .orderedSet(let e), .oldStyleArray(let e): return .array(e.map(Self.value))
        case .countedSet(let members, let counts):
            return Self.object([("members", .array(members.map(Self.value))), ("counts", .array(counts.map(Self.int)))])
        case .dictionary(let keys, let values):
            return .array(zip(keys, values).map { .array([Self.value($0), Self.value($1)]) })
        case .url(let base, let relative):
            return Self.object([
                ("base", Self.value(base)),
                ("relative", Self.value(relative)),
                ("absolute", archive.absoluteURLString(of: object).map { .string($0) } ?? .null),
            ])
        case .uuid(let uuid): return .string(uuid.uppercaseText)
        case .attributedString(let string, let attributes, let ranges):
            return Self.object([
                ("string", Self.value(string)),
                ("attributes", .array(attributes.map(Self.value))),
                ("ranges", Self.ranges(ranges)),
            ])
        case .geometry(let g): return Self.geometry(g)
        case .indexSet(let ranges): return Self.ranges(ranges)
        case .locale(let identifier): return .string(identifier)
        case .timeZone(let name): return .string(name)
        case .error(let domain, let code, let userInfo):
            return Self.object([("domain", .string(domain)), ("code", Self.int(code)), ("userInfo", Self.value(userInfo))])
        case .color(let c): return Self.color(c)
        case .object: return .null
        case .propertyList(let value): return Self.plist(value)
        }
    }

    // MARK: Values

    /// A field value: `null`, `{"$ref": UID}`, an array, or an inline plist value.
    public static func value(_ value: ArchivedValue) -> PropertyListValue {
        switch value {
        case .null: .null
        case .object(let uid): object([("$ref", int(uid))])
        case .array(let elements): .array(elements.map(Self.value))
        case .inline(let plist): Self.plist(plist)
        }
    }

    /// A plist value in JSON, with tagged objects for what JSON lacks.
    public static func plist(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .string, .integer, .bool, .null: value
        case .real(let r): real(r)
        case .invalidUTF16String(let units): object([("$utf16", .array(units.map { int(Int($0)) }))])
        case .date(let d): object([("$date", real(d.timeIntervalSinceReferenceDate))])
        case .data(let d): object([("$data", .string(d.base64EncodedString()))])
        case .array(let a): .array(a.map(plist))
        case .set(let s): object([("$set", .array(s.map(plist)))])
        case .dictionary(let d): object([("$dictionary", .array(d.map { .array([plist($0.key), plist($0.value)]) }))])
        case .uid(let u): object([("$uid", .integer(PropertyListInteger(u)))])
        }
    }

    static func real(_ r: Double) -> PropertyListValue {
        if r.isNaN { return object([("$real", "nan")]) }
        if r.isInfinite { return object([("$real", .string(r < 0 ? "-inf" : "inf"))]) }
        return .real(r)
    }

    static func int(_ i: Int) -> PropertyListValue { .integer(PropertyListInteger(i)) }

    /// A color's `value`: `{"red", "green", "blue", "alpha", "space", "white"?, "name"?}`.
    static func color(_ c: ArchivedColor) -> PropertyListValue {
        var entries: [(String, PropertyListValue)] = [
            ("red", Self.real(c.red)), ("green", Self.real(c.green)), ("blue", Self.real(c.blue)),
            ("alpha", Self.real(c.alpha)), ("space", .string(c.space.rawValue)),
        ]
        if let white = c.white { entries.append(("white", Self.real(white))) }
        if let name = c.name { entries.append(("name", .string(name))) }
        return Self.object(entries)
    }

    static func object(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
        .dictionary(PropertyListDictionary(entries.map { (.string($0.0), $0.1) }))
    }

    static func ranges(_ ranges: [Range<Int>]) -> PropertyListValue {
        .array(ranges.map { .array([int($0.lowerBound), int($0.count)]) })
    }

    static func geometry(_ g: ArchivedGeometry) -> PropertyListValue {
        switch g {
        case .point(let x, let y):
            object([("type", "point"), ("x", real(x)), ("y", real(y))])
        case .size(let w, let h):
            object([("type", "size"), ("width", real(w)), ("height", real(h))])
        case .rect(let x, let y, let w, let h):
            object([("type", "rect"), ("x", real(x)), ("y", real(y)), ("width", real(w)), ("height", real(h))])
        case .range(let location, let length):
            object([("type", "range"), ("location", int(location)), ("length", int(length))])
        case .edgeInsets(let top, let left, let bottom, let right):
            object([("type", "edgeInsets"), ("top", real(top)), ("left", real(left)), ("bottom", real(bottom)), ("right", real(right))])
        }
    }

    /// The `kind` names of the schema, one per `ArchivedContent` case.
    public static func kind(_ content: ArchivedContent) -> String {
        switch content {
        case .string: "string"
        case .number: "number"
        case .decimalNumber: "decimalNumber"
        case .data: "data"
        case .date: "date"
        case .null: "null"
        case .array: "array"
        case .set: "set"
        case .orderedSet: "orderedSet"
        case .countedSet: "countedSet"
        case .dictionary: "dictionary"
        case .url: "url"
        case .uuid: "uuid"
        case .attributedString: "attributedString"
        case .geometry: "geometry"
        case .indexSet: "indexSet"
        case .locale: "locale"
        case .timeZone: "timeZone"
        case .error: "error"
        case .color: "color"
        case .oldStyleArray: "oldStyleArray"
        case .object: "object"
        case .propertyList: "propertyList"
        }
    }
}
