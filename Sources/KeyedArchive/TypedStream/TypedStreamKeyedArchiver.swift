import Foundation
import PropertyList
import TypedStream

/// Turns a typedstream into the keyed archive NSKeyedArchiver writes of the same objects, as a
/// property list, so that one decoder (`KeyedArchiveDecoding`) and everything after it (checks,
/// payloads, printers, diff, the keyed writer) serve both archivers.
///
/// Each object of a class Archivist knows gets the keys that class's `-encodeWithCoder:` writes
/// to a keyed coder (NSString inline, NSArray's `NS.objects`, NSColor's `NSColorSpace` and
/// `NSRGB`, NSAttributedString's `NSString`, `NSAttributes` and `NSAttributeInfo`…). Any other
/// class, and any group a known class's reader does not expect, keeps its values in order
/// under the keys NSKeyedArchiver gives values encoded without a key (`$0`, `$1`…), which is
/// also what the class's own unkeyed `-initWithCoder:` reads back from a keyed archive. Nothing
/// is dropped: values a known reader does not use go after its keys, numbered the same way.
///
/// Object *n* of the stream (in the order the stream introduced them) is UID *n* + 1; objects a
/// keyed archive needs that the stream does not have (NSAttributedString's run table, NSFont's
/// name string) and class descriptions come after them.
struct TypedStreamKeyedArchiver {
    let stream: TypedStream
    /// `$objects`, by UID.
    var objects: [PropertyListValue]
    /// The UID of each class description, by its chain of names.
    var classUIDs: [[String]: Int] = [:]
    /// What every object of a stream class shares, worked out once per class: its chain, the
    /// first class of the chain with a reader, and its class description's UID.
    var plans: [ClassPlan?] = []

    struct ClassPlan {
        var chain: [String]
        /// The reader of the first known class in the chain, and that class's place in it.
        var reader: (level: Int, read: Reader)?
        /// The class description's UID, once an object of the class needs one.
        var classUID: Int?
    }

    init(stream: TypedStream) {
        self.stream = stream
        objects = ["$null"] + Array(repeating: .null, count: stream.objects.count)
    }

    /// The whole archive: `$archiver`, `$version`, `$top`, `$objects`.
    mutating func archive() -> PropertyListValue {
        for index in stream.objects.indices {
            objects[index + 1] = encode(objectAt: index)
        }
        var top = PropertyListDictionary()
        for (key, value) in topEntries() {
            top.append(key: .string(key), value: value)
        }
        return KeyedArchiveWriter.document(top: top, objects: objects)
    }

    // MARK: The top level

    /// `root` for a stream of one value (what `archivedDataWithRootObject:` writes); a color
    /// list file's layout as the keyed `.clr` file `-[NSColorList writeToURL:error:]` writes (`$top`
    /// with `NSKeys` and `NSColors`); otherwise every top-level value in order, under `$0`, `$1`….
    mutating func topEntries() -> [(String, PropertyListValue)] {
        let contents = stream.contents
        if contents.count == 1, contents[0].values.count == 1 {
            return [("root", value(contents[0].values[0]))]
        }
        if let list = colorList() { return list }
        var entries: [(String, PropertyListValue)] = []
        for group in contents {
            for v in group.values where v != .ignored {
                entries.append(("$\(entries.count)", value(v)))
            }
        }
        return entries
    }

    /// A color list file (`-[NSColorList writeToFile:]`): its format version `i` (1), its name
    /// and count `@i`, then (color, key) pairs `@@`. Keyed color lists have no name: a name the
    /// file has is kept under `NSName`.
    mutating func colorList() -> [(String, PropertyListValue)]? {
        let contents = stream.contents
        guard contents.count >= 2, contents[0].encoding == "i", contents[0].values == [.integer(1)], contents[1].encoding == "@i",
              case .integer(let count) = contents[1].values[1], count >= 0, contents.count == 2 + Int(count),
              contents.dropFirst(2).allSatisfy({ $0.encoding == "@@" }) else { return nil }
        var keys: [PropertyListValue] = []
        var colors: [PropertyListValue] = []
        for pair in contents.dropFirst(2) {
            colors.append(value(pair.values[0]))
            keys.append(value(pair.values[1]))
        }
        let array = ["NSMutableArray", "NSArray", "NSObject"]
        var entries: [(String, PropertyListValue)] = [
            ("NSKeys", add(object(array, [("NS.objects", .array(keys))]))),
            ("NSColors", add(object(array, [("NS.objects", .array(colors))]))),
        ]
        if contents[1].values[0] != .null { entries.append(("NSName", value(contents[1].values[0]))) }
        return entries
    }

    // MARK: Objects

    /// Appends an object the stream does not have, and returns a reference to it.
    mutating func add(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// A keyed object of `chain` with `fields`, its class description shared by every object
    /// of the same chain.
    mutating func object(_ chain: [String], _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        var dictionary = PropertyListDictionary()
        for (key, value) in fields {
            dictionary.append(key: .string(KeyedArchiveWriter.escape(key)), value: value)
        }
        dictionary.append(key: "$class", value: .uid(UInt64(classUID(chain))))
        return .dictionary(dictionary)
    }

    mutating func classUID(_ chain: [String]) -> Int {
        if let uid = classUIDs[chain] { return uid }
        var description = PropertyListDictionary()
        description.append(key: "$classname", value: .string(chain.first ?? "NSObject"))
        description.append(key: "$classes", value: .array(chain.map { .string($0) }))
        objects.append(.dictionary(description))
        classUIDs[chain] = objects.count - 1
        return objects.count - 1
    }

    /// The keyed form of object `index`: its class's reader when it knows the class and the
    /// groups are as that class writes them, else every value under `$0`, `$1`….
    mutating func encode(objectAt index: Int) -> PropertyListValue {
        switch keyedParts(objectAt: index) {
        case .inline(let value): value
        case .object(let classIndex, let fields): object(ofClass: classIndex, fields)
        }
    }

    /// What the keyed form of an object is made of, before it is made a dictionary.
    enum KeyedParts {
        /// An inline plist value (NSString, NSNumber, NSData of their own class).
        case inline(PropertyListValue)
        /// An object of stream class `classIndex` with these fields (keys unescaped).
        case object(classIndex: Int, fields: [(String, PropertyListValue)])
    }

    /// The parts of `encode(objectAt:)`'s value: the same reading, without the dictionary.
    /// Objects the stream lacks that a reader needs (run tables, font names) are added to
    /// `objects` as they are by `encode`.
    mutating func keyedParts(objectAt index: Int) -> KeyedParts {
        let object = stream.objects[index]
        let plan = plan(forClass: object.classIndex)
        var groups = TypedStreamGroupCursor(object.groups)
        if let (level, read) = plan.reader {
            var attempt = groups
            if let result = read(&self, &attempt, plan.chain, level) {
                groups = attempt
                switch result {
                case .inline(let value) where groups.isAtEnd && level == 0:
                    return .inline(value)
                case .inline(let value):
                    // An inline kind with groups left over (a subclass of NSString, say): an
                    // object with the value under the key a keyed coder would give it, and the
                    // rest after.
                    return .object(classIndex: object.classIndex, fields: [(Self.inlineKey(value), value)] + genericFields(&groups, startingAt: 0))
                case .fields(let fields):
                    return .object(classIndex: object.classIndex, fields: fields + genericFields(&groups, startingAt: 0))
                }
            }
        }
        var all = TypedStreamGroupCursor(object.groups)
        return .object(classIndex: object.classIndex, fields: genericFields(&all, startingAt: 0))
    }

    /// The plan of stream class `index`, made the first time an object of it is met.
    mutating func plan(forClass index: Int) -> ClassPlan {
        if index >= 0, index < plans.count, let known = plans[index] { return known }
        let chain = stream.classChain(ofClass: index)
        var plan = ClassPlan(chain: chain)
        if let level = chain.firstIndex(where: { Self.readers[$0] != nil }), let read = Self.readers[chain[level]] {
            plan.reader = (level, read)
        }
        if index >= 0, index < stream.classes.count {
            if plans.count < stream.classes.count { plans = Array(repeating: nil, count: stream.classes.count) }
            plans[index] = plan
        }
        return plan
    }

    /// A keyed object of stream class `index` with `fields`; its class description is looked up
    /// once per class.
    mutating func object(ofClass index: Int, _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        let uid = classUID(ofClass: index)
        var dictionary = PropertyListDictionary()
        dictionary.reserveCapacity(fields.count + 1)
        for (key, value) in fields {
            dictionary.append(key: .string(KeyedArchiveWriter.escape(key)), value: value)
        }
        dictionary.append(key: "$class", value: .uid(UInt64(uid)))
        return .dictionary(dictionary)
    }

    /// The UID of the class description of stream class `index`, added the first time an
    /// object of the class needs it.
    mutating func classUID(ofClass index: Int) -> Int {
        var plan = plan(forClass: index)
        if let known = plan.classUID { return known }
        let uid = classUID(plan.chain)
        plan.classUID = uid
        if index >= 0, index < plans.count { plans[index] = plan }
        return uid
    }

    static func inlineKey(_ value: PropertyListValue) -> String {
        switch value {
        case .string: "NS.string"
        case .data: "NS.data"
        default: "NS.number"
        }
    }

    /// Every value left, under `$n` from `start`.
    mutating func genericFields(_ groups: inout TypedStreamGroupCursor, startingAt start: Int) -> [(String, PropertyListValue)] {
        var fields: [(String, PropertyListValue)] = []
        while let group = groups.next() {
            for v in group.values where v != .ignored {
                fields.append(("$\(start + fields.count)", value(v)))
            }
        }
        return fields
    }

    /// A typedstream value as a keyed archive holds it: objects by reference, numbers and
    /// strings inline, C arrays and structs as arrays of their elements.
    mutating func value(_ v: TypedStreamValue) -> PropertyListValue {
        switch v {
        case .null: return .uid(0)
        case .object(let index): return .uid(UInt64(index + 1))
        case .integer(let i): return .integer(PropertyListInteger(i))
        case .unsignedInteger(let u): return .integer(PropertyListInteger(u))
        case .bool(let b): return .bool(b)
        case .float(let f): return .real(Double(f))
        case .double(let d): return .real(d)
        case .cString(let bytes): return Self.text(bytes)
        case .selector(let name): return .string(name)
        case .bytes(let data): return Self.text(Array(data))
        case .byteArray(let data), .union(let data): return .data(data)
        case .classReference(let index): return .string(stream.classChain(ofClass: index).first ?? "")
        case .array(let elements): return .array(elements.filter { $0 != .ignored }.map { value($0) })
        case .structure(_, let fields): return .array(fields.filter { $0 != .ignored }.map { value($0) })
        case .ignored: return .null
        }
    }

    /// Bytes as a string when they are UTF-8, else as data, so that no byte is lost.
    static func text(_ bytes: [UInt8]) -> PropertyListValue {
        if let s = String(validating: bytes, as: UTF8.self) { return .string(s) }
        return .data(Data(bytes))
    }

    // MARK: Readers of known classes

    /// What a known class's reader makes of its groups: an inline plist value (NSString,
    /// NSNumber, NSData), or keyed fields.
    enum Reading {
        case inline(PropertyListValue)
        case fields([(String, PropertyListValue)])
    }

    /// Reads the groups one class level writes, from the cursor; nil when they are not as that
    /// class writes them (the object then keeps all its values as `$n`).
    typealias Reader = @Sendable (inout TypedStreamKeyedArchiver, inout TypedStreamGroupCursor, _ chain: [String], _ level: Int) -> Reading?

    static let readers: [String: Reader] = {
        var r: [String: Reader] = [:]
        r["NSObject"] = { _, _, _, _ in .fields([]) }
        r["NSString"] = { a, g, chain, level in a.readString(&g, mutable: level > 0) }
        r["NSNumber"] = { a, g, _, _ in a.readNumber(&g) }
        r["NSValue"] = { a, g, _, _ in a.readValue(&g) }
        r["NSData"] = { a, g, _, level in a.readData(&g, mutable: level > 0) }
        r["NSDate"] = { a, g, _, _ in a.readDate(&g) }
        r["NSArray"] = { a, g, _, _ in a.readArray(&g, countType: "i") }
        r["NSSet"] = { a, g, _, _ in a.readArray(&g, countType: "I") }
        r["NSDictionary"] = { a, g, _, _ in a.readDictionary(&g) }
        r["NSURL"] = { a, g, _, _ in a.readURL(&g) }
        r["NSAttributedString"] = { a, g, _, _ in a.readAttributedString(&g) }
        r["NSColor"] = { a, g, _, _ in a.readColor(&g) }
        r["NSFont"] = { a, g, _, _ in a.readFont(&g) }
        r["NSParagraphStyle"] = { a, g, _, _ in a.readParagraphStyle(&g) }
        r["NSTextTab"] = { a, g, _, _ in a.readTextTab(&g) }
        return r
    }()

    /// NSString (version 1): its characters as one `+` group, in UTF-8. Inline when the class is
    /// NSString itself; NSMutableString and subclasses keep it under `NS.string`.
    mutating func readString(_ groups: inout TypedStreamGroupCursor, mutable: Bool) -> Reading? {
        guard let group = groups.next(ofEncoding: "+"), case .bytes(let bytes) = group.values[0] else { return nil }
        let string: PropertyListValue = .string(String(decoding: bytes, as: UTF8.self))
        return mutable ? .fields([("NS.string", string)]) : .inline(string)
    }

    /// NSNumber: NSValue's type encoding `*` and the value of that type, inline.
    mutating func readNumber(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let typeGroup = groups.next(ofEncoding: "*"), case .cString(let type) = typeGroup.values[0],
              let group = groups.next(ofEncoding: String(decoding: type, as: UTF8.self)), group.values.count == 1 else { return nil }
        switch group.values[0] {
        case .integer(let i):
            // A BOOL is written with type `c`, as `-[NSNumber objCType]` of a CFBoolean says; a
            // keyed archive holds it as a plist boolean.
            if type == [UInt8(ascii: "c")], i == 0 || i == 1 { return .inline(.bool(i == 1)) }
            return .inline(.integer(PropertyListInteger(i)))
        case .unsignedInteger(let u): return .inline(.integer(PropertyListInteger(u)))
        case .bool(let b): return .inline(.bool(b))
        case .float(let f): return .inline(.real(Double(f)))
        case .double(let d): return .inline(.real(d))
        default: return nil
        }
    }

    /// NSValue: its type encoding and a value of it. Geometry (points, sizes, rects, ranges)
    /// gets NSValue's keyed form (`NS.special` and `NS.pointval`…); other types are left to the
    /// generic `$n` keys.
    mutating func readValue(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let typeGroup = groups.next(ofEncoding: "*"), case .cString(let typeBytes) = typeGroup.values[0] else { return nil }
        let type = String(decoding: typeBytes, as: UTF8.self)
        guard let group = groups.next(ofEncoding: type), group.values.count == 1,
              case .structure(let name, let fields) = group.values[0] else { return nil }
        let numbers = fields.flatMap { field -> [Double] in
            if case .structure(_, let inner) = field { return inner.compactMap(\.doubleValue) }
            return field.doubleValue.map { [$0] } ?? []
        }
        switch (name?.trimmingCharacters(in: CharacterSet(charactersIn: "_")), numbers.count) {
        case ("NSPoint", 2), ("CGPoint", 2):
            return .fields([("NS.special", .integer(PropertyListInteger(1))), ("NS.pointval", .string("{\(Self.g(numbers[0])), \(Self.g(numbers[1]))}"))])
        case ("NSSize", 2), ("CGSize", 2):
            return .fields([("NS.special", .integer(PropertyListInteger(2))), ("NS.sizeval", .string("{\(Self.g(numbers[0])), \(Self.g(numbers[1]))}"))])
        case ("NSRect", 4), ("CGRect", 4):
            let text = "{{\(Self.g(numbers[0])), \(Self.g(numbers[1]))}, {\(Self.g(numbers[2])), \(Self.g(numbers[3]))}}"
            return .fields([("NS.special", .integer(PropertyListInteger(3))), ("NS.rectval", .string(text))])
        case ("NSRange", 2):
            guard let location = fields[0].integerValue, let length = fields[1].integerValue else { return nil }
            return .fields([("NS.special", .integer(PropertyListInteger(4))), ("NS.rangeval.location", .integer(PropertyListInteger(location))),
                            ("NS.rangeval.length", .integer(PropertyListInteger(length)))])
        default:
            return nil
        }
    }

    /// A coordinate as `NSStringFromPoint` and its kin print it: the shortest text that reads
    /// back as the same value.
    static func g(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// NSData: its length `i`, then its bytes `[n c]`. Inline for NSData itself; NSMutableData
    /// keeps them under `NS.data`.
    mutating func readData(_ groups: inout TypedStreamGroupCursor, mutable: Bool) -> Reading? {
        guard let bytes = Self.dataObject(&groups) else { return nil }
        return mutable ? .fields([("NS.data", .data(bytes))]) : .inline(.data(bytes))
    }

    /// `-[NSArchiver encodeDataObject:]`: a length `i`, then `[n c]` of that length.
    static func dataObject(_ groups: inout TypedStreamGroupCursor) -> Data? {
        guard let lengthGroup = groups.next(ofEncoding: "i"), let length = lengthGroup.values[0].integerValue, length >= 0 else { return nil }
        if length == 0, groups.peek()?.encoding != "[0c]" { return Data() }
        guard let bytesGroup = groups.next(ofEncoding: "[\(length)c]"), case .byteArray(let bytes) = bytesGroup.values[0] else { return nil }
        return bytes
    }

    /// NSDate: seconds since 2001 as `d`, under `NS.time`.
    mutating func readDate(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let group = groups.next(ofEncoding: "d"), let seconds = group.values[0].doubleValue else { return nil }
        return .fields([("NS.time", .real(seconds))])
    }

    /// NSArray (`i` count) and NSSet (`I` count): the count, then each element as an `@` group,
    /// under `NS.objects`.
    mutating func readArray(_ groups: inout TypedStreamGroupCursor, countType: String) -> Reading? {
        guard let countGroup = groups.next(ofEncoding: countType), let count = countGroup.values[0].integerValue,
              count >= 0, count <= groups.remaining else { return nil }
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(Int(count))
        for _ in 0 ..< count {
            guard let group = groups.next(ofEncoding: "@") else { return nil }
            elements.append(value(group.values[0]))
        }
        return .fields([("NS.objects", .array(elements))])
    }

    /// NSDictionary: the count `i`, then each key and each value as `@` groups, under `NS.keys`
    /// and `NS.objects`.
    mutating func readDictionary(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let countGroup = groups.next(ofEncoding: "i"), let count = countGroup.values[0].integerValue,
              count >= 0, count <= groups.remaining / 2 else { return nil }
        var keys: [PropertyListValue] = []
        var values: [PropertyListValue] = []
        for _ in 0 ..< count {
            guard let key = groups.next(ofEncoding: "@"), let value = groups.next(ofEncoding: "@") else { return nil }
            keys.append(self.value(key.values[0]))
            values.append(self.value(value.values[0]))
        }
        return .fields([("NS.keys", .array(keys)), ("NS.objects", .array(values))])
    }

    /// NSURL: whether it is relative `c`, its base `@` when it is, then its string `@`, under
    /// `NS.base` and `NS.relative`.
    mutating func readURL(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let flag = groups.next(ofEncoding: "c"), let relative = flag.values[0].integerValue else { return nil }
        var base: PropertyListValue = .uid(0)
        if relative != 0 {
            guard let baseGroup = groups.next(ofEncoding: "@") else { return nil }
            base = value(baseGroup.values[0])
        }
        guard let string = groups.next(ofEncoding: "@") else { return nil }
        return .fields([("NS.base", base), ("NS.relative", value(string.values[0]))])
    }

    /// NSAttributedString: its string `@`, then each run as `iI` (the number of its attribute
    /// dictionary, from 1, and its length in UTF-16 units) with the dictionary as an `@` group
    /// after a number met for the first time. Keyed: `NSString`, `NSAttributes` (the one
    /// dictionary, or an NSMutableArray of them) and, with more than one run, `NSAttributeInfo`
    /// (an NSMutableData of LEB128 pairs: run length, dictionary index).
    mutating func readAttributedString(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let stringGroup = groups.next(ofEncoding: "@") else { return nil }
        var dictionaries: [PropertyListValue] = []
        var runs: [(length: Int64, index: Int)] = []
        while let run = groups.peek(), run.encoding == "iI" {
            _ = groups.next()
            guard let number = run.values[0].integerValue, let length = run.values[1].integerValue, number >= 1, length >= 0 else { return nil }
            if number == Int64(dictionaries.count) + 1 {
                guard let dictionary = groups.next(ofEncoding: "@") else { return nil }
                dictionaries.append(value(dictionary.values[0]))
            }
            guard number <= Int64(dictionaries.count) else { return nil }
            runs.append((length, Int(number) - 1))
        }
        var fields: [(String, PropertyListValue)] = [("NSString", value(stringGroup.values[0]))]
        if runs.count <= 1, dictionaries.count <= 1 {
            if let only = dictionaries.first { fields.append(("NSAttributes", only)) }
            return .fields(fields)
        }
        fields.append(("NSAttributes", add(object(["NSMutableArray", "NSArray", "NSObject"], [("NS.objects", .array(dictionaries))]))))
        var info: [UInt8] = []
        for run in runs {
            Self.appendLEB128(UInt64(run.length), to: &info)
            Self.appendLEB128(UInt64(run.index), to: &info)
        }
        fields.append(("NSAttributeInfo", add(object(["NSMutableData", "NSData", "NSObject"], [("NS.data", .data(Data(info)))]))))
        return .fields(fields)
    }

    static func appendLEB128(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        repeat {
            var byte = UInt8(v & 0x7F)
            v >>= 7
            if v != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while v != 0
    }

    /// NSColor: its kind `c`, then the components of that kind: 1 calibrated and 2 device RGB
    /// (`ffff`), 3 calibrated and 4 device white (`ff`), 5 device CMYK (`fffff`), 6 a catalog
    /// color (`@@@`: catalog, name, and the color it stands for). Keyed: `NSColorSpace` (the
    /// same numbers) and the components as ASCII text in data (`NSRGB`, `NSWhite`, `NSCMYK`),
    /// or `NSCatalogName`, `NSColorName` and `NSColor`.
    mutating func readColor(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let kindGroup = groups.next(ofEncoding: "c"), let kind = kindGroup.values[0].integerValue else { return nil }
        let space: (String, PropertyListValue) = ("NSColorSpace", .integer(PropertyListInteger(kind)))
        switch kind {
        case 1, 2, 3, 4, 5:
            let count = TypedStreamValueTable.colorComponentCount(kind: Int64(kind))
            guard let group = groups.next(ofEncoding: String(repeating: "f", count: count)) else { return nil }
            let components = group.values.compactMap(\.doubleValue)
            guard components.count == count else { return nil }
            let key = TypedStreamValueTable.colorKey(kind: Int64(kind))
            return .fields([space, (key, .data(Self.componentText(components)))])
        case 6:
            guard let group = groups.next(ofEncoding: "@@@") else { return nil }
            return .fields([space, ("NSCatalogName", value(group.values[0])), ("NSColorName", value(group.values[1])), ("NSColor", value(group.values[2]))])
        default:
            return nil
        }
    }

    /// Components as NSColor's keyed coder writes them: each with up to ten significant digits,
    /// separated by spaces, the alpha left out when it is 1, and a terminating NUL.
    static func componentText(_ components: [Double]) -> Data {
        var shown = components
        if shown.count > 1, shown.last == 1 { shown.removeLast() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(shown.count * 13)
        for (i, component) in shown.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: " ")) }
            appendTenDigits(component, to: &bytes)
        }
        bytes.append(0)
        return Data(bytes)
    }

    /// `%.10g` of `value` by the C library (String(format:) costs ten times as much), its
    /// decimal point a `.` whatever the locale.
    static func appendTenDigits(_ value: Double, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            guard let base = buffer.baseAddress else { return }
            let length = Int(withVaList([value]) { vsnprintf(base, 32, "%.10g", $0) })
            for i in 0 ..< min(max(length, 0), 31) {
                let b = UInt8(bitPattern: base[i])
                switch b {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "i"),
                     UInt8(ascii: "n"), UInt8(ascii: "f"), UInt8(ascii: "a"):
                    bytes.append(b)
                default:
                    bytes.append(UInt8(ascii: "."))
                }
            }
        }
    }

    /// NSFont: its name as a serialized property list (`-[NSArchiver encodePropertyList:]`: a
    /// data object in NeXT's serializer format), its size `f`, then four flag bytes `c`. Keyed:
    /// `NSName` and `NSSize`.
    mutating func readFont(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let serialized = Self.dataObject(&groups),
              case .string(let name)? = try? SerializedPropertyList.read(serialized),
              let sizeGroup = groups.next(ofEncoding: "f"), let size = sizeGroup.values[0].doubleValue else { return nil }
        // The four flag bytes that follow have no known meaning nor keyed counterpart
        // (`NSfFlags` packs other bits): they stay as the generic `$0`…`$3` after these keys.
        return .fields([("NSName", add(.string(name))), ("NSSize", .real(size))])
    }

    /// NSParagraphStyle: one `CC@S` group (alignment, line break mode, tab stops, and a mask of
    /// the metrics that follow), then those metrics as one `[n f]` in the mask's bit order.
    /// Keyed: `NSAlignment` and `NSLineBreakMode` when not 0, `NSTabStops`, and each metric
    /// present under its key.
    mutating func readParagraphStyle(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let group = groups.next(ofEncoding: "CC@S"), let alignment = group.values[0].integerValue,
              let lineBreak = group.values[1].integerValue, let mask = group.values[3].integerValue else { return nil }
        var fields: [(String, PropertyListValue)] = []
        if alignment != 0 { fields.append(("NSAlignment", .integer(PropertyListInteger(alignment)))) }
        if lineBreak != 0 { fields.append(("NSLineBreakMode", .integer(PropertyListInteger(lineBreak)))) }
        if group.values[2] != .null { fields.append(("NSTabStops", value(group.values[2]))) }
        let present = Self.paragraphMetrics.indices.filter { mask & (1 << $0) != 0 }
        if !present.isEmpty {
            guard let metrics = groups.next(ofEncoding: "[\(present.count)f]"), case .array(let numbers) = metrics.values[0],
                  numbers.count == present.count else { return nil }
            for (bit, number) in zip(present, numbers) {
                guard let v = number.doubleValue else { return nil }
                fields.append((Self.paragraphMetrics[bit], .real(v)))
            }
        }
        return .fields(fields)
    }

    /// The keyed names of NSParagraphStyle's metrics, by their bit in the typedstream's mask.
    static let paragraphMetrics = [
        "NSLineSpacing", "NSParagraphSpacing", "NSHeadIndent", "NSTailIndent", "NSFirstLineHeadIndent",
        "NSMinLineHeight", "NSMaxLineHeight", "NSLineHeightMultiple", "NSParagraphSpacingBefore",
        "NSDefaultTabInterval", "NSHyphenationFactor", "NSTighteningFactorForTruncation", "NSHeaderLevel",
    ]

    /// NSTextTab: its type and location as one `Cf` group; keyed `NSLocation`, and `NSType`
    /// when not 0 (left).
    mutating func readTextTab(_ groups: inout TypedStreamGroupCursor) -> Reading? {
        guard let group = groups.next(ofEncoding: "Cf"), let type = group.values[0].integerValue,
              let location = group.values[1].doubleValue else { return nil }
        var fields: [(String, PropertyListValue)] = [("NSLocation", .real(location))]
        if type != 0 { fields.append(("NSType", .integer(PropertyListInteger(type)))) }
        return .fields(fields)
    }
}
