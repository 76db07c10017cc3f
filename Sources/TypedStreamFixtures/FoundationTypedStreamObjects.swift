import Foundation

/// Foundation's and AppKit's objects as NSArchiver writes them, for building test streams:
/// each class's chain with its versions and the groups its `-encodeWithCoder:` writes
/// (superclass groups first), as real streams in `../shared/corpus/typedstream` show them.
public enum FoundationTypedStreamObjects {
    static let object = (name: "NSObject", version: 0)

    /// NSString: its UTF-8 bytes as one `+`.
    public static func string(_ s: String) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSString", 1), object], groups: [("+", [.unsharedString(Array(s.utf8))])])
    }

    /// NSMutableString: NSString's group, nothing of its own.
    public static func mutableString(_ s: String) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSMutableString", 1), ("NSString", 1), object], groups: [("+", [.unsharedString(Array(s.utf8))])])
    }

    /// NSNumber: NSValue's groups, its type encoding as a C string, then the value in it.
    public static func number(_ value: Int64, encoding: String = "i") -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSNumber", 0), ("NSValue", 0), object], groups: [("*", [.cString(encoding)]), (encoding, [.integer(value)])])
    }

    /// NSNumber of a double (`d`).
    public static func double(_ value: Double) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSNumber", 0), ("NSValue", 0), object], groups: [("*", [.cString("d")]), ("d", [.double(value)])])
    }

    /// A BOOL NSNumber: type `c`, as `-[NSNumber objCType]` of a CFBoolean says.
    public static func bool(_ value: Bool) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSNumber", 0), ("NSValue", 0), object], groups: [("*", [.cString("c")]), ("c", [.char(value ? 1 : 0)])])
    }

    /// NSValue of an NSRect (`{_NSRect={_NSPoint=ff}{_NSSize=ff}}`).
    public static func rect(x: Float, y: Float, width: Float, height: Float) -> TypedStreamObjectSpec {
        let encoding = "{_NSRect={_NSPoint=ff}{_NSSize=ff}}"
        return TypedStreamObjectSpec([("NSValue", 0), object], groups: [
            ("*", [.cString(encoding)]),
            (encoding, [.sequence([.float(x), .float(y), .float(width), .float(height)])]),
        ])
    }

    /// NSValue of an NSRange (`{_NSRange=QQ}`).
    public static func range(location: Int64, length: Int64) -> TypedStreamObjectSpec {
        let encoding = "{_NSRange=QQ}"
        return TypedStreamObjectSpec([("NSValue", 0), object], groups: [("*", [.cString(encoding)]), (encoding, [.sequence([.integer(location), .integer(length)])])])
    }

    /// NSData: its length as `i`, then its bytes as `[n c]`.
    public static func data(_ bytes: [UInt8], mutable: Bool = false) -> TypedStreamObjectSpec {
        let chain: [(name: String, version: Int)] = mutable ? [("NSMutableData", 0), ("NSData", 0), object] : [("NSData", 0), object]
        return TypedStreamObjectSpec(chain, groups: [("i", [.integer(Int64(bytes.count))]), ("[\(bytes.count)c]", [.bytes(bytes)])])
    }

    /// NSDate: seconds since 2001 as `d`.
    public static func date(_ seconds: Double) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSDate", 0), object], groups: [("d", [.double(seconds)])])
    }

    /// NSArray: the count as `i`, then each element as its own `@` group.
    public static func array(_ elements: [TypedStreamObjectSpec?], mutable: Bool = false) -> TypedStreamObjectSpec {
        let chain: [(name: String, version: Int)] = mutable ? [("NSMutableArray", 0), ("NSArray", 0), object] : [("NSArray", 0), object]
        return TypedStreamObjectSpec(chain, groups: [("i", [.integer(Int64(elements.count))])] + elements.map { ("@", [.object($0)]) })
    }

    /// NSSet: the count as `I`, then each element as its own `@` group.
    public static func set(_ elements: [TypedStreamObjectSpec]) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSSet", 0), object], groups: [("I", [.integer(Int64(elements.count))])] + elements.map { ("@", [.object($0)]) })
    }

    /// NSDictionary: the count as `i`, then each key and each value as their own `@` groups.
    public static func dictionary(_ entries: [(key: TypedStreamObjectSpec, value: TypedStreamObjectSpec?)], mutable: Bool = false) -> TypedStreamObjectSpec {
        let chain: [(name: String, version: Int)] = mutable ? [("NSMutableDictionary", 0), ("NSDictionary", 0), object] : [("NSDictionary", 0), object]
        var groups: [(encoding: String, values: [TypedStreamValueSpec])] = [("i", [.integer(Int64(entries.count))])]
        for entry in entries {
            groups.append(("@", [.object(entry.key)]))
            groups.append(("@", [.object(entry.value)]))
        }
        return TypedStreamObjectSpec(chain, groups: groups)
    }

    /// NSURL: whether it is relative as `c`, its base when it is, then its string.
    public static func url(_ string: String, base: TypedStreamObjectSpec? = nil) -> TypedStreamObjectSpec {
        var groups: [(encoding: String, values: [TypedStreamValueSpec])] = [("c", [.char(base == nil ? 0 : 1)])]
        if let base { groups.append(("@", [.object(base)])) }
        groups.append(("@", [.object(Self.string(string))]))
        return TypedStreamObjectSpec([("NSURL", 0), object], groups: groups)
    }

    /// NSColor in one of its component kinds: 1 calibrated RGB, 2 device RGB (`ffff`), 3
    /// calibrated white, 4 device white (`ff`), 5 device CMYK (`fffff`).
    public static func color(kind: Int8, components: [Float]) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSColor", 0), object], groups: [
            ("c", [.char(kind)]),
            (String(repeating: "f", count: components.count), components.map { .float($0) }),
        ])
    }

    /// A catalog NSColor (kind 6): its catalog and color names, then the color it stands for.
    public static func namedColor(catalog: String, name: String, color: TypedStreamObjectSpec) -> TypedStreamObjectSpec {
        TypedStreamObjectSpec([("NSColor", 0), object], groups: [
            ("c", [.char(6)]),
            ("@@@", [.object(string(catalog)), .object(string(name)), .object(color)]),
        ])
    }

    /// NSAttributedString (or its mutable subclass): the string, then each run as `iI` (the
    /// number of its attribute dictionary, from 1, and its length), followed by the dictionary
    /// as an `@` group when that number is met for the first time.
    public static func attributedString(_ string: TypedStreamObjectSpec, runs: [(attributes: TypedStreamObjectSpec, length: Int)], mutable: Bool = true) -> TypedStreamObjectSpec {
        let chain: [(name: String, version: Int)] = mutable
            ? [("NSMutableAttributedString", 0), ("NSAttributedString", 0), object]
            : [("NSAttributedString", 0), object]
        var groups: [(encoding: String, values: [TypedStreamValueSpec])] = [("@", [.object(string)])]
        var numbers: [ObjectIdentifier: Int] = [:]
        for run in runs {
            if let number = numbers[ObjectIdentifier(run.attributes)] {
                groups.append(("iI", [.integer(Int64(number)), .integer(Int64(run.length))]))
            } else {
                let number = numbers.count + 1
                numbers[ObjectIdentifier(run.attributes)] = number
                groups.append(("iI", [.integer(Int64(number)), .integer(Int64(run.length))]))
                groups.append(("@", [.object(run.attributes)]))
            }
        }
        return TypedStreamObjectSpec(chain, groups: groups)
    }
}
