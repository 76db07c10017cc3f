/// One Objective-C type from a typedstream's type encoding string (`i`, `@`, `{_NSPoint=ff}`,
/// `[12c]`…), as NSArchiver writes it before every group of values.
///
/// The encoding is what makes a typedstream readable without the classes that wrote it: every
/// value says its type, so a reader walks the stream knowing nothing of any class.
public enum ObjCType: Sendable, Hashable {
    /// `c`: one byte, as written (often a BOOL).
    case char
    /// `C`
    case unsignedChar
    /// `s`, `S`, `i`, `I`, `l`, `L`, `q`, `Q`: integers in the compact encoding.
    case short, unsignedShort, int, unsignedInt, long, unsignedLong, longLong, unsignedLongLong
    /// `f`, `d`: integral values are written as integers, others after the real tag.
    case float, double
    /// `B`: C99 `_Bool`, one byte.
    case bool
    /// `*`: a C string, shared by reference like objects.
    case cString
    /// `%`: a NeXTSTEP atom (a uniqued C string), from the shared string table.
    case atom
    /// `:`: a selector's name, from the shared string table.
    case selector
    /// `+`: bytes with a length and no sharing (NSString's characters are written this way).
    case unsharedString
    /// `#`: a class, with its chain of superclasses the first time it is written.
    case classObject
    /// `@`: an object, written in full the first time and by reference after.
    case object
    /// `!`: an int-sized field the archiver skips: its type is written, no bytes.
    case ignored
    /// `[12c]`: a C array of a fixed count.
    indirect case array(count: Int, element: ObjCType)
    /// `{_NSRect=…}`: a struct's fields in order, with its name when the encoding has one.
    case structure(name: String?, fields: [ObjCType])
    /// `(…)`: a union, written as NeXT's typedstream.m wrote it: as many raw bytes as its largest
    /// member takes (members sized as 32-bit NeXTSTEP sized them).
    case union(name: String?, byteCount: Int)
    /// `^i`: a pointer, written as the value it points to.
    indirect case pointer(ObjCType)

    /// The fewest bytes a value of this type takes in a stream: 1 for every tagged value (a nil
    /// takes its tag), 0 for `!`. Used to refuse arrays longer than the bytes left could hold,
    /// before reading them.
    public var minimumByteCount: Int {
        switch self {
        case .ignored: 0
        case .array(let count, let element): count.multipliedReportingOverflow(by: element.minimumByteCount).overflow ? Int.max : count * element.minimumByteCount
        case .structure(_, let fields):
            fields.reduce(0) { sum, field in
                let (total, overflow) = sum.addingReportingOverflow(field.minimumByteCount)
                return overflow ? Int.max : total
            }
        case .union(_, let byteCount): byteCount
        case .pointer(let pointee): pointee.minimumByteCount
        default: 1
        }
    }

    /// The encoding string of this type, as a writer would put it in the stream.
    public var encoding: String {
        switch self {
        case .char: "c"
        case .unsignedChar: "C"
        case .short: "s"
        case .unsignedShort: "S"
        case .int: "i"
        case .unsignedInt: "I"
        case .long: "l"
        case .unsignedLong: "L"
        case .longLong: "q"
        case .unsignedLongLong: "Q"
        case .float: "f"
        case .double: "d"
        case .bool: "B"
        case .cString: "*"
        case .atom: "%"
        case .selector: ":"
        case .unsharedString: "+"
        case .classObject: "#"
        case .object: "@"
        case .ignored: "!"
        case .array(let count, let element): "[\(count)\(element.encoding)]"
        case .structure(let name, let fields): "{" + (name.map { $0 + "=" } ?? "") + fields.map(\.encoding).joined() + "}"
        case .union(let name, let byteCount): "(" + (name ?? "?") + "=[\(byteCount)C])"
        case .pointer(let pointee): "^" + pointee.encoding
        }
    }
}
