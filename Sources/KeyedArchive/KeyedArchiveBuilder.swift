import Foundation
import PropertyList

/// Builds a `KeyedArchive` object by object, for writing archives from scratch: a server that
/// answers with blobs an app reads through NSKeyedUnarchiver, or test fixtures of classes that
/// only exist on Apple platforms (UIColor, Swift classes with mangled names).
///
/// Strings and numbers are stored inline in `$objects` and uniqued, as Foundation does; every
/// other object is a dictionary with a class description. The standard Foundation classes
/// have helpers that write their fields exactly as Foundation's archiver does.
public struct KeyedArchiveBuilder: Sendable {
    var objects: [ArchivedObject?] = [nil]
    /// The plist each UID would hold in `$objects`, so that fields can be read back as they are built.
    var raw: [PropertyListValue] = ["$null"]
    var classes: [String: ArchivedClass] = [:]
    var inlineStrings: [String: Int] = [:]
    var inlineNumbers: [PropertyListValue: Int] = [:]
    var nullObject: ArchivedValue?

    public init() {}

    /// Reserves a UID for an object whose fields are given later with `define`, so that an
    /// object can refer to itself or to an ancestor.
    public mutating func reserve() -> ArchivedValue {
        objects.append(nil)
        raw.append(.dictionary(PropertyListDictionary()))
        return .object(uid: objects.count - 1)
    }

    /// Gives a reserved object its class and fields.
    public mutating func define(_ reserved: ArchivedValue, className: String, chain: [String]? = nil, hints: [String] = [], fields: [ArchivedField]) {
        guard case .object(let uid) = reserved, uid < objects.count else { return }
        let archivedClass = classDescription(className, chain: chain ?? [className, "NSObject"], hints: hints)
        var object = ArchivedObject(uid: uid, archivedClass: archivedClass, fields: fields, content: .object)
        object.content = ArchivedContentDecoder(raw: raw, object: object).decode()
        objects[uid] = object
    }

    /// An object of any class, with its keyed fields.
    public mutating func object(_ className: String, chain: [String]? = nil, hints: [String] = [], fields: [ArchivedField]) -> ArchivedValue {
        let reserved = reserve()
        define(reserved, className: className, chain: chain, hints: hints, fields: fields)
        return reserved
    }

    mutating func classDescription(_ name: String, chain: [String], hints: [String]) -> ArchivedClass {
        let key = ([name] + chain + ["|"] + hints).joined(separator: "\u{0}")
        if let known = classes[key] { return known }
        // Class UIDs only need to be distinct from object UIDs and each other; the writer renumbers.
        let made = ArchivedClass(uid: -(classes.count + 1), name: name, chain: chain, hints: hints)
        classes[key] = made
        return made
    }

    /// An NSString, stored inline and uniqued.
    ///
    /// The string `"$null"` is the exception: inline, unarchivers take it for nil (it is how
    /// `$objects[0]` spells nil), so it is an NSString object holding it in `NS.string`.
    public mutating func string(_ s: String) -> ArchivedValue {
        if let uid = inlineStrings[s] { return .object(uid: uid) }
        if s == "$null" {
            let made = object("NSString", fields: [ArchivedField(key: "NS.string", value: .inline(.string(s)))])
            if case .object(let uid) = made { inlineStrings[s] = uid }
            return made
        }
        objects.append(ArchivedObject(uid: objects.count, archivedClass: nil, fields: [], content: .string(s)))
        raw.append(.string(s))
        inlineStrings[s] = objects.count - 1
        return .object(uid: objects.count - 1)
    }

    /// An NSNumber (integer, real or bool), stored inline and uniqued.
    public mutating func number(_ n: PropertyListValue) -> ArchivedValue {
        if let uid = inlineNumbers[n] { return .object(uid: uid) }
        objects.append(ArchivedObject(uid: objects.count, archivedClass: nil, fields: [], content: .number(n)))
        raw.append(n)
        inlineNumbers[n] = objects.count - 1
        return .object(uid: objects.count - 1)
    }

    /// An NSData, stored inline.
    public mutating func data(_ d: Data) -> ArchivedValue {
        objects.append(ArchivedObject(uid: objects.count, archivedClass: nil, fields: [], content: .data(d)))
        raw.append(.data(d))
        return .object(uid: objects.count - 1)
    }

    /// An NSDate (`NS.time`).
    public mutating func date(_ d: Date) -> ArchivedValue {
        object("NSDate", fields: [ArchivedField(key: "NS.time", value: .inline(.real(d.timeIntervalSinceReferenceDate)))])
    }

    /// An NSArray (or NSMutableArray) of the given elements.
    public mutating func array(_ elements: [ArchivedValue], mutable: Bool = false) -> ArchivedValue {
        let name = mutable ? "NSMutableArray" : "NSArray"
        return object(name, chain: mutable ? [name, "NSArray", "NSObject"] : nil,
                      fields: [ArchivedField(key: "NS.objects", value: .array(elements))])
    }

    /// An NSSet of the given elements.
    public mutating func set(_ elements: [ArchivedValue]) -> ArchivedValue {
        object("NSSet", fields: [ArchivedField(key: "NS.objects", value: .array(elements))])
    }

    /// An NSDictionary; keys and values pair up by position.
    public mutating func dictionary(keys: [ArchivedValue], values: [ArchivedValue], mutable: Bool = false) -> ArchivedValue {
        let name = mutable ? "NSMutableDictionary" : "NSDictionary"
        return object(name, chain: mutable ? [name, "NSDictionary", "NSObject"] : nil, fields: [
            ArchivedField(key: "NS.keys", value: .array(keys)),
            ArchivedField(key: "NS.objects", value: .array(values)),
        ])
    }

    /// An NSURL: a string relative to an optional base URL object.
    public mutating func url(_ relative: String, base: ArchivedValue = .null) -> ArchivedValue {
        let relativeString = string(relative)
        return object("NSURL", fields: [
            ArchivedField(key: "NS.base", value: base),
            ArchivedField(key: "NS.relative", value: relativeString),
        ])
    }

    /// An NSUUID.
    public mutating func uuid(_ u: UUID) -> ArchivedValue {
        let bytes = withUnsafeBytes(of: u.uuid) { Data($0) }
        return object("NSUUID", fields: [ArchivedField(key: "NS.uuidbytes", value: .inline(.data(bytes)))])
    }

    /// NSNull: one object however often it is used, as Foundation archives its singleton.
    public mutating func null() -> ArchivedValue {
        if let nullObject { return nullObject }
        let made = object("NSNull", fields: [])
        nullObject = made
        return made
    }

    /// A UIColor as iOS archives an sRGB color: float32 components, their float64 twins, the
    /// component count, `NSRGB` text for macOS readers and `NSColorSpace`, with `NSColor` as the
    /// class hint.
    public mutating func uiColor(red: Double, green: Double, blue: Double, alpha: Double) -> ArchivedValue {
        func float32(_ v: Double) -> ArchivedValue { .inline(.real(Double(Float(v)))) }
        let rgb = String(format: "%.3g %.3g %.3g", red, green, blue)
        var rgbBytes = Data(rgb.utf8)
        rgbBytes.append(0)
        return object("UIColor", chain: ["UIColor", "NSObject"], hints: ["NSColor"], fields: [
            ArchivedField(key: "UIColorComponentCount", value: .inline(.integer(PropertyListInteger(4)))),
            ArchivedField(key: "UIRed", value: float32(red)),
            ArchivedField(key: "UIGreen", value: float32(green)),
            ArchivedField(key: "UIBlue", value: float32(blue)),
            ArchivedField(key: "UIAlpha", value: float32(alpha)),
            ArchivedField(key: "NSRGB", value: .inline(.data(rgbBytes))),
            ArchivedField(key: "NSColorSpace", value: .inline(.integer(PropertyListInteger(2)))),
        ])
    }

    /// The finished archive, with `root` under `$top`'s `root` key.
    public func archive(root: ArchivedValue) -> KeyedArchive {
        KeyedArchive(top: [ArchivedField(key: "root", value: root)], root: root, objects: objects, plist: .null)
    }
}
